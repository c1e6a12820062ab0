// Spans stay exact when the model's normalization (Qwen3: NFC) changes the length of a run:
// NFC can shorten text (e + U+0301 -> é) and also LENGTHEN it (U+01D5 + U+0323 reorders and
// recomposes to 4 -> 7 UTF-8 bytes); the header tokens must still belong to the header.
import { describe, expect, it } from "vitest";
import { loadTokenizerSync } from "../src/node.ts";

const tok = loadTokenizerSync("qwen3");

function contentSpan(content: string): { headerFields: string[]; contentText: string } {
  const enc = tok.encodeChat({ messages: [{ role: "user", content }], add_generation_prompt: false });
  const headerFields: string[] = [];
  let contentIds: number[] = [];
  for (const s of enc.spans) {
    if (s.message === 0 && s.field === "content")
      contentIds = contentIds.concat(enc.ids.slice(s.start, s.end));
    else if (s.message === 0 && s.field !== "marker") headerFields.push(s.field);
  }
  return { headerFields, contentText: tok.textModel.decode(contentIds) };
}

describe("spans under NFC", () => {
  for (const [name, content] of [
    ["ascii", "Hello"],
    ["NFC shortens", "Cafe\u0301 au lait"],
    ["NFC lengthens", "\u01d5\u0323 x"],
    ["NFC lengthens at the start", "\u01d5\u0323"],
    ["CJK and emoji (already NFC)", "你好，世界 🚀 안녕"],
    ["a combining mark first (NFC-stable at the boundary)", "\u0301abc"],
  ] as const) {
    it(name, () => {
      const { contentText } = contentSpan(content);
      expect(contentText).toBe(content.normalize("NFC"));
    });
  }
});
