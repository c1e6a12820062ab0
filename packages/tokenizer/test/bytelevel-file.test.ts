// tokenizer.json validation, regex translation and the decode table of the byte-level model.

import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/errors.ts";
import {
  BYTE_TO_CHAR,
  loadByteLevelModel,
  parseByteLevelTokenizerJson,
  translateOnigPattern,
} from "../src/models/bytelevel/index.ts";
import { TokenKind } from "../src/models/text-model.ts";
import { byteSymbolVocab, QWEN3_FILE, QWEN3_JSON, qwen3 } from "./bytelevel-support.ts";

/** A tiny valid byte-level tokenizer.json: the 256 byte symbols plus "ab" and "abc". */
function tiny(): Record<string, unknown> {
  const vocab = byteSymbolVocab();
  vocab.ab = 256;
  vocab.abc = 257;
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: [{ id: 258, content: "<|x|>", special: true }],
    normalizer: { type: "NFC" },
    pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: "ByteLevel" },
    model: { type: "BPE", dropout: null, vocab, merges: ["a b", ["ab", "c"]] },
  };
}

function badFile(json: string | object, pattern: RegExp, file = "dir/tokenizer.json"): void {
  let caught: unknown;
  try {
    loadByteLevelModel(json, { file });
  } catch (e) {
    caught = e;
  }
  expect(TokenizerError.isInstance(caught)).toBe(true);
  const err = caught as TokenizerError;
  expect(err.type).toBe("bad-tokenizer-file");
  expect(err.fields.file).toBe(file);
  expect(err.message).toContain(file);
  expect(err.message).toMatch(pattern);
}

describe("tokenizer.json validation", () => {
  it("loads a tiny file with string and pair merges", () => {
    const m = loadByteLevelModel(tiny(), { file: "tiny.json", blocked: new Set([258]) });
    // "abc" -> a+b then ab+c; " " is byte symbol 0x20 -> "Ġ" at id 0x20; "a" alone stays byte 0x61.
    expect(m.encode("abc ab a")).toEqual([257, 0x20, 256, 0x20, 0x61]);
    expect(m.vocabSize).toBe(259);
    expect(m.literalPieces.get("<|x|>")).toBe(258);
    expect(m.decode(m.encode("abc <|x|> é"))).toBe("abc <|x|> é");
    expect(m.encode("<|x|>")).not.toContain(258);
  });
  it("rejects truncated JSON", () => badFile(QWEN3_JSON.slice(0, 5000), /not valid JSON/));
  it("rejects a non-object", () => badFile("[1,2]", /not a JSON object/));
  it("rejects an added token ID at or past 2^24 (as a vocabulary ID is): encode would emit IDs decode refuses", () => {
    for (const id of [2 ** 24, 2 ** 31, 2 ** 53, 1e300])
      badFile({ ...tiny(), added_tokens: [{ id, content: "<|x|>", special: true }] }, /added_tokens\[0\]/);
    expect(
      loadByteLevelModel(
        { ...tiny(), added_tokens: [{ id: 2 ** 24 - 1, content: "<|x|>", special: true }] },
        { file: "f" },
      ).vocabSize,
    ).toBe(2 ** 24);
  });
  it("rejects a wrong model type", () =>
    badFile({ ...tiny(), model: { type: "Unigram", vocab: [] } }, /model type "Unigram"/));
  it("rejects missing merges", () => {
    const t = tiny();
    const model = { ...(t.model as object), merges: undefined };
    badFile({ ...t, model }, /model\.merges is missing/);
  });
  it("rejects a merge whose pieces are not in the vocab", () => {
    const t = tiny();
    badFile({ ...t, model: { ...(t.model as object), merges: ["a q"] } }, /model\.merges\[0\]/);
  });
  it("rejects a malformed merge string", () => {
    const t = tiny();
    badFile({ ...t, model: { ...(t.model as object), merges: ["abc"] } }, /model\.merges\[0\] is not "a b"/);
  });
  it("rejects dropout and byte_fallback", () => {
    const t = tiny();
    badFile({ ...t, model: { ...(t.model as object), dropout: 0.1 } }, /dropout/);
    badFile({ ...t, model: { ...(t.model as object), byte_fallback: true } }, /byte_fallback/);
  });
  it("rejects unsupported normalizer, pre_tokenizer, decoder", () => {
    // (NFKC, ByteLevel add_prefix_space and any post_processor are supported: tokenizer-breadth.test.ts.)
    badFile({ ...tiny(), normalizer: { type: "BertNormalizer" } }, /normalizer "BertNormalizer"/);
    badFile({ ...tiny(), pre_tokenizer: { type: "Metaspace" } }, /pre_tokenizer without ByteLevel/);
    badFile({ ...tiny(), decoder: { type: "Metaspace" } }, /decoder "Metaspace"/);
    badFile({ ...tiny(), truncation: { max_length: 5 } }, /truncation/);
    // The encoder never adds special tokens (add_special_tokens=False): a post_processor never runs.
    expect(() =>
      loadByteLevelModel({ ...tiny(), post_processor: { type: "TemplateProcessing" } }, { file: "f" }),
    ).not.toThrow();
  });
  it("rejects an unsupported split regex", () => {
    const split = (regex: string): object => ({
      ...tiny(),
      pre_tokenizer: {
        type: "Sequence",
        pretokenizers: [
          { type: "Split", pattern: { Regex: regex }, behavior: "Isolated", invert: false },
          { type: "ByteLevel", add_prefix_space: false, use_regex: false },
        ],
      },
    });
    badFile(split("\\w+"), /unsupported escape "\\w"/);
    badFile(split("(?i)abc"), /unsupported group/);
    badFile(split("(?i:ss)"), /multi-character case folding/);
    badFile(split("^a"), /anchor/);
    badFile(split("[a&&b]"), /class intersection/);
    expect(() => loadByteLevelModel(split("\\p{L}+|\\s+"), { file: "f" })).not.toThrow();
  });
  it("rejects a vocab without every byte symbol", () => {
    const t = tiny();
    const vocab = { ...((t.model as { vocab: object }).vocab as Record<string, number>) };
    delete vocab[BYTE_TO_CHAR[0] as string];
    badFile({ ...t, model: { ...(t.model as object), vocab, merges: [] } }, /byte 0x0/);
  });
  it("rejects a blocked ID that BPE could produce", () => {
    let caught: unknown;
    try {
      loadByteLevelModel(tiny(), { file: "tiny.json", blocked: new Set([256]) });
    } catch (e) {
      caught = e;
    }
    expect(TokenizerError.isInstance(caught) && caught.type === "bad-tokenizer-file").toBe(true);
  });
});

describe("regex translation", () => {
  it("translates the Qwen3 pattern: explicit White_Space, expanded (?i:)", () => {
    const spec = parseByteLevelTokenizerJson(QWEN3_JSON, QWEN3_FILE);
    const re = new RegExp(`^(?:${spec.splitPattern})$`, "v");
    expect(spec.splitPattern).toContain("'[sS\u017f]");
    expect(spec.splitPattern).not.toContain("\\s");
    expect(re.test("'LL")).toBe(true);
    expect(re.test("'\u017f")).toBe(true);
    expect(re.test("\u0085")).toBe(true); // White_Space, not in JS \s
    expect(re.test(" \ufeff")).toBe(true); // U+FEFF is not White_Space: punctuation-like run
  });
  it("keeps escaped punctuation literal", () => {
    expect(new RegExp(translateOnigPattern("\\-\\'[\\-a]"), "v").test("-'-")).toBe(true);
  });
});

describe("decode table", () => {
  const m = qwen3();
  const table = m.decodeTable;
  it("classifies text, partial bytes and added tokens", () => {
    expect(table.size).toBe(151669);
    expect(table.invalidUtf8).toBe("maximal-subpart");
    expect(table.startEnds).toBe("never");
    const hello = m.pieceToId("Hello") as number;
    expect(table.kind[hello]).toBe(TokenKind.Text);
    expect(table.text[hello]).toBe("Hello");
    expect(table.textAtStart[hello]).toBe("Hello");
    const space = m.pieceToId("Ġ") as number;
    expect(table.text[space]).toBe(" ");
    const lead = m.pieceToId("ä") as number; // byte 0xE4 alone: incomplete UTF-8
    expect(table.kind[lead]).toBe(TokenKind.Bytes);
    expect(Array.from(table.bytes[lead] ?? [])).toEqual([0xe4]);
    expect(table.kind[151667]).toBe(TokenKind.Control);
    expect(m.decode([hello, 151667, space])).toBe("Hello "); // blocked added tokens decode to ""
  });
  it("agrees with decode() for every ID", () => {
    for (let id = 0; id < table.size; id += 7) {
      const k = table.kind[id];
      const want = m.decode([id]);
      if (k === TokenKind.Text) expect(table.text[id]).toBe(want);
      else if (k === TokenKind.Bytes) expect(new TextDecoder().decode(table.bytes[id])).toBe(want);
      else expect(want).toBe("");
    }
  });
  it("exposes token bytes and pieces", () => {
    expect(Array.from(m.tokenBytes(m.pieceToId("Ġworld") as number))).toEqual([...Buffer.from(" world")]);
    expect(m.idToPiece(151667)).toBe("<think>");
    expect(m.pieceToId("<think>")).toBe(151667);
    expect(m.addedTokens.find((t) => t.id === 151667)).toEqual({
      id: 151667,
      content: "<think>",
      special: false,
    });
    expect(m.idToPiece(-1)).toBeUndefined();
    expect(m.vocabSize).toBe(151669);
  });
});
