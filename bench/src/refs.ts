// Typed handles on the JS reference/baseline libraries that ship CommonJS only
// (@huggingface/tokenizers has no .mjs in its dist; sentencepiece-js has no types).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export interface HfJsTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
  decode(ids: number[], options?: { skip_special_tokens?: boolean }): string;
}

export function loadHfJs(tokenizerJsonPath: string): HfJsTokenizer {
  const mod = require("@huggingface/tokenizers") as {
    Tokenizer: new (json: object, config: object) => HfJsTokenizer;
  };
  const json = JSON.parse(readFileSync(tokenizerJsonPath, "utf8")) as object;
  const config = JSON.parse(
    readFileSync(tokenizerJsonPath.replace(/tokenizer\.json$/, "tokenizer_config.json"), "utf8"),
  ) as object;
  return new mod.Tokenizer(json, config);
}

export interface SpmWasm {
  load(path: string): Promise<void>;
  encodeIds(text: string): number[];
  decodeIds(ids: number[]): string;
}

export async function loadSpmWasm(modelPath: string): Promise<SpmWasm> {
  const mod = require("sentencepiece-js") as { SentencePieceProcessor: new () => SpmWasm };
  const sp = new mod.SentencePieceProcessor();
  await sp.load(modelPath);
  return sp;
}
