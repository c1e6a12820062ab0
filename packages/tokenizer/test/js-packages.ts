// Typed handles on the JS tokenizer packages compared with ours, which ship CommonJS without
// usable types: sentencepiece-js (SentencePiece compiled to WASM) and @huggingface/tokenizers
// (pure JS). Shared by the crosscheck suites and the bench's baselines (bench/src/refs.ts).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export interface SpmWasm {
  load(path: string): Promise<void>;
  encodeIds(text: string): number[];
  decodeIds(ids: number[]): string;
}

/** sentencepiece-js 1.1.0: SentencePiece compiled to WASM; each instance owns one module. */
export async function loadSpmWasm(modelPath: string): Promise<SpmWasm> {
  const mod = require("sentencepiece-js") as { SentencePieceProcessor: new () => SpmWasm };
  const sp = new mod.SentencePieceProcessor();
  await sp.load(modelPath);
  return sp;
}

export interface HfJsTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
  decode(ids: number[], options?: { skip_special_tokens?: boolean }): string;
}

/** @huggingface/tokenizers (pure JS) from a parsed tokenizer.json. */
export function loadHfJs(json: object, config: object): HfJsTokenizer {
  const mod = require("@huggingface/tokenizers") as {
    Tokenizer: new (json: object, config: object) => HfJsTokenizer;
  };
  return new mod.Tokenizer(json, config);
}
