// The grammar rules of sectioned calls (BlockGrammar.alsoTopLevel, endsReasoning, reopens with a
// close marker), on a synthetic grammar of Kimi K2's shape (./grammar-support.ts SECTION_GRAMMAR)
// through both engines (createDecoder and the reference decoder). The expected messages are the
// peers' (llama.cpp test-chat.cpp's Kimi K2 cases): a tool section or a lone call begun while
// thinking ends the thinking; a call without its section, or without its close marker, is a call;
// the call id is reported; a marker without such a rule inside reasoning stays reasoning text.
import { describe, expect, it } from "vitest";
import {
  createDecoder,
  createReferenceDecoder,
  type DecoderEvent,
  type DecoderOptions,
} from "../src/index.ts";
import { mergedAll, SECTION_GRAMMAR, SECTION_KEYS, syntheticFamily } from "./grammar-support.ts";
import { eventsInBursts, ONE_BURST } from "./push-bursts.ts";

const f = syntheticFamily(SECTION_GRAMMAR, SECTION_KEYS, ["eot"]);
const { id } = f;
const m = (k: string): number => id[k] as number;

function both(ids: readonly number[], options: DecoderOptions = {}): DecoderEvent[] {
  const out: DecoderEvent[][] = [];
  for (const make of [createDecoder, createReferenceDecoder]) {
    out.push(mergedAll(eventsInBursts(make, f.spec, ids, options, ONE_BURST)));
  }
  expect(out[1]).toEqual(out[0]);
  return out[0] as DecoderEvent[];
}

const call = (name: string, index: number, args: string): number[] => [
  m("callBegin"),
  ...f.enc(`functions.${name}:${index}`),
  m("argBegin"),
  ...f.enc(args),
];

const ends = (ev: readonly DecoderEvent[]) =>
  ev.filter((e) => e.type === "action_end").map((e) => (e.type === "action_end" ? e.call : undefined));

describe("sectioned calls (Kimi K2 shape)", () => {
  it("a section of two calls: each call with its id", () => {
    const ev = both([
      m("sectionBegin"),
      ...call("get_weather", 0, '{"a": 1}'),
      m("callEnd"),
      ...call("Hello", 1, "{}"),
      m("callEnd"),
      m("sectionEnd"),
      m("eot"),
    ]);
    expect(ends(ev)).toEqual([
      { name: "get_weather", arguments: { a: 1 }, id: "functions.get_weather:0" },
      { name: "Hello", arguments: {}, id: "functions.Hello:1" },
    ]);
    expect(ev.some((e) => e.type === "error")).toBe(false);
  });

  it("a section begun while thinking ends the thinking (no close marker)", () => {
    const ev = both([
      m("think"),
      ...f.enc("Hello world"),
      m("sectionBegin"),
      ...call("get_weather", 0, '{"a": 1}'),
      m("callEnd"),
      m("sectionEnd"),
    ]);
    expect(ev.filter((e) => e.type === "reasoning")).toEqual([{ type: "reasoning", text: "Hello world" }]);
    expect(ends(ev)).toEqual([{ name: "get_weather", arguments: { a: 1 }, id: "functions.get_weather:0" }]);
    expect(ev.some((e) => e.type === "error" || e.type === "text")).toBe(false);
  });

  it("lone calls without section or close markers: each open starts the next call; the end closes the last", () => {
    const ev = both([
      m("think"),
      ...f.enc("Hello"),
      ...call("get_weather", 0, '{"a": 1}'),
      ...call("Hello", 1, "{}"),
    ]);
    expect(ev.filter((e) => e.type === "reasoning")).toEqual([{ type: "reasoning", text: "Hello" }]);
    expect(ends(ev)).toEqual([
      { name: "get_weather", arguments: { a: 1 }, id: "functions.get_weather:0" },
      { name: "Hello", arguments: {}, id: "functions.Hello:1" },
    ]);
  });

  it("a lone call in content returns to content; text after it is content", () => {
    const ev = both([...f.enc("Hello"), ...call("get_weather", 0, "{}"), m("callEnd"), ...f.enc("world")]);
    expect(ev.filter((e) => e.type === "text")).toEqual([
      { type: "text", text: "Hello" },
      { type: "text", text: "world" },
    ]);
    expect(ends(ev)).toEqual([{ name: "get_weather", arguments: {}, id: "functions.get_weather:0" }]);
    expect(ev.some((e) => e.type === "error")).toBe(false);
  });

  it("streams the name, then argument deltas", () => {
    const all = both(
      [m("sectionBegin"), ...call("get_weather", 0, '{"a": 1}'), m("callEnd"), m("sectionEnd")],
      {
        streamToolCalls: true,
      },
    );
    const ev = mergedAll(all.filter((e) => e.type.startsWith("tool_call")));
    expect(ev).toEqual([
      { type: "tool_call_name", name: "get_weather" },
      { type: "tool_call_arguments", text: '{"a": 1}' },
    ]);
  });

  it("a marker with no such rule inside reasoning is reasoning text (the section end)", () => {
    const ev = both([m("think"), ...f.enc("Hello"), m("sectionEnd"), m("endThink"), ...f.enc("world")]);
    expect(ev.filter((e) => e.type === "reasoning")).toEqual([
      { type: "reasoning", text: "Hello<sectionEnd>" },
    ]);
    expect(ev.filter((e) => e.type === "text")).toEqual([{ type: "text", text: "world" }]);
  });
});
