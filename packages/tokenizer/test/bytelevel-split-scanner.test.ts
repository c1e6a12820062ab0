// The hand-written split scanner (src/models/bytelevel/split-scanner.ts) against the translated RegExp it
// replaces (at every position of random strings and of a string of every code point) and against
// HF Rust tokenizers' own Split pre-tokenizer (Oniguruma) on random strings, for both patterns.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GPT2_PATTERN, translateOnigPattern } from "../src/models/bytelevel/regex-translate.ts";
import { CL100K_PATTERN, DEFER, QWEN2_PATTERN, SplitScanner } from "../src/models/bytelevel/split-scanner.ts";
import { QWEN3_JSON, rustSplitTokenizer } from "./bytelevel-support.ts";
import { CONTRACTION_PIECES, SPACE_PIECES } from "./pretokenizer-pieces.ts";

const PATTERNS = { qwen2: QWEN2_PATTERN, llama3: CL100K_PATTERN } as const;

/** Pieces that stress every class and alternative of the two patterns. */
const pieces = [
  ...SPACE_PIECES,
  ...CONTRACTION_PIECES,
  "a",
  "Z",
  "é",
  "\u0301",
  "ß",
  "中",
  "文",
  "\u088f",
  "\ua7ce",
  "\u{10940}",
  "\u{2b73a}",
  "\u{1d400}",
  "\u{20000}",
  "0",
  "7",
  "٣",
  "½",
  "Ⅻ",
  "\u{11de0}",
  "\u{1d7ce}",
  ".",
  ",",
  "!",
  "-",
  "=",
  "😀",
  "\ud800",
  "\udc00",
  "\u0000",
  "<|",
];
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...pieces) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 4 }) },
);
const text = fc.string({ unit, maxLength: 48 });

/** Split pieces as the encoder makes them (Isolated: matches and the gaps between them). */
function split(s: string, re: RegExp, scanner: SplitScanner | undefined): string[] {
  const out: string[] = [];
  let pos = 0;
  let gap = -1;
  while (pos < s.length) {
    let stop = scanner === undefined ? DEFER : scanner.end(s, pos);
    if (stop === DEFER) {
      re.lastIndex = pos;
      stop = re.test(s) ? re.lastIndex : -1;
    }
    if (stop > pos) {
      if (gap >= 0) out.push(s.slice(gap, pos));
      gap = -1;
      out.push(s.slice(pos, stop));
      pos = stop;
      continue;
    }
    if (gap < 0) gap = pos;
    const c = s.charCodeAt(pos);
    pos += c >= 0xd800 && c <= 0xdbff && pos + 1 < s.length ? 2 : 1;
  }
  if (gap >= 0) out.push(s.slice(gap));
  return out;
}

function nextCodePoint(s: string, pos: number): number {
  const c = s.charCodeAt(pos);
  const d = s.charCodeAt(pos + 1);
  return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? pos + 2 : pos + 1;
}

/** Every code point boundary of s where the scanner answers itself: that answer equals the RegExp's. */
function agreeEverywhere(s: string, re: RegExp, scanner: SplitScanner): number {
  let decided = 0;
  for (let pos = 0; pos < s.length; ) {
    const got = scanner.end(s, pos);
    if (got !== DEFER) {
      re.lastIndex = pos;
      const want = re.test(s) ? re.lastIndex : -1;
      if (got !== want) throw new Error(`at ${pos} of ${JSON.stringify(s)}: scanner ${got}, RegExp ${want}`);
      decided++;
    } else if (s.charCodeAt(pos) !== 0x27) throw new Error(`deferred at ${pos} of ${JSON.stringify(s)}`);
    pos = nextCodePoint(s, pos);
  }
  return decided;
}

describe("split scanner", () => {
  it("takes exactly the two patterns (Qwen3's file has the first)", () => {
    const qwen3 = (
      JSON.parse(QWEN3_JSON) as { pre_tokenizer: { pretokenizers: { pattern?: { Regex: string } }[] } }
    ).pre_tokenizer.pretokenizers[0]?.pattern?.Regex;
    expect(qwen3).toBe(QWEN2_PATTERN);
    expect(SplitScanner.forSource(translateOnigPattern(QWEN2_PATTERN))).toBeDefined();
    expect(SplitScanner.forSource(translateOnigPattern(CL100K_PATTERN))).toBeDefined();
    expect(SplitScanner.forSource(translateOnigPattern(GPT2_PATTERN))).toBeUndefined();
    expect(
      SplitScanner.forSource(translateOnigPattern(QWEN2_PATTERN.replace("\\p{N}|", "\\p{N}+|"))),
    ).toBeUndefined();
  });

  for (const [name, pattern] of Object.entries(PATTERNS)) {
    const source = translateOnigPattern(pattern);
    const re = new RegExp(source, "yv");
    const scanner = SplitScanner.forSource(source) as SplitScanner;

    it(`${name}: gives the RegExp's match end at every position of random strings`, () => {
      let decided = 0;
      fc.assert(
        fc.property(text, (s) => {
          decided += agreeEverywhere(s, re, scanner);
        }),
        { numRuns: 5000, seed: 515 },
      );
      expect(decided).toBeGreaterThan(20_000);
    });

    it(`${name}: agrees with the RegExp on a string of every code point`, () => {
      const all: string[] = [];
      for (let c = 0; c <= 0x10ffff; c++) {
        if (c < 0xd800 || c > 0xdfff) all.push(String.fromCodePoint(c));
        // Every code point once after a space, once after a letter and once before a newline.
        if (c % 7 === 0) all.push(" ", "a", "\n");
      }
      const s = all.join("");
      expect(split(s, re, scanner)).toEqual(split(s, re, undefined));
    });

    it(`${name}: splits random strings as HF Rust tokenizers' Split pre-tokenizer`, () => {
      const rust = rustSplitTokenizer(pattern, "Isolated");
      // Rust strings hold no lone surrogates: those are left to the RegExp comparison above.
      const wellFormed = text.filter(
        (s) => !/[\ud800-\udfff]/.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")),
      );
      fc.assert(
        fc.property(wellFormed, (s) => {
          const want = rust
            .getPreTokenizer()
            .preTokenizeString(s)
            .map((p) => p[0]);
          expect(split(s, re, scanner), JSON.stringify(s)).toEqual(want);
        }),
        { numRuns: 1500, seed: 516 },
      );
    });
  }
});
