// promptOpensStartBlock: where decoding starts, from the prompt's IDs and the spec's classes.
import { describe, expect, it } from "vitest";
import { compileDecoderSpecFor, promptOpensStartBlock } from "../src/index.ts";
import { tokenizer } from "./models.ts";

describe("promptOpensStartBlock", () => {
  const tok = tokenizer("qwen3");
  const id = (k: string): number => (tok.tokenIds as Readonly<Record<string, number>>)[k] as number;
  const spec = compileDecoderSpecFor(tok);
  const head = [id("imStart"), ...tok.textModel.encode("assistant\n")];

  it("an open start block at the prompt's end, and only then", () => {
    expect(promptOpensStartBlock(spec, [...head, id("think"), 198])).toBe(true);
    expect(promptOpensStartBlock(spec, [...head, id("think"), 271, id("thinkEnd"), 271])).toBe(false);
    expect(promptOpensStartBlock(spec, head)).toBe(false);
    expect(promptOpensStartBlock(spec, [])).toBe(false);
    // A block opened in an earlier turn does not carry over a turn boundary.
    expect(promptOpensStartBlock(spec, [id("think"), id("imEnd"), ...head])).toBe(false);
    // Other blocks' markers and IDs outside the tables change nothing.
    expect(promptOpensStartBlock(spec, [...head, id("think"), id("toolCall"), -1, 1e9])).toBe(true);
  });

  it("the result as startInReasoning makes the first generated text reasoning", () => {
    const opened = compileDecoderSpecFor(tok, {
      startInReasoning: promptOpensStartBlock(spec, [...head, id("think")]),
    });
    expect(opened.startInReasoning).toBe(true);
  });
});
