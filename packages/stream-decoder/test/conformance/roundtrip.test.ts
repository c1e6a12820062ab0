// Encode -> decode round trips for every family of the battery that has an encoder here: an
// assistant turn in the OpenAI request shape (content, tool_calls) goes through the family's
// encoder (encodeChat), its generated part (after the generation prompt, through the first
// EOS ID) through the decoder. Family-neutral assertions, from the turn itself: the text
// events are the content, the parsed calls are the tool calls, with streamToolCalls the names
// and the argument deltas are the calls too, chunked decoding equals one ID at a time, the
// fast path equals the slow path, and the stream ends with exactly one stop.
import type { ChatMessage } from "@chatwire/tokenizer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RoundTripTurns } from "../../../../test-support/family-fixtures.ts";
import type { DecoderEvent, DecoderOptions, JsonValue } from "../../src/index.ts";
import { SLOW_PATH_ONLY } from "../../src/internal.ts";
import { decode, generationIds } from "../roundtrip-support.ts";
import { objectOf } from "../schema-support.ts";
import { FAMILY_CASES } from "./families.ts";

type Args = { [key: string]: JsonValue };
interface Turn {
  readonly content: string;
  readonly calls: ReadonlyArray<{ readonly name: string; readonly arguments: Args }>;
}

const word = fc.constantFrom("Hello", "world", "你好", "天气", "1+1=2", "x_y", "ok.", "Ünïcode", "😀", "a,b");
const content = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(" "));
// Each key has one type, declared in TOOLS' schema: a family that types values the model writes
// as text by the request's schema (qwen3-coder's xml-call) gives them back typed.
const str = fc.constantFrom("Paris", "北京", "a b", "");
const args = fc.record(
  { city: str, n: fc.integer({ min: -1000, max: 1000 }), flag: fc.boolean(), unit: str },
  { requiredKeys: [] },
) as fc.Arbitrary<Args>;
const call = fc.record({ name: fc.constantFrom("get_weather", "search"), arguments: args });
/** The turns a family's template carries (fixtures "roundTrip"; default all of them, 2 calls). */
function turnsFor(r: RoundTripTurns = {}): fc.Arbitrary<Turn> {
  const maxCalls = r.maxCalls ?? 2;
  const shapes: fc.Arbitrary<Turn>[] = [fc.record({ content, calls: fc.constant([]) })];
  if (r.toolCalls === false) return shapes[0] as fc.Arbitrary<Turn>;
  shapes.push(
    fc.record({ content: fc.constant(""), calls: fc.array(call, { minLength: 1, maxLength: maxCalls }) }),
  );
  if (r.contentWithCalls !== false)
    shapes.push(fc.record({ content, calls: fc.array(call, { minLength: 1, maxLength: 1 }) }));
  return fc.oneof(...shapes);
}

/** The request's tools (a family may read calls from text only when it has them). */
const TOOLS = ["get_weather", "search"].map((name) => ({
  type: "function",
  function: {
    name,
    description: "d",
    parameters: objectOf({ city: "string", n: "integer", flag: "boolean", unit: "string" }),
  },
}));

function request(t: Turn): { context: unknown[]; turn: unknown[] } {
  const assistant: Record<string, unknown> = { role: "assistant", content: t.content };
  if (t.calls.length > 0)
    assistant.tool_calls = t.calls.map((c) => ({
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
  return { context: [{ role: "user", content: "Hi" }], turn: [assistant, { role: "user", content: "ok" }] };
}

function text(events: readonly DecoderEvent[]): string {
  return events.map((e) => (e.type === "text" ? e.text : "")).join("");
}

function calls(events: readonly DecoderEvent[]): unknown[] {
  return events.flatMap((e) => (e.type === "action_end" && e.call !== undefined ? [e.call] : []));
}

/** The streamed calls: each name event starts one, its argument deltas concatenated. */
function streamed(events: readonly DecoderEvent[]): unknown[] {
  const out: Array<{ name: string; args: string }> = [];
  for (const e of events) {
    if (e.type === "tool_call_name") out.push({ name: e.name, args: "" });
    else if (e.type === "tool_call_arguments") (out[out.length - 1] as { args: string }).args += e.text;
  }
  return out.map((c) => ({ name: c.name, arguments: JSON.parse(c.args === "" ? "{}" : c.args) }));
}

const counts = new Map<string, number>();

for (const c of FAMILY_CASES) {
  const tokenizer = c.tokenizer;
  if (tokenizer === undefined) continue;
  describe.skipIf(!c.available)(`round trip: ${c.name}`, () => {
    it("text and tool calls survive encode -> decode (single, chunked, streamed, fast = slow)", () => {
      let n = 0;
      fc.assert(
        fc.property(turnsFor(c.roundTrip), fc.integer({ min: 1, max: 1_000_000 }), (t, seed) => {
          const r = request(t);
          const ids = generationIds(tokenizer(), r.context as ChatMessage[], r.turn as ChatMessage[]);
          const spec = c.spec("default");
          const single = decode(spec, ids, { tools: TOOLS });
          expect(single[0]).toMatchObject({ type: "message_start", role: "assistant" });
          expect(single.filter((e) => e.type === "stop")).toHaveLength(1);
          expect(single[single.length - 1]).toMatchObject({ type: "stop", reason: "eos" });
          expect(single.filter((e) => e.type === "error")).toEqual([]);
          expect(text(single)).toBe(t.content);
          expect(calls(single)).toEqual(t.calls.map((x) => ({ name: x.name, arguments: x.arguments })));
          expect(decode(spec, ids, { tools: TOOLS }, seed)).toEqual(single);
          const on: DecoderOptions = { streamToolCalls: true, tools: TOOLS };
          const s = decode(spec, ids, on, seed);
          expect(s.filter((e) => !e.type.startsWith("tool_call_"))).toEqual(single);
          expect(streamed(s)).toEqual(t.calls.map((x) => ({ name: x.name, arguments: x.arguments })));
          expect(decode(spec, ids, { ...on, [SLOW_PATH_ONLY]: true } as DecoderOptions, seed)).toEqual(s);
          n++;
        }),
        { numRuns: 60, seed: 8 },
      );
      counts.set(c.name, n);
      expect(n).toBe(60);
    });
  });
}
