// The decode-side conformance battery's list of family grammars × the files available here.
// Every entry is a grammar compiled by compileDecoderSpecFor over a real (or tiny committed)
// text model; the battery runs the same checks on each, so a family gets them by being listed.
//
// Until test-vectors/families/<name>.fixtures.json (core-tok's shape) lands, the entries use
// the existing fixtures loading of the decoder tests (./models.ts): Qwen3 always, the tiny
// committed SentencePiece models always, the real InternLM2/ChatGLM3 files when present. The
// synthetic pair / role grammars (../grammar-support.ts) stand for the shapes of Llama 3 and
// DeepSeek until their definitions are merged.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  CHATGLM3_IDS,
  type ChatTokenizer,
  type Grammar,
  INTERNLM2_IDS,
  type TextModel,
} from "@chatwire/tokenizer";
import { haveFixtures } from "../../../../test-support/fixtures.ts";
import { compileDecoderSpec, compileDecoderSpecFor, type DecoderSpec } from "../../src/index.ts";
import { PAIR_GRAMMAR, PAIR_KEYS, ROLE_KEYS, roleGrammar, syntheticFamily } from "../grammar-support.ts";
import { repoRoot, tinyModel, tokenizer } from "../models.ts";

export interface FamilyCase {
  readonly name: string;
  readonly available: boolean;
  /** The spec with the registry's EOS IDs, and with none (decoding whole conversations). */
  spec(eos: "default" | "none"): DecoderSpec;
  /** Reserved IDs with a move or misplaced (for random streams). */
  markerIds(): readonly number[];
  /** Text model vocabulary size. */
  vocabSize(): number;
  /** Golden ID sequences from the reference tools (test-vectors/golden), if any. */
  goldenIds(): ReadonlyArray<{ readonly name: string; readonly ids: readonly number[] }>;
  /** The loaded tokenizer, for encode -> decode round trips (absent: a grammar without an encoder here). */
  readonly tokenizer?: () => ChatTokenizer;
}

function golden(files: readonly string[]): Array<{ name: string; ids: number[] }> {
  const out: Array<{ name: string; ids: number[] }> = [];
  for (const f of files) {
    const doc = JSON.parse(readFileSync(resolve(repoRoot, "test-vectors/golden", f), "utf8")) as {
      vectors: Array<{ name: string; ids?: number[] }>;
    };
    for (const v of doc.vectors) if (Array.isArray(v.ids)) out.push({ name: `${f}: ${v.name}`, ids: v.ids });
  }
  return out;
}

function cached<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => {
    if (v === undefined) v = make();
    return v;
  };
}

/** A loaded tokenizer: compileDecoderSpecFor(tok) (its family's grammar, its verified registry). */
function loaded(name: "qwen3" | "internlm2" | "chatglm3", available: boolean): FamilyCase {
  const make = (eos: "default" | "none") =>
    cached(() => compileDecoderSpecFor(tokenizer(name), eos === "none" ? { eosIds: [] } : {}));
  const specs = { default: make("default"), none: make("none") };
  return {
    name,
    available,
    spec: (eos) => specs[eos](),
    markerIds: () => [...tokenizer(name).registry.ids],
    vocabSize: () => tokenizer(name).textModel.vocabSize,
    goldenIds: () => golden([`${name}.chat.json`, `${name}.decode.json`]),
    tokenizer: () => tokenizer(name),
  };
}

function tiny(model: "tiny-ilm" | "tiny-glm", format: "internlm2" | "chatglm3", ids: object): FamilyCase {
  const make = (eos: "default" | "none") =>
    cached(() => compileDecoderSpec(tinyModel(model), format, eos === "none" ? { eosIds: [] } : {}));
  const specs = { default: make("default"), none: make("none") };
  return {
    name: `${format} grammar on ${model}`,
    available: true,
    spec: (eos) => specs[eos](),
    markerIds: () => Object.values(ids) as number[],
    vocabSize: () => (tinyModel(model) as TextModel).vocabSize,
    goldenIds: () => (model === "tiny-glm" ? golden(["tiny-glm.decode.json"]) : []),
  };
}

function synthetic(name: string, grammar: Grammar, keys: readonly string[], eosKey: string): FamilyCase {
  const fams = {
    default: cached(() => syntheticFamily(grammar, keys, [eosKey])),
    none: cached(() => syntheticFamily(grammar, keys, [])),
  };
  return {
    name,
    available: true,
    spec: (eos) => fams[eos]().spec,
    markerIds: () => Object.values(fams.default().id),
    vocabSize: () => fams.default().vocabSize,
    goldenIds: () => [],
  };
}

export const FAMILY_CASES: readonly FamilyCase[] = [
  loaded("qwen3", true),
  loaded("internlm2", haveFixtures()),
  loaded("chatglm3", haveFixtures()),
  tiny("tiny-ilm", "internlm2", INTERNLM2_IDS),
  tiny("tiny-glm", "chatglm3", CHATGLM3_IDS),
  synthetic("synthetic pair header (Llama 3 shape)", PAIR_GRAMMAR, PAIR_KEYS, "eot"),
  synthetic(
    "synthetic role markers + container (DeepSeek shape)",
    roleGrammar("json-call"),
    ROLE_KEYS,
    "eos",
  ),
];
