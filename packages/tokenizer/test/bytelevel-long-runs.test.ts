// One very long run of a single character class: V8's split RegExp throws RangeError on one
// match of millions of characters (its backtrack stack), so that one match is computed by the
// fallback matcher (src/models/bytelevel/split-fallback.ts).
// Exactness is checked in two steps, each against a reference:
// 1. the fallback against V8's own RegExp (itself differential-tested against HF tokenizers in
//    crosscheck-bytelevel.test.ts), at every code point position of random strings built from
//    the characters each alternative of the pattern distinguishes (fast-check, fixed seed);
// 2. end to end against HF Rust `tokenizers` (Qwen3's tokenizer.json, added_tokens removed) on
//    runs past V8's limit, after checking that V8 does throw on them (so the fallback ran); HF's
//    IDs come from test-vectors/golden/qwen3.long-runs.json (test-vectors/gen/qwen3_long_runs.js).
// Large sizes: 9M ASCII letters against HF, 5M CJK round-trips; CHATWIRE_LONG_RUNS=all also
// asks HF live for the golden cases and compares 5M CJK, 9M of each other class and one
// 17.5M-byte word with HF (minutes of HF time).

import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenizerError } from "../src/errors.ts";
import { GPT2_PATTERN, loadByteLevelModel, translateOnigPattern } from "../src/models/bytelevel/index.ts";
import { compileSplitFallback, type MatchAt } from "../src/models/bytelevel/split-fallback.ts";
import { parseByteLevelTokenizerJson } from "../src/models/bytelevel/tokenizer-json.ts";
import { idDiff, QWEN3_FILE, QWEN3_JSON, qwen3, splitOnlyTokenizerJson } from "./bytelevel-support.ts";
import { SPACE_PIECES } from "./pretokenizer-pieces.ts";
import { type RustTokenizer, rustTokenizer } from "./rust-tokenizers.ts";

const FULL = process.env.CHATWIRE_LONG_RUNS === "all";
const QWEN3_SOURCE = parseByteLevelTokenizerJson(QWEN3_JSON, QWEN3_FILE).splitPattern;
/** HF's IDs on the default cases (test-vectors/gen/qwen3_long_runs.js), run-length encoded. */
const LONG_RUNS = JSON.parse(
  readFileSync(new URL("../../../test-vectors/golden/qwen3.long-runs.json", import.meta.url), "utf8"),
) as {
  source: { tokenizer_sha256: string };
  vectors: { name: string; parts: [string, number][]; ids: [number, number][] }[];
};

/** Letters (ASCII, contraction letters and their fold variants, CJK, astral), digits, every kind of space, punctuation, surrogates. */
const ALPHABET = [
  "a",
  "Z",
  "s",
  "S",
  "t",
  "r",
  "e",
  "v",
  "m",
  "l",
  "L",
  "d",
  "D",
  "ſ",
  "K",
  "\u212a",
  "中",
  "é",
  "𝐀",
  "1",
  "٣",
  "\u{11de0}",
  "'",
  "!",
  "-",
  "😀",
  ...SPACE_PIECES,
  "\u0301",
  "\ud800",
  "\udc00",
  "\u088f",
];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 24 }).map((parts) => parts.join(""));

/** Deterministic lowercase letters (an LCG), one \\p{L}+ run. */
function randomLetters(n: number): string {
  let x = 12345;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    parts.push(String.fromCharCode(97 + Math.floor((x / 0x7fffffff) * 26)));
  }
  return parts.join("");
}

function v8MatchAt(source: string): MatchAt {
  const re = new RegExp(source, "yv");
  return (s, pos) => {
    re.lastIndex = pos;
    return re.test(s) ? re.lastIndex : -1;
  };
}

/** Positions that are not inside a surrogate pair (where a scan can start a match). */
function codePointStarts(s: string): number[] {
  const out: number[] = [];
  for (let p = 0; p <= s.length; p++) {
    const lo = s.charCodeAt(p);
    const hi = s.charCodeAt(p - 1);
    if (!(lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff)) out.push(p);
  }
  return out;
}

describe("split fallback = V8's RegExp", () => {
  for (const [name, source] of [
    ["Qwen3", QWEN3_SOURCE],
    ["GPT-2", translateOnigPattern(GPT2_PATTERN)],
  ] as const) {
    it(`${name}: the same match end at every position of random strings`, () => {
      const fallback = compileSplitFallback(source);
      expect(fallback).toBeDefined();
      const v8 = v8MatchAt(source);
      fc.assert(
        fc.property(text, (s) => {
          // expect() only on a difference: over tens of thousands of positions it costs more than both matchers.
          for (const p of codePointStarts(s)) {
            const got = fallback?.(s, p);
            const want = v8(s, p);
            if (got !== want) expect([p, got]).toEqual([p, want]);
          }
        }),
        { numRuns: 3000, seed: 0x10c0 },
      );
    });
  }
  it("is undefined for a pattern outside its subset (the encoder then reports a typed error)", () => {
    expect(compileSplitFallback("(?:ab)+")).toBeUndefined();
    expect(compileSplitFallback("a+?")).toBeUndefined();
    expect(compileSplitFallback("(a)\\1")).toBeUndefined();
  });
});

describe("one run of one class past V8's limit: Qwen3 ids equal HF tokenizers", () => {
  let tmp = "";
  let rust: RustTokenizer | undefined;
  beforeAll(() => {
    if (!FULL) return;
    tmp = mkdtempSync(join(tmpdir(), "chatwire-long-runs-"));
    const json = JSON.parse(QWEN3_JSON) as { added_tokens: unknown[] };
    json.added_tokens = [];
    const copy = join(tmp, "tokenizer.json");
    writeFileSync(copy, JSON.stringify(json));
    rust = rustTokenizer().fromFile(copy);
  });
  afterAll(() => {
    if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
  });

  it("the golden file was made from this tokenizer.json", () => {
    expect(LONG_RUNS.source.tokenizer_sha256).toBe(createHash("sha256").update(QWEN3_JSON).digest("hex"));
    expect(LONG_RUNS.vectors.length).toBeGreaterThan(0);
  });

  // HF's IDs for the default cases come from test-vectors/golden/qwen3.long-runs.json (HF takes
  // tens of seconds on them); the full run asks HF live for those cases too.
  const golden = LONG_RUNS.vectors.map((v): [string, string, number[] | undefined] => [
    v.name,
    v.parts.map(([t, n]) => t.repeat(n)).join(""),
    v.ids.flatMap(([id, n]) => Array<number>(n).fill(id)),
  ]);
  const live: [string, string, undefined][] = FULL
    ? [
        ["5M CJK", "中".repeat(5_000_000), undefined],
        // One 17.5M-byte word: the BPE heap's (rank, position) keys past position 2^24 (a key
        // stride of 2^24 would make the IDs differ from HF's).
        ["17.5M random ASCII letters (BPE heap positions past 2^24)", randomLetters(17_500_000), undefined],
        ["9M punctuation then newlines", `${"!".repeat(9_000_000)}\n\n`, undefined],
        ["9M spaces", " ".repeat(9_000_000), undefined],
        ["9M newlines", "\n".repeat(9_000_000), undefined],
        ["6M CRLF", "\r\n".repeat(3_000_000), undefined],
      ]
    : [];
  const cases = [...golden, ...live];

  it(`${cases.map((c) => c[0]).join("; ")}`, async () => {
    const re = new RegExp(QWEN3_SOURCE, "yv");
    for (const [, s] of cases) {
      re.lastIndex = 0;
      expect(() => re.test(s)).toThrow(RangeError); // precondition: V8 alone cannot, the fallback runs
    }
    const fromHf =
      rust === undefined
        ? []
        : (
            await rust.encodeBatch(
              cases.map((c) => c[1]),
              { addSpecialTokens: false },
            )
          ).map((e) => e.getIds());
    const model = qwen3();
    cases.forEach(([name, s, stored], i) => {
      const got = model.encode(s);
      for (const ref of [stored, fromHf[i]]) {
        if (ref === undefined) continue;
        if (got.length !== ref.length || got.some((id, k) => id !== ref[k]))
          expect.fail(`${name}: ${idDiff(model, ref, got)}`);
      }
    });
  }, 600_000);
});

describe("a 5M-character CJK run encodes (no RangeError, text round-trips; 9M ASCII is above)", () => {
  it.each([["5M CJK", "中".repeat(5_000_000)]])(
    "%s",
    (_name, s) => {
      const model = qwen3();
      const ids = model.encode(s);
      expect(model.decode(ids) === s).toBe(true);
    },
    300_000,
  );
});

describe("a pattern outside the fallback's subset", () => {
  it("gives a typed TokenizerError (invalid-argument), never a plain RangeError", () => {
    // A repeated group (of a fixed-length body, which load accepts): outside the subset, and V8 overflows on it.
    const regex = "(?:[ab])+|.";
    const model = loadByteLevelModel(splitOnlyTokenizerJson(regex), { file: "repeated-group.json" });
    const s = "ab".repeat(3_000_000);
    const re = new RegExp(translateOnigPattern(regex), "yv");
    expect(() => re.test(s)).toThrow(RangeError); // precondition: V8 cannot match it
    expect(model.encode("abab x").length).toBe(6); // short text: V8 as usual
    let caught: unknown;
    try {
      model.encode(s);
    } catch (e) {
      caught = e;
    }
    expect(TokenizerError.isInstance(caught)).toBe(true);
    expect((caught as TokenizerError).type).toBe("invalid-argument");
    expect((caught as TokenizerError).fields).toEqual({ index: 0 });
  });
});
