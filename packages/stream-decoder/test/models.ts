// Text models for the decoder tests: Qwen3 (always), tiny SentencePiece models committed in
// test-vectors/models (always), the real InternLM2/ChatGLM3 files (only with fixtures).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatTokenizer, LegacyFormatName, TextModel } from "@chatwire/tokenizer";
import { loadTokenizerSync } from "@chatwire/tokenizer/node";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
// Internal (not a public API of @chatwire/tokenizer): a bare text model from a tiny .model file.
import { loadSentencePieceModel } from "../../tokenizer/src/sentencepiece/index.ts";
import {
  compileDecoderSpec,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
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

/**
 * A spec in which no ID of the text model is a marker: the "qwen3" marker IDs (151643..) lie
 * above every SentencePiece vocabulary here, and for Qwen3 itself the test IDs stay below them.
 * So a whole ID sequence is ONE span.
 */
export function spanSpec(model: TextModel): DecoderSpec {
  return compileDecoderSpec(model, "qwen3", { eosIds: [] });
}

export function run(spec: DecoderSpec, ids: readonly number[], options: DecoderOptions = {}): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(spec, c, options);
  d.pushMany(ids);
  d.end();
  return c.events;
}

export function textOf(
  events: readonly DecoderEvent[],
  type: "text" | "reasoning" | "action_text" = "text",
): string {
  let s = "";
  for (const e of events) if (e.type === type) s += e.text;
  return s;
}

export function formatSpec(format: Exclude<LegacyFormatName, "gpt-oss">): DecoderSpec {
  return compileDecoderSpec(tokenizer(format).textModel, format);
}
