// The chat builder's unmeasured path (chat/builder.ts exactWithoutMeasuring: a run's prefix
// segments attributed from their UTF-8 lengths alone) against its measuring path (every
// segment and every token measured), on the same tokenizer: a differential over random
// conversations whose text mixes what could break the shortcut: combining marks at a segment
// start (NFC composes across the boundary), U+2581 (SentencePiece decodes it as a space),
// CJK, emoji, spaces and newlines. The measuring path is forced by hiding the model's
// leadingOffsetBytes (then nothing may be assumed about its bytes).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import type { ChatTokenizer } from "../src/index.ts";
import { loadTokenizerSync } from "../src/node.ts";
import { withModelView } from "./model-view.ts";

/** The measuring path: no leadingOffsetBytes, no cut, no encodeInto (see model-view.ts). */
function measuring(tok: ChatTokenizer): ChatTokenizer {
  return withModelView(tok);
}

const PIECES = [
  "e",
  "\u0301",
  "\u0323",
  "\u2581",
  " ",
  "  ",
  "\n",
  "a",
  "Hello",
  "你好",
  "😀",
  "é",
  "ᄀ",
  "ᅡ",
  "x\u0301",
  // Starts the NFC-boundary shortcut takes (chat/nfc-boundary.ts) and ones it must not.
  "가",
  "\u11a8",
  "か",
  "\u3099",
  "。",
  "Ａ",
];
const content = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join(""));

const models: [string, () => ChatTokenizer][] = [["qwen3", () => loadTokenizerSync("qwen3")]];
if (haveFixtures()) {
  models.push(["internlm2", () => loadTokenizerSync(fixturePath("internlm2"), { format: "internlm2" })]);
  models.push(["chatglm3", () => loadTokenizerSync(fixturePath("chatglm3"), { format: "chatglm3" })]);
}

describe.each(models)("%s: unmeasured spans equal measured spans", (_, make) => {
  const tok = make();
  const slow = measuring(tok);
  it("on random conversations", () => {
    expect(tok.textModel.leadingOffsetBytes).toBeDefined();
    fc.assert(
      fc.property(fc.array(content, { minLength: 1, maxLength: 5 }), fc.boolean(), (contents, gen) => {
        const request = {
          messages: contents.map((c, i) => ({
            role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
            content: c,
          })),
          add_generation_prompt: gen,
        };
        const fast = tok.encodeChat(request);
        const ref = slow.encodeChat(request);
        expect(fast.ids).toEqual(ref.ids);
        expect(fast.spans).toEqual(ref.spans);
      }),
      { numRuns: 300, seed: 1201 },
    );
  });
});

// Prefix segments beyond ASCII: InternLM2 writes a message's name in its header, so the run is
// "ROLE name=NAME\n" + content and NAME is a prefix segment (two-byte characters below U+0300
// are measured by the shortcut; from U+0300 on the measuring path is taken).
const NAMES = ["bob", "é", "\u00ff\u00e9", "x\u0301", "你好", "Ａ", "a b", "\u017f", "😀"];
if (haveFixtures()) {
  describe("internlm2: unmeasured spans equal measured spans with names in the header", () => {
    const tok = loadTokenizerSync(fixturePath("internlm2"), { format: "internlm2" });
    const slow = measuring(tok);
    it("on random conversations with names", () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(content, fc.option(fc.constantFrom(...NAMES), { nil: undefined })), {
            minLength: 1,
            maxLength: 4,
          }),
          (msgs) => {
            const request = {
              messages: msgs.map(([c, name], i) => ({
                role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
                content: c,
                ...(name === undefined ? {} : { name }),
              })),
            };
            const fast = tok.encodeChat(request);
            const ref = slow.encodeChat(request);
            expect(fast.ids).toEqual(ref.ids);
            expect(fast.spans).toEqual(ref.spans);
          },
        ),
        { numRuns: 300, seed: 1202 },
      );
    });
  });
}
