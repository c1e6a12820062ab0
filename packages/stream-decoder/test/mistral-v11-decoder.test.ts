// Mistral v11/v13 decoding (docs/families/mistral.md): generations rendered by the Mistral
// encoder (the assistant turn after the prompt, through </s>) on the small tekken files of
// mistral-common's own tests (test-support/mistral-synthetic-tekken.ts), through the decoder
// compiled from the loaded tokenizer: each [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{...} call its own
// action (body syntax name-args; the next [TOOL_CALLS] ends the call before it), reasoning from
// [THINK]...[/THINK], the EOS stop. Expected events come from the rendered turn itself (a
// call's id where the version writes [CALL_ID]: v11; v13 writes none).
import { type ChatTokenizer, fromFiles } from "@chatwire/tokenizer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { syntheticTekken } from "../../../test-support/mistral-synthetic-tekken.ts";
import {
  compileDecoderSpecFor,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  type JsonValue,
} from "../src/index.ts";
import { mergeDeltas } from "./merge-deltas.ts";
import { eventsInChunks } from "./push-bursts.ts";
import { generationIds } from "./roundtrip-support.ts";
import { splitAt } from "./split-at.ts";

type Args = { [key: string]: JsonValue };

const decode = (
  tok: ChatTokenizer,
  chunks: readonly (readonly number[])[],
  options: DecoderOptions = {},
): DecoderEvent[] => eventsInChunks(createDecoder, compileDecoderSpecFor(tok), chunks, options);

/** The events with adjacent text / reasoning / argument deltas joined (chunkings split them differently). */
const merged = (events: readonly DecoderEvent[]): DecoderEvent[] =>
  mergeDeltas(events, ["text", "reasoning", "tool_call_arguments", "action_text"]);

const VERSIONS = [
  ["v11", () => fromFiles({ "tekken.json": syntheticTekken("v11") })],
  ["v13", () => fromFiles({ "tekken.json": syntheticTekken("v13", true) })],
] as const;

const CONTEXT = [{ role: "user", content: "Weather in Paris?" }];
const call = (id: string, name: string, args: Args) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

/** The turns rendered then decoded: content, calls, reasoning in the ways the encoder writes them. */
const TURNS: ReadonlyArray<{
  name: string;
  content: string | null;
  reasoning?: string;
  calls: Array<[string, Args]>;
}> = [
  { name: "one call", content: null, calls: [["get_weather", { city: "Paris" }]] },
  {
    name: "two calls",
    content: null,
    calls: [
      ["get_weather", { city: "Paris" }],
      ["get_time", { tz: "CET", n: [1, { d: null }] }],
    ],
  },
  {
    name: "content then a call",
    content: "Let me check.",
    calls: [["get_weather", { city: "Ünïcode 東京" }]],
  },
  { name: "empty arguments", content: null, calls: [["now", {}]] },
  {
    name: "reasoning then a call",
    content: null,
    reasoning: "The user wants weather.",
    calls: [["get_weather", { city: "Paris" }]],
  },
];

describe.each(VERSIONS)("Mistral %s decoding", (version, load) => {
  const tok = load();
  const turnIds = (t: (typeof TURNS)[number]): number[] =>
    generationIds(tok, CONTEXT, [
      {
        role: "assistant",
        content: t.content,
        ...(t.reasoning === undefined ? {} : { reasoning_content: t.reasoning }),
        tool_calls: t.calls.map(([n, a], k) => call(`abcdefgh${k}`, n, a)),
      },
      ...t.calls.map((_, k) => ({ role: "tool", content: "ok", tool_call_id: `abcdefgh${k}` })),
    ]);

  /** The call id the rendered turn carries, as the decoded call reports it (v11 writes [CALL_ID]). */
  const idOf = (k: number) => (version === "v11" ? { id: `abcdefgh${k}` } : {});

  for (const t of TURNS) {
    it(`round trip: ${t.name}`, () => {
      const ids = turnIds(t);
      for (const stream of [false, true]) {
        const events = decode(tok, [ids], { streamToolCalls: stream });
        expect(events.filter((e) => e.type === "error")).toEqual([]);
        expect(events.flatMap((e) => (e.type === "action_end" ? [e.call] : []))).toEqual(
          t.calls.map(([name, args], k) => ({ name, arguments: args, ...idOf(k) })),
        );
        expect(events.filter((e) => e.type === "action_start")).toEqual(
          t.calls.map(() => ({ type: "action_start", kind: "tool_call" })),
        );
        expect(events.map((e) => (e.type === "text" ? e.text : "")).join("")).toBe(t.content ?? "");
        const reasoning = events.map((e) => (e.type === "reasoning" ? e.text : "")).join("");
        // v11 files have no [THINK]: the reasoning is not rendered there.
        expect(reasoning).toBe(version === "v13" ? (t.reasoning ?? "") : "");
        expect(events.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
        if (stream) {
          expect(events.flatMap((e) => (e.type === "tool_call_name" ? [e.name] : []))).toEqual(
            t.calls.map(([n]) => n),
          );
          const perAction: string[] = [];
          for (const e of events) {
            if (e.type === "action_start") perAction.push("");
            else if (e.type === "tool_call_arguments") perAction[perAction.length - 1] += e.text;
          }
          expect(perAction.map((a) => JSON.parse(a))).toEqual(t.calls.map(([, a]) => a));
        }
      }
    });
  }

  it("burst property: any chunking of pushMany gives the events of one ID at a time", () => {
    const all = TURNS.map(turnIds);
    fc.assert(
      fc.property(
        fc.nat(all.length - 1),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        (k, cuts, stream) => {
          const ids = all[k] as number[];
          const chunks = splitAt(ids, cuts);
          const one = decode(
            tok,
            ids.map((id) => [id]),
            { streamToolCalls: stream },
          );
          expect(merged(decode(tok, chunks, { streamToolCalls: stream }))).toEqual(merged(one));
        },
      ),
      { seed: 1311, numRuns: 200 },
    );
  });

  it("a stop string inside a call ends it: an action_end error with the raw text, then the stop", () => {
    const ids = turnIds(TURNS[1] as (typeof TURNS)[number]);
    const events = decode(tok, [ids], { stopStrings: ["CET"], streamToolCalls: true });
    const ends = events.filter((e) => e.type === "action_end");
    expect(ends[0]).toMatchObject({ call: { name: "get_weather", arguments: { city: "Paris" } } });
    expect(ends[1]).toMatchObject({ error: expect.any(String) });
    // The raw text is the body's text (the separators are markers): name, v11's id, arguments so far.
    expect(ends[1]?.type === "action_end" && ends[1].raw).toBe(
      `get_time${version === "v11" ? "abcdefgh1" : ""}{"tz": "`,
    );
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "stop_string" });
    // The same one ID at a time.
    expect(
      merged(
        decode(
          tok,
          ids.map((id) => [id]),
          { stopStrings: ["CET"], streamToolCalls: true },
        ),
      ),
    ).toEqual(merged(events));
  });

  it("a stop string spanning the name and [ARGS] is not matched (never across a marker)", () => {
    const ids = turnIds(TURNS[0] as (typeof TURNS)[number]);
    const events = decode(tok, [ids], { stopStrings: ['get_weather{"city"'] });
    expect(events.flatMap((e) => (e.type === "action_end" ? [e.call] : []))).toEqual([
      { name: "get_weather", arguments: { city: "Paris" }, ...idOf(0) },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
  });
});

describe("Mistral v11 call ids", () => {
  it("[CALL_ID] is read and reported as the call's id", () => {
    const tok = fromFiles({ "tekken.json": syntheticTekken("v11") });
    const ids = generationIds(tok, CONTEXT, [
      { role: "assistant", content: null, tool_calls: [call("abcdefghi", "f", { a: 1 })] },
      { role: "tool", content: "ok", tool_call_id: "abcdefghi" },
    ]);
    expect(tok.decode(ids, { specialTokens: "show" })).toBe(
      '[TOOL_CALLS]f[CALL_ID]abcdefghi[ARGS]{"a": 1}</s>',
    );
    const events = decode(tok, [ids], { streamToolCalls: true });
    expect(events.find((e) => e.type === "action_end")).toEqual({
      type: "action_end",
      kind: "tool_call",
      raw: 'fabcdefghi{"a": 1}',
      call: { name: "f", arguments: { a: 1 }, id: "abcdefghi" },
    });
    expect(events.flatMap((e) => (e.type === "tool_call_arguments" ? [e.text] : [])).join("")).toBe(
      '{"a": 1}',
    );
  });
});
