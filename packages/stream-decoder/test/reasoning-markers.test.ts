// Inside reasoning, a reserved marker the grammar gives no move there is reasoning text (the
// peers keep a tool call the model writes while thinking as reasoning): its string goes out as
// reasoning, with no error event, and only the block's own close marker leaves reasoning.
import { describe, expect, it } from "vitest";
import { compileDecoderSpecFor, createDecoder, type DecoderEvent, eventCollector } from "../src/index.ts";
import { textOf, tokenizer } from "./models.ts";

describe("reserved markers inside reasoning", () => {
  const tok = tokenizer("qwen3");
  const id = (k: string): number => (tok.tokenIds as Readonly<Record<string, number>>)[k] as number;
  const spec = compileDecoderSpecFor(tok, { startInReasoning: true });
  const text = (s: string): number[] => [...tok.textModel.encode(s)];

  function run(ids: readonly number[], stopStrings?: string[]): DecoderEvent[] {
    const c = eventCollector();
    const d = createDecoder(spec, c, stopStrings === undefined ? {} : { stopStrings });
    for (const i of ids) d.push(i);
    d.end();
    return c.events;
  }

  it("a tool call written while thinking is reasoning text, markers included, and no call", () => {
    const call = '{"name": "f", "arguments": {}}';
    const events = run([
      ...text("Let me call"),
      id("toolCall"),
      ...text(`\n${call}\n`),
      id("toolCallEnd"),
      id("thinkEnd"),
      ...text("\n\nDone."),
      id("imEnd"),
    ]);
    expect(textOf(events, "reasoning")).toBe(`Let me call<tool_call>\n${call}\n</tool_call>`);
    expect(textOf(events, "text")).toBe("Done.");
    expect(events.filter((e) => e.type === "error" || e.type.startsWith("action"))).toEqual([]);
  });

  it("a think that is never closed keeps everything, a tool call too, in reasoning", () => {
    const events = run([...text("hmm"), id("toolCall"), ...text("x"), id("imEnd")]);
    expect(textOf(events, "reasoning")).toBe("hmm<tool_call>x");
    expect(textOf(events, "text")).toBe("");
  });

  it("stop strings see the marker's text like any other reasoning text", () => {
    const events = run([...text("a"), id("toolCall"), ...text("b")], ["<tool_call>"]);
    expect(textOf(events, "reasoning")).toBe("a");
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "stop_string" });
  });

  it("outside reasoning the same marker out of place is still an error", () => {
    const events = run([id("thinkEnd"), ...text("x"), id("toolCallEnd"), id("imEnd")]);
    expect(events.some((e) => e.type === "error" && e.code === "unexpected-reserved-token")).toBe(true);
  });
});
