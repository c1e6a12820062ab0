// Typed handles on the JS reference/baseline libraries that ship CommonJS only
// (@huggingface/tokenizers has no .mjs in its dist; sentencepiece-js has no types): the handles
// the tokenizer's crosscheck suites use, plus loading @huggingface/tokenizers from a file path.
import { readFileSync } from "node:fs";
import { type HfJsTokenizer, loadHfJs as hfJsFromJson } from "../../packages/tokenizer/test/js-packages.ts";

export { type HfJsTokenizer, loadSpmWasm, type SpmWasm } from "../../packages/tokenizer/test/js-packages.ts";

/** @huggingface/tokenizers from a tokenizer.json path and the tokenizer_config.json beside it. */
export function loadHfJs(tokenizerJsonPath: string): HfJsTokenizer {
  const json = JSON.parse(readFileSync(tokenizerJsonPath, "utf8")) as object;
  const config = JSON.parse(
    readFileSync(tokenizerJsonPath.replace(/tokenizer\.json$/, "tokenizer_config.json"), "utf8"),
  ) as object;
  return hfJsFromJson(json, config);
}
