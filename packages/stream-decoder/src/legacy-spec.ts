// The legacy compileDecoderSpec(model, format): a built-in family's grammar over its STATIC ID
// tables (kept while the CLI, server and bench move to compileDecoderSpecFor, which compiles
// the verified registry of the loaded files; this one does not know reserved IDs those files
// add, such as InternVL2's <img>). Same compiler (./spec.ts) as every other spec.
import {
  CHATGLM3_EOS,
  CHATGLM3_GRAMMAR,
  CHATGLM3_IDS,
  CHATGLM3_RESERVED,
  type FormatName,
  GPTOSS_EOS,
  GPTOSS_GRAMMAR,
  GPTOSS_IDS,
  GPTOSS_RESERVED,
  type Grammar,
  INTERNLM2_EOS,
  INTERNLM2_GRAMMAR,
  INTERNLM2_IDS,
  INTERNLM2_RESERVED,
  QWEN3_EOS,
  QWEN3_GRAMMAR,
  QWEN3_IDS,
  QWEN3_RESERVED,
  type TextModel,
} from "@chatwire/tokenizer";
import { compileGrammarSpec, type DecoderSpec, type DecoderSpecOptions } from "./spec.ts";

interface Builtin {
  readonly grammar: Grammar;
  readonly ids: Readonly<Record<string, number>>;
  readonly reserved: ReadonlyArray<readonly [string, number]>;
  readonly eos: readonly number[];
}

/** The static tables of the built-in families (the legacy compileDecoderSpec only). */
const BUILTIN: Readonly<Record<FormatName, Builtin>> = {
  internlm2: {
    grammar: INTERNLM2_GRAMMAR,
    ids: INTERNLM2_IDS,
    reserved: INTERNLM2_RESERVED,
    eos: INTERNLM2_EOS,
  },
  chatglm3: {
    grammar: CHATGLM3_GRAMMAR,
    ids: CHATGLM3_IDS,
    reserved: [["</s>", CHATGLM3_IDS.eos], ...CHATGLM3_RESERVED],
    eos: CHATGLM3_EOS,
  },
  qwen3: { grammar: QWEN3_GRAMMAR, ids: QWEN3_IDS, reserved: QWEN3_RESERVED, eos: QWEN3_EOS },
  "gpt-oss": { grammar: GPTOSS_GRAMMAR, ids: GPTOSS_IDS, reserved: GPTOSS_RESERVED, eos: GPTOSS_EOS },
};

/** Legacy: prefer compileDecoderSpecFor(tok), which compiles the loaded files' verified registry. */
export function compileDecoderSpec(
  model: TextModel,
  format: FormatName,
  options: DecoderSpecOptions = {},
): DecoderSpec {
  const b = Object.hasOwn(BUILTIN, format) ? BUILTIN[format] : undefined;
  // FormatName is a string since families became data (core-tok): only the built-in four here.
  if (b === undefined)
    throw new TypeError(`no static decoder tables for ${format}; use compileDecoderSpecFor`);
  const reservedName = new Map<number, string>();
  for (const [name, id] of b.reserved) reservedName.set(id, name);
  return compileGrammarSpec(model, format, b.grammar, b.ids, {
    reservedIds: new Set(reservedName.keys()),
    reservedName,
    eosIds: options.eosIds ?? b.eos,
    startInReasoning: options.startInReasoning === true,
  });
}
