// Invariants of the SentencePiece encoder on random text (fast-check, seeded):
// - encode never returns a blocked id, whatever the text (reserved strings, every
//   USER_DEFINED piece, full Unicode, embedded anywhere);
// - on text containing no blocked literal, blocking changes nothing;
// - decode(encode(s)) === s (identity normalizer, byte_fallback). What does NOT round-trip,
//   so the generator leaves it out: U+2581 "▁" (decodes as " "), lone surrogates (become
//   U+FFFD, as UTF-8 encoding does). A leading space DOES round-trip with add_dummy_prefix
//   (the dummy "▁" is the one stripped).

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { loadSentencePieceModel } from "../src/models/sentencepiece/index.ts";
import { SENTENCEPIECE_MARKER_TEXTS } from "./crosscheck-support.ts";

const VECTORS = resolve(import.meta.dirname, "../../../test-vectors");

interface Suite {
  name: string;
  path: () => string;
  always: boolean;
  runs: number;
}
const SUITES: Suite[] = [
  { name: "tiny-ilm", path: () => resolve(VECTORS, "models/tiny-ilm.model"), always: true, runs: 800 },
  { name: "tiny-glm", path: () => resolve(VECTORS, "models/tiny-glm.model"), always: true, runs: 800 },
  { name: "internlm2", path: () => fixturePath("internlm2/tokenizer.model"), always: false, runs: 300 },
  { name: "chatglm3", path: () => fixturePath("chatglm3/tokenizer.model"), always: false, runs: 300 },
];

/** The SentencePiece formats' marker texts (plain text here) and whitespace pieces. */
const SPECIAL_STRINGS = [
  ...SENTENCEPIECE_MARKER_TEXTS,
  " ",
  "  ",
  "\n",
  "\t",
  "\r\n",
  "\u3000",
  "\ufeff",
  "\0",
];

function noLoneSurrogates(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "x");
}

for (const suite of SUITES) {
  describe.skipIf(!suite.always && !haveFixtures())(`SentencePiece properties: ${suite.name}`, () => {
    const reserved = JSON.parse(readFileSync(resolve(VECTORS, `golden/${suite.name}.text.json`), "utf8"))
      .reserved_ids as number[];
    const blocked = new Set(reserved);
    const bytes = readFileSync(suite.path());
    const plain = loadSentencePieceModel(bytes, { file: suite.path() });
    const guarded = loadSentencePieceModel(bytes, { file: suite.path(), blocked });
    const literals = [...plain.literalPieces.keys()];
    const blockedLiterals = [...plain.literalPieces].filter(([, id]) => blocked.has(id)).map(([s]) => s);
    const fragment = fc.oneof(
      { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
      { weight: 3, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 12 }) },
      { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_STRINGS, ...literals) },
      {
        weight: 1,
        arbitrary: fc.string({
          unit: fc.constantFrom("你", "好", "，", "😀", "é", "Ｅ", "—", "…"),
          maxLength: 6,
        }),
      },
    );
    const text = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(""));
    const params = { numRuns: suite.runs, seed: 0x5eed };

    it("encode never returns a blocked id", () => {
      fc.assert(
        fc.property(text, (s) => {
          for (const id of guarded.encode(s)) if (blocked.has(id)) return false;
          return true;
        }),
        params,
      );
    });

    it("without blocked literals in the text, blocking changes nothing", () => {
      fc.assert(
        fc.property(text, (s) => {
          fc.pre(!blockedLiterals.some((b) => s.includes(b)));
          expect(guarded.encode(s)).toEqual(plain.encode(s));
        }),
        params,
      );
    });

    it("decode(encode(s)) === s (no U+2581, no lone surrogates)", () => {
      fc.assert(
        fc.property(text, (raw) => {
          const s = noLoneSurrogates(raw).replaceAll("\u2581", "_");
          expect(plain.decode(plain.encode(s))).toBe(s);
          expect(guarded.decode(guarded.encode(s))).toBe(s);
        }),
        params,
      );
    });

    it("what does not round-trip: U+2581 decodes as a space, a lone surrogate as U+FFFD", () => {
      expect(plain.decode(plain.encode("a\u2581b"))).toBe("a b");
      expect(plain.decode(plain.encode("a\ud800b"))).toBe("a\ufffdb");
    });
  });
}
