// The one shape the server reads of a loaded tokenizer, from either kind: a native family's
// ChatTokenizer, or a TemplateTokenizer bound to the model's own chat template (docs/serve.md
// "Template-only models"). Built once per tokenizer (memoised: the template probe renders the
// template several times):
//   native    spec compileDecoderSpecFor(tok); prefill the family's callOpening over its IDs;
//             ChunkWriter grammar the family's (by format); stops the registry's EOS IDs
//   template  spec compileTemplateDecoderSpec(tok.textModel, probeTemplate(tok)); prefill
//             templateCallOpening(tok); ChunkWriter grammar the probed one; stops the probed
//             EOS IDs and end of turn
// Where decoding starts is per request (specFor): in the grammar's reasoning block exactly when
// that request's rendered prompt leaves it open (enable_thinking and the like change it), the
// spec of each start state compiled once.
import { type PrefillSource, templateCallOpening } from "@chatwire/openai";
import {
  compileDecoderSpecFor,
  compileTemplateDecoderSpec,
  type DecoderSpec,
  type DecoderSpecOptions,
  promptOpensStartBlock,
  templateGrammarOf,
} from "@chatwire/stream-decoder";
import {
  type AnyTokenizer,
  type ChatEncoding,
  type ChatRequest,
  type ChatTokenizer,
  type DecodeOptions,
  type Grammar,
  probeTemplate,
  type TemplateTokenizer,
  type TextEncoding,
} from "@chatwire/tokenizer";

/** What the routes call: the encoders and the decoder of the served model's tokenizer. */
export interface ServedEncoder {
  /** A native family's name, or "template". */
  readonly format: string;
  encodeChat(request: ChatRequest): ChatEncoding;
  encodeText(text: string): TextEncoding;
  decode(ids: readonly number[], options?: DecodeOptions): string;
}

export interface ServedTokenizer {
  readonly tokenizer: ServedEncoder;
  /** The spec of the format's default start (the probed or family's own generation prompt). */
  readonly spec: DecoderSpec;
  /**
   * The spec to decode the generation that follows `promptIds`: it starts inside the grammar's
   * reasoning block exactly when the prompt leaves that block open (promptOpensStartBlock).
   * Linear in the prompt; each start state's spec is compiled once.
   */
  specFor(promptIds: readonly number[]): DecoderSpec;
  /** The reserved ID that closes that reasoning block (the tool_choice prefill's close), or undefined. */
  readonly startBlockClose: number | undefined;
  /** ChunkWriter's grammar; undefined: the native family's, found by its format name. */
  readonly grammar: Grammar | undefined;
  /** What toolChoicePrefill reads. */
  readonly prefill: PrefillSource;
  /** IDs that end the model's turn (the replay script is cut after the first). */
  readonly stopIds: readonly number[];
  /** The ID a model writes to end its turn when the rendering writes no stop. */
  readonly turnEndId: number | undefined;
}

const isTemplate = (tok: AnyTokenizer): tok is TemplateTokenizer => tok.format === "template";

const SERVED = new WeakMap<AnyTokenizer, ServedTokenizer>();

/** The served shape of `tok`; a template whose probe fails throws its TokenizerError. */
export function servedTokenizer(tok: AnyTokenizer): ServedTokenizer {
  let s = SERVED.get(tok);
  if (s === undefined) {
    s = isTemplate(tok) ? fromTemplate(tok) : fromNative(tok);
    SERVED.set(tok, s);
  }
  return s;
}

/** specFor over `compile`: the base spec, and the other start state's compiled on first use. */
function perStart(compile: (o: DecoderSpecOptions) => DecoderSpec): {
  spec: DecoderSpec;
  specFor: (promptIds: readonly number[]) => DecoderSpec;
} {
  const spec = compile({});
  const byStart = new Map<boolean, DecoderSpec>([[spec.startInReasoning, spec]]);
  const specFor = (promptIds: readonly number[]): DecoderSpec => {
    const open = promptOpensStartBlock(spec, promptIds);
    let s = byStart.get(open);
    if (s === undefined) {
      s = compile({ startInReasoning: open });
      byStart.set(open, s);
    }
    return s;
  };
  return { spec, specFor };
}

/** The ID of the marker that closes the grammar's startBlock, from the grammar's own data. */
function startBlockClose(grammar: Grammar, ids: Readonly<Record<string, number>>): number | undefined {
  const start = grammar.startBlock;
  if (start === undefined) return undefined;
  for (const [key, m] of Object.entries(grammar.markers))
    if (m?.move === "block-close" && m.block === start && ids[key] !== undefined) return ids[key];
  return undefined;
}

function fromNative(tok: ChatTokenizer): ServedTokenizer {
  return {
    tokenizer: tok,
    ...perStart((o) => compileDecoderSpecFor(tok, o)),
    startBlockClose: startBlockClose(tok.family.grammar, tok.tokenIds),
    grammar: undefined,
    prefill: tok,
    stopIds: tok.registry.eosIds,
    turnEndId: nativeTurnEnd(tok),
  };
}

function fromTemplate(tok: TemplateTokenizer): ServedTokenizer {
  const probe = probeTemplate(tok);
  const { spec, specFor } = perStart((o) => compileTemplateDecoderSpec(tok.textModel, probe, o));
  const callOpening = templateCallOpening(tok);
  const stops = [...probe.eosIds];
  if (probe.endOfTurn !== null && !stops.includes(probe.endOfTurn)) stops.push(probe.endOfTurn);
  return {
    tokenizer: tok,
    spec,
    specFor,
    startBlockClose: startBlockClose(probe.output.grammar, probe.output.ids),
    grammar: templateGrammarOf(spec),
    prefill: { encodeText: (text) => tok.encodeText(text), callOpening },
    stopIds: stops,
    turnEndId: probe.endOfTurn ?? probe.eosIds[0],
  };
}

/**
 * The stop ID a model writes to end its turn: the first EOS ID the grammar reads as the end of
 * a message (a message-end marker, or a role marker that starts the next turn), else the first
 * EOS ID.
 */
function nativeTurnEnd(tok: ChatTokenizer): number | undefined {
  const moves = new Map<number, string>();
  for (const [key, m] of Object.entries(tok.family.grammar.markers)) {
    const id = tok.tokenIds[key];
    if (m !== undefined && id !== undefined) moves.set(id, m.move);
  }
  const eos = tok.registry.eosIds;
  return eos.find((id) => moves.get(id) === "message-end" || moves.get(id) === "role") ?? eos[0];
}
