// Property tests: the ordinary encoder never yields an added-token ID and round-trips NFC text;
// a differential test against the HF Rust `tokenizers` package (added_tokens emptied) on random
// strings must agree exactly, with and without the word cache, on short and very long words.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadByteLevelModel, translateOnigPattern } from "../src/models/bytelevel/index.ts";
import {
  idDiff,
  QWEN3_ADDED,
  QWEN3_FILE,
  QWEN3_JSON,
  qwen3,
  rustSplitTokenizer,
  textDiff,
} from "./bytelevel-support.ts";
import { CONTRACTION_PIECES, SPACE_PIECES } from "./pretokenizer-pieces.ts";
import { rustTokenizer } from "./rust-tokenizers.ts";

const model = qwen3();
/** CHATWIRE_DIFF_RUNS=20000 for a long local run; the default keeps the suite fast. */
const diffRuns = Number(process.env.CHATWIRE_DIFF_RUNS ?? 400);
const diffSeed = Number(process.env.CHATWIRE_DIFF_SEED ?? 7);
const added = model.addedTokens.map((t) => t.content);

/** Pieces that stress the pre-tokenizer regex and the byte alphabet. */
const tricky = [
  ...SPACE_PIECES,
  ...CONTRACTION_PIECES,
  "0",
  "7",
  "42",
  "½",
  "٣",
  "Ⅻ",
  "a",
  "Z",
  "é",
  "e\u0301",
  "\u0301",
  "ß",
  "İ",
  "中文",
  "，",
  "。",
  "😀",
  "👍🏽",
  "🇫🇷",
  "👨‍👩‍👧",
  "\u{10ffff}",
  "\u{e0001}",
  "\u0000",
  "\u007f",
  "<",
  "|",
  ">",
  "<|",
  "|>",
  "```",
  '{"a": 1}',
  "---",
  "...",
  "!!",
  "?",
  ".\n",
  "  \n",
  "\t\n ",
  "ǅ",
  "ᾈ",
];
const unit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...tricky) },
  { weight: 2, arbitrary: fc.constantFrom(...added) },
  { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 3 }) },
);
const text = fc.string({ unit, maxLength: 40 });
/** Long single pre-tokens (> 96 bytes) take the heap path of the merger. */
const longWord = fc
  .tuple(
    fc.constantFrom("a", "ab", "中", "x", "=", " ", "1", "é", "😀", "th", "in"),
    fc.integer({ min: 20, max: 400 }),
    text,
  )
  .map(([piece, n, tail]) => piece.repeat(n) + tail);

describe("byte-level ordinary encoder properties", () => {
  it("never returns an added-token ID and decode(encode(s)) === NFC(s)", () => {
    fc.assert(
      fc.property(fc.oneof(text, longWord), (s) => {
        const ids = model.encode(s);
        expect(ids.filter((id) => id >= (QWEN3_ADDED[0] as number))).toEqual([]);
        const back = model.decode(ids);
        expect(back, textDiff(s.normalize("NFC"), back)).toBe(s.normalize("NFC"));
      }),
      { numRuns: 400, seed: 20240601 },
    );
  });

  it("encodes every added token's content as ordinary text", () => {
    for (const t of model.addedTokens) {
      const ids = model.encode(`x${t.content}y`);
      expect(ids.some((id) => model.blocked.has(id))).toBe(false);
      expect(model.decode(ids)).toBe(`x${t.content}y`);
    }
  });
});

describe("differential against HF Rust tokenizers (added_tokens emptied)", () => {
  const Rust = rustTokenizer();
  const json = JSON.parse(QWEN3_JSON) as { added_tokens: unknown[] };
  json.added_tokens = [];
  const rust = Rust.fromString(JSON.stringify(json));
  const uncached = loadByteLevelModel(QWEN3_JSON, { file: QWEN3_FILE, cacheWords: 0 });

  const check = async (s: string): Promise<void> => {
    const want = (await rust.encode(s, null, { addSpecialTokens: false })).getIds();
    const got = model.encode(s);
    expect(got, `${JSON.stringify(s).slice(0, 200)}\n${idDiff(model, want, got)}`).toEqual(want);
    const raw = uncached.encode(s);
    expect(raw, `uncached\n${idDiff(model, want, raw)}`).toEqual(want);
    const wantText = await rust.decode(want, false);
    const gotText = model.decode(got);
    expect(gotText, textDiff(wantText, gotText)).toBe(wantText);
  };

  it("classifies every code point like the reference regex (\\p{L}, \\p{N}, \\s)", () => {
    const all: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) if (c < 0xd800 || c > 0xdfff) all.push(String.fromCodePoint(c));
    const joined = all.join("");
    // The reference splits 64k code points at a time: each pattern matches one code point, so the
    // kept text of the pieces is the kept text of the whole, and HF's pre-tokenizer is superlinear
    // on one 4 MB string.
    const chunks: string[] = [];
    for (let i = 0; i < all.length; i += 1 << 16) chunks.push(all.slice(i, i + (1 << 16)).join(""));
    for (const onig of ["\\p{L}", "\\p{N}", "\\s"]) {
      const split = rustSplitTokenizer(onig, "Removed").getPreTokenizer();
      let kept = "";
      for (const c of chunks) for (const [piece] of split.preTokenizeString(c)) kept += piece;
      const js = new RegExp(translateOnigPattern(onig), "gv");
      expect(joined.replace(js, ""), onig).toBe(kept);
    }
  });

  it("agrees on random strings", async () => {
    await fc.assert(fc.asyncProperty(text, check), { numRuns: diffRuns, seed: diffSeed });
  });

  it("agrees on long words (heap merge path)", async () => {
    await fc.assert(fc.asyncProperty(longWord, check), {
      numRuns: Math.ceil(diffRuns / 6),
      seed: diffSeed + 4,
    });
  });

  it("agrees on random byte sequences decoded from random IDs", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: QWEN3_ADDED[0] as number }), { maxLength: 12 }),
        async (ids) => {
          const want = await rust.decode(ids, false);
          const got = model.decode(ids);
          expect(got, textDiff(want, got)).toBe(want);
        },
      ),
      { numRuns: 300, seed: 3 },
    );
  });
});
