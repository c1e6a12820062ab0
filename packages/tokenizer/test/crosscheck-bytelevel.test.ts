// Differential tests of our byte-level BPE (src/models/bytelevel/) on Qwen3's tokenizer.json against
// the reference, HF Rust `tokenizers` (npm binding, Tokenizer.fromFile on a temp copy with
// "added_tokens": []), and the package of our design, @huggingface/tokenizers (pure JS), on the
// same inputs. bytelevel-property.test.ts already covers short random strings (<= 40 units),
// long single words and short random id sequences; this file adds what it lacks: long documents
// (inputs.json slices, up to ~6k chars), generated source code and JSON, mixed scripts (random
// letters of 14 scripts, Hangul jamo that NFC composes, RTL, combining marks), whitespace runs,
// digit runs of several number systems, long full-Unicode strings, and long random id sequences
// heavy in single-byte tokens (invalid/truncated UTF-8 at decode).
// Inputs come from fast-check with fixed seeds (fc.sample); the Rust side runs in batches.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BYTE_TO_CHAR } from "../src/models/bytelevel/index.ts";
import { QWEN3_ADDED, QWEN3_FILE, QWEN3_JSON, qwen3 } from "./bytelevel-support.ts";
import {
  Disagreements,
  documentSlices,
  expectClassesAgree,
  type HfJsTokenizer,
  inputDocuments,
  loadHfJs,
  packageVersion,
  wellFormed,
} from "./crosscheck-support.ts";
import { type RustTokenizer, rustTokenizer } from "./rust-tokenizers.ts";

/** CHATWIRE_CROSSCHECK_RUNS=3000 for a long local run (per input class). */
const PER_CLASS = Number(process.env.CHATWIRE_CROSSCHECK_RUNS ?? 500);
const SEED = Number(process.env.CHATWIRE_CROSSCHECK_SEED ?? 0xb17e);
const FIRST_ADDED = QWEN3_ADDED[0] as number;

const SCRIPT_RANGES: [number, number][] = [
  [0x0041, 0x007a], // Latin (with [\]^_` between the cases)
  [0x00c0, 0x024f], // Latin-1 / Extended
  [0x0370, 0x03ff], // Greek
  [0x0400, 0x04ff], // Cyrillic
  [0x0590, 0x05ff], // Hebrew
  [0x0600, 0x06ff], // Arabic
  [0x0900, 0x097f], // Devanagari
  [0x0e00, 0x0e7f], // Thai
  [0x10a0, 0x10ff], // Georgian
  [0x1100, 0x11ff], // Hangul jamo (NFC composes L V T runs)
  [0x3040, 0x30ff], // Hiragana, Katakana
  [0x4e00, 0x9fff], // CJK
  [0xac00, 0xd7a3], // Hangul syllables
  [0x0300, 0x036f], // combining marks
];
const WORDS = [
  "Hello",
  "naïve",
  "Straße",
  "İstanbul",
  "Привет",
  "ΣΊΣΥΦΟΣ",
  "مرحبا",
  "שלום",
  "नमस्ते",
  "สวัสดี",
  "こんにちは",
  "中华人民共和国",
  "안녕하세요",
  "வணக்கம்",
  "ሰላም",
  "👍🏽",
  "👨‍👩‍👧",
  "𝐀𝐁𝐂",
  "ＡＢＣ",
  "e\u0301",
  "n\u0303",
  "\u1100\u1161\u11a8",
];
const SEPARATORS = [
  " ",
  ", ",
  ". ",
  "\n",
  "'s ",
  "’",
  "-",
  "!",
  "?",
  "：",
  "，",
  "。",
  "'ll ",
  " 's",
  "\u200d",
  "\u00a0",
];
const WHITESPACE = [
  " ",
  "  ",
  "\t",
  "\n",
  "\r",
  "\r\n",
  "\u00a0",
  "\u3000",
  "\u2009",
  "\u000b",
  "\f",
  "\u0085",
  "\u2028",
];
const DIGITS = [
  ..."0123456789",
  "٠",
  "٣",
  "۵",
  "०",
  "७",
  "๓",
  "０",
  "９",
  "½",
  "²",
  "Ⅻ",
  "①",
  ".",
  ",",
  " ",
  "-",
  "e",
  "x",
];
const KEYWORDS = [
  "def",
  "return",
  "if",
  "else",
  "for",
  "in",
  "import",
  "from",
  "class",
  "const",
  "let",
  "function",
];
const CODE_WORDS = [
  ...KEYWORDS,
  "async",
  "await",
  "None",
  "True",
  "null",
  "self",
  "this",
  "print",
  "console.log",
];
const OPS = [..."=+-*/%<>!&|^~?:;,.()[]{}@#$`\\'\""];
const OPS2 = [
  "==",
  "!=",
  "+=",
  "->",
  "=>",
  "::",
  "...",
  "//",
  "/*",
  "*/",
  "<=",
  "&&",
  "||",
  "'''",
  '"""',
  "```",
  "</",
  "/>",
];
const INDENT = ["\n", "\n    ", "\n\t", "\n        ", "\r\n", "\n\n", " ", "  ", "\n  \n"];

function inputClasses(): [string, fc.Arbitrary<string>][] {
  const docs = inputDocuments();
  const scriptChar = fc
    .constantFrom(...SCRIPT_RANGES)
    .chain(([lo, hi]) => fc.integer({ min: lo, max: hi }))
    .map((c) => String.fromCodePoint(c));
  const word = fc.oneof(
    fc.constantFrom(...WORDS),
    fc.string({ unit: scriptChar, minLength: 1, maxLength: 8 }),
  );
  const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);
  const codeToken = fc.oneof(
    { weight: 3, arbitrary: identifier },
    { weight: 2, arbitrary: fc.constantFrom(...CODE_WORDS) },
    { weight: 3, arbitrary: fc.constantFrom(...OPS, ...OPS2) },
    { weight: 2, arbitrary: fc.constantFrom(...INDENT) },
    { weight: 1, arbitrary: fc.oneof(fc.integer().map(String), fc.double({ noNaN: true }).map(String)) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }).map((s) => JSON.stringify(s)) },
  );
  return [
    ["document slices", documentSlices(docs, "\n\n", 6, 6000)],
    [
      "source code",
      fc
        .array(fc.tuple(codeToken, fc.constantFrom("", "", " ")), { minLength: 10, maxLength: 250 })
        .map((a) => a.map(([t, sep]) => t + sep).join("")),
    ],
    [
      "JSON",
      fc
        .tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 2, 4, "\t"))
        .map(([v, i]) => JSON.stringify(v, null, i)),
    ],
    [
      "mixed scripts",
      fc
        .array(fc.tuple(word, fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 60 })
        .map((a) => a.map(([w, s]) => w + s).join("")),
    ],
    [
      "whitespace runs",
      fc
        .array(
          fc.oneof(fc.string({ unit: fc.constantFrom(...WHITESPACE), minLength: 1, maxLength: 12 }), word),
          {
            maxLength: 40,
          },
        )
        .map((a) => a.join("")),
    ],
    ["digit runs", fc.string({ unit: fc.constantFrom(...DIGITS), maxLength: 200 })],
    ["long full unicode", fc.string({ unit: "binary", maxLength: 400 })],
  ];
}

describe("differential vs HF Rust tokenizers and @huggingface/tokenizers: Qwen3, longer inputs", () => {
  const Rust = rustTokenizer();
  const model = qwen3();
  let tmp = "";
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), "chatwire-crosscheck-"));
  });
  afterAll(() => {
    if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
  });
  const json = JSON.parse(QWEN3_JSON) as { added_tokens: unknown[] };
  json.added_tokens = [];
  const config = JSON.parse(
    readFileSync(QWEN3_FILE.replace(/tokenizer\.json$/, "tokenizer_config.json"), "utf8"),
  ) as {
    added_tokens_decoder?: unknown;
  };
  delete config.added_tokens_decoder;

  let rust: RustTokenizer;
  let hfjs: HfJsTokenizer;
  const classes: { name: string; texts: string[]; want: number[][]; wantText: string[] }[] = [];
  let idSeqs: number[][] = [];
  let wantDecode: string[] = [];

  /** Known API difference of @huggingface/tokenizers: decode([]) throws instead of returning "". */
  const hfjsDecode = (ids: number[]): string =>
    ids.length === 0 ? "" : hfjs.decode(ids, { skip_special_tokens: false });

  const rustEncode = async (texts: string[]): Promise<number[][]> => {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += 500) {
      const batch = await rust.encodeBatch(texts.slice(i, i + 500), { addSpecialTokens: false });
      for (const e of batch) out.push(e.getIds());
    }
    return out;
  };

  beforeAll(async () => {
    const copy = join(tmp, "tokenizer.json");
    writeFileSync(copy, JSON.stringify(json));
    rust = Rust.fromFile(copy);
    hfjs = loadHfJs(structuredClone(json), config);
    let seed = SEED;
    for (const [name, arb] of inputClasses()) {
      const texts = fc.sample(arb, { numRuns: PER_CLASS, seed: seed++ }).map(wellFormed);
      const want = await rustEncode(texts);
      const wantText = await rust.decodeBatch(want, false);
      classes.push({ name, texts, want, wantText });
    }
    const byteIds = BYTE_TO_CHAR.map((c) => model.pieceToId(c) as number);
    const id = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...byteIds) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: FIRST_ADDED - 1 }) },
      { weight: 1, arbitrary: fc.constantFrom(...byteIds.slice(0x80)) },
    );
    idSeqs = fc.sample(fc.array(id, { maxLength: 200 }), { numRuns: PER_CLASS * 3, seed: seed++ });
    wantDecode = await rust.decodeBatch(idSeqs, false);
  });

  it("versions of the packages compared", () => {
    expect(packageVersion("tokenizers")).toBe("0.23.2");
    expect(packageVersion("@huggingface/tokenizers")).toBe("0.2.0");
  });

  it("ours: encode and decode agree with Rust on every input class", () => {
    expectClassesAgree(
      classes,
      (s) => model.encode(s),
      (ids) => model.decode(ids),
      PER_CLASS,
    );
  });

  it("ours: decode of long byte-heavy id sequences agrees with Rust", () => {
    const d = new Disagreements();
    const got = idSeqs.map((ids) => model.decode(ids));
    d.check("decode", idSeqs, wantDecode, got);
    expect(d.text()).toBe("");
  });

  it("@huggingface/tokenizers (JS, added tokens removed) agrees with Rust on the same inputs", () => {
    const d = new Disagreements();
    d.checkClasses(
      classes,
      (s) => hfjs.encode(s, { add_special_tokens: false }).ids,
      (ids) => hfjsDecode(ids),
    );
    const got = idSeqs.map((ids) => hfjsDecode(ids));
    d.check("random ids decode", idSeqs, wantDecode, got);
    expect(d.text()).toBe("");
  });

  it('known difference of @huggingface/tokenizers: decode([]) throws where Rust returns ""', async () => {
    expect(await rust.decodeBatch([[]], false)).toEqual([""]);
    expect(model.decode([])).toBe("");
    expect(() => hfjs.decode([], { skip_special_tokens: false })).toThrow(/non-empty/);
  });
});
