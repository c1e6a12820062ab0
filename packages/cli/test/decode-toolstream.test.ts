// `chatwire decode --stream-tool-calls`: the same events as without the flag, plus tool_call_name /
// tool_call_arguments inside each tool-call action. main() of the compiled bundle in this process
// (support.ts runMain): the case compares answers; decode's run through the bin is in decode.test.ts.
import type { ChatMessage } from "@chatwire/tokenizer";
import { loadTokenizerSync } from "@chatwire/tokenizer/node";
import { describe, expect, it } from "vitest";
import { runMain } from "./support.ts";

type Event = { readonly type: string; readonly [k: string]: unknown };

async function decodeCli(args: string[], ids: number[]): Promise<Event[]> {
  const r = await runMain(["decode", ...args], [{ ids }]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout.trim()) as { events: Event[] }).events;
}

/** The generated part of an assistant turn with one tool call (Qwen3 chat template). */
function toolCallIds(): number[] {
  const tok = loadTokenizerSync("qwen3");
  const context: ChatMessage[] = [{ role: "user", content: "Weather in Paris?" }];
  const turn: ChatMessage = {
    role: "assistant",
    content: "Checking.",
    tool_calls: [{ type: "function", function: { name: "get_weather", arguments: { location: "Paris" } } }],
  };
  const prompt = tok.encodeChat({ messages: context, add_generation_prompt: true }).ids;
  const full = tok.encodeChat({ messages: [...context, turn], add_generation_prompt: false }).ids;
  expect(full.slice(0, prompt.length)).toEqual(prompt);
  const gen = full.slice(prompt.length);
  return gen.slice(0, gen.indexOf(151645) + 1);
}

describe("chatwire decode --stream-tool-calls", () => {
  it("adds the name and the argument deltas; everything else as without the flag", async () => {
    const ids = toolCallIds();
    const off = await decodeCli([], ids);
    const on = await decodeCli(["--stream-tool-calls"], ids);
    const isTool = (e: Event) => e.type === "tool_call_name" || e.type === "tool_call_arguments";
    expect(off.some(isTool)).toBe(false);
    expect(on.filter((e) => !isTool(e))).toEqual(off);
    expect(on.filter((e) => e.type === "tool_call_name")).toEqual([
      { type: "tool_call_name", name: "get_weather" },
    ]);
    const args = on.filter((e) => e.type === "tool_call_arguments").map((e) => e.text as string);
    expect(args.join("")).toBe('{"location": "Paris"}');
    expect(args).not.toContain("");
    const types = on.map((e) => e.type);
    const first = types.findIndex((t) => t === "tool_call_name" || t === "tool_call_arguments");
    expect(types.indexOf("action_start")).toBeLessThan(first);
    expect(types.lastIndexOf("tool_call_arguments")).toBeLessThan(types.indexOf("action_end"));
    expect(on.find((e) => e.type === "action_end")).toMatchObject({
      call: { name: "get_weather", arguments: { location: "Paris" } },
    });
  });
});
