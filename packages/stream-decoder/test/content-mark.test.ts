// The "content-mark" move: a reserved token the chat template writes around a turn's plain
// content (Command R7B `<|START_RESPONSE|>text<|END_RESPONSE|>`) is derived from a content-only
// rendering and read as a piece with no text: the content comes out as text, with no
// `unexpected-reserved-token` error, one ID at a time, in bursts and through the reference
// decoder. The template is llama.cpp's copy of Command R7B's, over the peer-parse stand-in vocabulary.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agreedMessage, haveTemplate, loadEntry } from "./derived-format-support.ts";

const R7B = "models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja";

describe.skipIf(!haveTemplate(R7B))("content-mark (Command R7B <|START_RESPONSE|>)", () => {
  it("is derived from a content-only rendering, with the evidence", () => {
    const { probe } = loadEntry(R7B);
    expect(probe.output.grammar.markers["<|START_RESPONSE|>"]).toEqual({ move: "content-mark" });
    expect(probe.output.evidence).toContain(
      "content: <|START_RESPONSE|> is written around a turn's content (read as no text)",
    );
  });

  it("content between the marks is text, with no error event, under any chunking", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("", "<|START_THINKING|>Let me see.<|END_THINKING|>"),
        fc.constantFrom("Hello there", "a <b> & 'c'\nline two", "日本語 ok"),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }),
        (thinking, content, bursts) => {
          const ids = loadEntry(R7B).encode(`${thinking}<|START_RESPONSE|>${content}<|END_RESPONSE|>`);
          const m = agreedMessage(R7B, ids, bursts);
          expect(m.errors).toEqual([]);
          expect(m.content).toBe(content);
          expect(m.reasoning).toBe(thinking === "" ? "" : "Let me see.");
        },
      ),
      { numRuns: 30 },
    );
  });
});
