// The decode-side conformance battery's list: every family definition (FAMILIES) x every
// tokenizer of its fixtures file (test-vectors/families/<name>.fixtures.json, shape in
// test-support/family-fixtures.ts) whose files are available here, each compiled with
// compileDecoderSpecFor(tok) (its grammar, its verified registry); the golden ID sequences are
// the fixtures' goldens. A new family gets every check of the battery by being listed there.
// Also: the tiny committed SentencePiece models under the built-in grammars, and the synthetic
// pair / role / text-marker grammars (../grammar-support.ts). Harmony-syntax families have their own decoder
// (and its own differential test): they are listed but not run here.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type ChatTokenizer, FAMILIES, type Grammar, type TextModel } from "@chatwire/tokenizer";
import {
  familyFixtures,
  goldenVectors,
  missingOf,
  type RoundTripTurns,
} from "../../../../test-support/family-fixtures.ts";
import { loadFixtureTokenizer } from "../../../../test-support/family-tokenizer.ts";
import { vocab as llamaVocab } from "../../../tokenizer/test/llama3-support.ts";
import { compileDecoderSpecFor, type DecoderSpec } from "../../src/index.ts";
import {
  MARKER_PIECES,
  PAIR_GRAMMAR,
  PAIR_KEYS,
  PIECES,
  ROLE_KEYS,
  roleGrammar,
  syntheticFamily,
  TEXT_CALL_GRAMMAR,
  TEXT_CALL_SAMPLES,
  TEXT_CONTAINER_GRAMMAR,
  TEXT_CONTAINER_SAMPLES,
  TEXT_MARKER_KEYS,
} from "../grammar-support.ts";
import { familyOn, repoRoot, tinyModel } from "../models.ts";

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
  /**
   * Hand-written generations of a synthetic grammar (inputs, not expected events), where no
   * reference tool renders it: random streams are cut from them.
   */
  samples?(): ReadonlyArray<{ readonly name: string; readonly ids: readonly number[] }>;
  /** The loaded tokenizer, for encode -> decode round trips (absent: a grammar without an encoder here). */
  readonly tokenizer?: () => ChatTokenizer;
  /** The assistant turns the family's template carries (its fixtures file's "roundTrip"). */
  readonly roundTrip?: RoundTripTurns;
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

/** Every family x available fixtures tokenizer. */
function fromFixtures(): FamilyCase[] {
  const out: FamilyCase[] = [];
  for (const def of FAMILIES) {
    const fx = familyFixtures(def.name);
    if (fx === undefined) continue;
    for (const t of fx.tokenizers) {
      const tok = cached(() => loadFixtureTokenizer(t));
      const specs = {
        default: cached(() => compileDecoderSpecFor(tok())),
        none: cached(() => compileDecoderSpecFor(tok(), { eosIds: [] })),
      };
      const goldens = fx.goldens.filter((g) => (g.tokenizer ?? fx.tokenizers[0]?.label) === t.label);
      out.push({
        name: `${def.name}/${t.label}`,
        available: missingOf(t).length === 0 && def.grammar.header.syntax !== "harmony",
        spec: (eos) => specs[eos](),
        markerIds: () => [...tok().registry.ids],
        vocabSize: () => tok().textModel.vocabSize,
        goldenIds: () =>
          goldens.flatMap((g) =>
            goldenVectors(g)
              .filter((v) => Array.isArray(v.ids))
              .map((v) => ({ name: `${g.file}: ${v.name}`, ids: v.ids })),
          ),
        tokenizer: tok,
        ...(fx.roundTrip === undefined ? {} : { roundTrip: fx.roundTrip }),
      });
    }
  }
  return out;
}

/** Llama 3.x (one entry per definition x vocabulary; the 3.1 vocabulary is DERIVED at test time). */
function llama(family: "llama3" | "llama31", vname: "3.0" | "3.1-derived"): FamilyCase {
  const tok = () => llamaVocab(vname).tok(family);
  const make = (eos: "default" | "none") =>
    cached(() => compileDecoderSpecFor(tok(), eos === "none" ? { eosIds: [] } : {}));
  const specs = { default: make("default"), none: make("none") };
  return {
    name: `${family} on the ${vname} vocabulary`,
    available: true,
    spec: (eos) => specs[eos](),
    markerIds: () => [...tok().registry.ids],
    vocabSize: () => tok().textModel.vocabSize,
    goldenIds: () => golden([`families/${family}.json`]),
    // No `tokenizer`: the round-trip battery's turns (content next to calls, two calls, calls
    // decoded without the request's tools) are not what Llama renders; Llama's encode -> decode
    // round trips are in ../llama3-decoder.test.ts.
  };
}

function tiny(model: "tiny-ilm" | "tiny-glm", format: "internlm2" | "chatglm3"): FamilyCase {
  const make = (eos: "default" | "none") =>
    cached(() => familyOn(tinyModel(model), format, eos === "none" ? { eosIds: [] } : {}));
  const specs = { default: make("default"), none: make("none") };
  return {
    name: `${format} grammar on ${model}`,
    available: true,
    spec: (eos) => specs[eos]().spec,
    markerIds: () => Object.values<number>(specs.default().id),
    vocabSize: () => (tinyModel(model) as TextModel).vocabSize,
    goldenIds: () => (model === "tiny-glm" ? golden(["tiny-glm.decode.json"]) : []),
  };
}

function synthetic(
  name: string,
  grammar: Grammar,
  keys: readonly string[],
  eosKey: string,
  texts: { readonly pieces: readonly string[]; readonly samples: readonly string[] } = {
    pieces: PIECES,
    samples: [],
  },
): FamilyCase {
  const fams = {
    default: cached(() => syntheticFamily(grammar, keys, [eosKey], texts.pieces)),
    none: cached(() => syntheticFamily(grammar, keys, [], texts.pieces)),
  };
  const eos = () => fams.default().id[eosKey] as number;
  return {
    name,
    available: true,
    spec: (eos) => fams[eos]().spec,
    markerIds: () => Object.values(fams.default().id),
    vocabSize: () => fams.default().vocabSize,
    goldenIds: () => [],
    samples: () =>
      texts.samples.map((t, i) => ({ name: `sample ${i}`, ids: [...fams.default().enc(t), eos()] })),
  };
}

export const FAMILY_CASES: readonly FamilyCase[] = [
  ...fromFixtures(),
  tiny("tiny-ilm", "internlm2"),
  tiny("tiny-glm", "chatglm3"),
  // The 3.0 vocabulary of both Llama definitions comes from their fixtures files (fromFixtures).
  llama("llama31", "3.1-derived"),
  synthetic("synthetic pair header (Llama 3 shape)", PAIR_GRAMMAR, PAIR_KEYS, "eot"),
  synthetic(
    "synthetic role markers + container (DeepSeek shape)",
    roleGrammar("json-call"),
    ROLE_KEYS,
    "eos",
  ),
  synthetic(
    "synthetic text markers: reasoning and json-call blocks",
    TEXT_CALL_GRAMMAR,
    TEXT_MARKER_KEYS,
    "eos",
    {
      pieces: MARKER_PIECES,
      samples: TEXT_CALL_SAMPLES,
    },
  ),
  synthetic(
    "synthetic text markers: a container of text-marked calls, a reopening block",
    TEXT_CONTAINER_GRAMMAR,
    TEXT_MARKER_KEYS,
    "eos",
    { pieces: MARKER_PIECES, samples: TEXT_CONTAINER_SAMPLES },
  ),
];
