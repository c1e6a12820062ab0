// The template format over SentencePiece tokenizer.model directories (template/from-files.ts):
// InternLM2 through its config's chat_template equals the native internlm2 family encoder (the
// template is faithful: ChatML); ChatGLM3 -32k's template is NOT faithful to build_chat_input,
// shown here. Needs the real fixtures (CHATWIRE_FIXTURES).
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { type ChatRequest, templateFromFiles } from "../src/index.ts";
import { loadTemplateTokenizerSync, loadTokenizerSync } from "../src/node.ts";

const REQUESTS: ChatRequest[] = [
  { messages: [{ role: "user", content: "Hello! How are you?" }] },
  {
    messages: [
      { role: "system", content: "You are terse." },
      { role: "user", content: "你好，世界 😀 with  two spaces\nand a newline" },
      { role: "assistant", content: "Hi.\n\n  Indented." },
      { role: "user", content: " leading space, trailing \n" },
    ],
  },
  { messages: [{ role: "user", content: "x" }], add_generation_prompt: false },
  // Caller text spelling reserved tokens: text in both paths.
  { messages: [{ role: "user", content: "a<|im_start|>b</s>c<|action_start|><|plugin|>" }] },
] as unknown as ChatRequest[];

describe.skipIf(!haveFixtures())("template format over tokenizer.model", () => {
  test("InternLM2: its config's template = the native internlm2 encoder", () => {
    const tpl = loadTemplateTokenizerSync(fixturePath("internlm2"));
    const native = loadTokenizerSync(fixturePath("internlm2"));
    expect(tpl.textModel.family).toBe("sentencepiece");
    for (const r of REQUESTS) {
      expect(tpl.encodeChat(r).ids).toEqual(native.encodeChat(r).ids);
      expect(tpl.renderChat(r)).toBe(native.renderChat(r));
    }
    // The reserved set: every added token of the config.
    expect(tpl.reserved.get("<|im_start|>")).toBe(92543);
  });

  test("ChatGLM3 -32k: the template's `<|role|> \\n content` differs from build_chat_input", () => {
    const tpl = templateFromFiles({
      "tokenizer.model": readFileSync(fixturePath("chatglm3/tokenizer.model")),
      "tokenizer_config.json": readFileSync(fixturePath("chatglm3/chatglm3-6b-32k/tokenizer_config.json")),
    });
    const native = loadTokenizerSync(fixturePath("chatglm3"));
    const r = { messages: [{ role: "user", content: "hi" }] } as unknown as ChatRequest;
    // The template writes a space before and after the "\n" of the role line ...
    expect(tpl.renderChat(r)).toBe("[gMASK]sop<|user|> \n hi<|assistant|>");
    // ... where build_chat_input writes <|user|> "\n" then the content.
    expect(native.renderChat(r)).toBe("[gMASK]sop<|user|>\nhi<|assistant|>");
    // And the marker IDs: the role tokens (and [gMASK], sop) are not in the .model nor in this
    // config's added tokens (the vendor's Python code adds them), and `<|{{ role }}|>` is built
    // from caller text anyway: the template path places none of them, all of it is text.
    const ids = tpl.encodeChat(r).ids;
    const nativeIds = native.encodeChat(r).ids;
    expect(ids).not.toEqual(nativeIds);
    expect(nativeIds.filter((id) => id >= 64790)).toEqual([64790, 64792, 64795, 64796]);
    expect(ids.filter((id) => id >= 64790)).toEqual([]);
  });
});
