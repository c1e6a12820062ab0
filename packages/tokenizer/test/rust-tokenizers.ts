// HF's Rust `tokenizers` (npm binding, CommonJS without usable types): the reference the
// byte-level and tokenizer.json suites compare with, typed as they use it.
import { createRequire } from "node:module";

export interface RustEncoding {
  getIds(): number[];
}
export interface RustTokenizer {
  encode(text: string, pair: null, options: { addSpecialTokens: boolean }): Promise<RustEncoding>;
  encodeBatch(texts: string[], options: { addSpecialTokens: boolean }): Promise<RustEncoding[]>;
  decode(ids: number[], skipSpecialTokens: boolean): Promise<string>;
  decodeBatch(ids: number[][], skipSpecialTokens: boolean): Promise<string[]>;
  getPreTokenizer(): { preTokenizeString(s: string): [string, [number, number]][] };
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
