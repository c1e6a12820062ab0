// A JSON call's body as the engine's fast path reads it (docs/decoder.md "How a call's text is
// parsed"): JSON-plain pieces marked by a per-ID table, runs of them inside a string handed to
// the JSON reader as one chunk when tool calls are not streamed, the raw text kept as the
// pieces concatenated. Expectations come from outside the engine: the call is JSON.parse of the
// text the body was rendered from, the raw text is that text (or, past maxBufferedChars, the
// longest run of whole action_text chunks within the cap), and streaming the call changes
// neither. Bodies are rendered by JSON.stringify from strings mixing plain text, escapes,
// quotes, backslashes, control characters, CJK and emoji (byte pieces), encoded by the Qwen3
// tokenizer, decoded one ID at a time and in random bursts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { Qwen3Key } from "../../tokenizer/src/families/qwen3/definition.ts";
import { jsonPlainness, PLAIN_NO, PLAIN_YES } from "../src/fast-tables.ts";
import type { DecoderEvent, DecoderOptions } from "../src/index.ts";
import { tokenizer } from "./models.ts";
import { decode, specOf } from "./roundtrip-support.ts";

const qwen3 = () => tokenizer("qwen3");
const Q = tokenIds<Qwen3Key>(qwen3);

/** Pieces of argument strings: long plain runs, and every unit that ends or escapes one. */
const FRAGMENTS = [
  "The quick brown fox jumps over the lazy dog. ",
  "export function sum(xs: number[]): number {",
  "数据库迁移脚本",
  "🤖",
  "👩‍💻",
  "𠮷野家",
  "\n",
  "\t",
  '"',
  "\\",
  "/",
  "\u0001",
  "é",
  " ",
  "x".repeat(60),
];

const argString = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 24 }).map((a) => a.join(""));

const callArb = fc.record({
  name: fc.constantFrom("write_file", "get_weather"),
  args: fc.record({
    path: argString,
    content: argString,
    n: fc.integer({ min: -1000, max: 1000 }),
    list: fc.array(argString, { maxLength: 3 }),
  }),
  pretty: fc.boolean(),
});

function callText(c: { name: string; args: unknown; pretty: boolean }): string {
  return `\n${JSON.stringify({ name: c.name, arguments: c.args }, null, c.pretty ? 1 : 0)}\n`;
}

/** An assistant generation: some text, then the calls, then the end of the turn. */
function generation(bodies: readonly string[]): number[] {
  const tok = qwen3();
  const ids = [...tok.encodeText("Let me do that.").ids];
  for (const b of bodies)
    ids.push(Q.toolCall, ...tok.encodeText(b).ids, Q.toolCallEnd, ...tok.encodeText("\n").ids);
  ids.push(Q.imEnd);
  return ids;
}

/** Per action: its action_text chunks, and its action_end. */
function actions(events: readonly DecoderEvent[]): { texts: string[]; end: DecoderEvent | undefined }[] {
  const out: { texts: string[]; end: DecoderEvent | undefined }[] = [];
  for (const e of events) {
    if (e.type === "action_start") out.push({ texts: [], end: undefined });
    const last = out[out.length - 1];
    if (last === undefined) continue;
    if (e.type === "action_text") last.texts.push(e.text);
    else if (e.type === "action_end") last.end = e;
  }
  return out;
}

/** The longest run of whole chunks whose total length is at most `max`. */
function keptPrefix(texts: readonly string[], max: number): string {
  let out = "";
  for (const t of texts) {
    if (out.length + t.length > max) break;
    out += t;
  }
  return out;
}

describe("JSON-plain pieces", () => {
  it("a piece is plain exactly when it holds no quote, backslash or unit below U+0020", () => {
    expect(jsonPlainness("abc 数据 🤖 é /")).toBe(PLAIN_YES);
    for (const t of ['a"', "\\n", "x\n", "\t", "\u001f", '"']) expect(jsonPlainness(t)).toBe(PLAIN_NO);
    expect(jsonPlainness(" \u0020")).toBe(PLAIN_YES);
  });
});

describe("json-call bodies read as they arrive (Qwen3)", () => {
  it("the call is JSON.parse of the rendered text and the raw text is that text, pushed or in bursts, streamed or not", () => {
    fc.assert(
      fc.property(fc.array(callArb, { minLength: 1, maxLength: 3 }), fc.option(fc.nat()), (calls, seed) => {
        const bodies = calls.map(callText);
        const ids = generation(bodies);
        for (const options of [{}, { streamToolCalls: true }] as DecoderOptions[]) {
          const acts = actions(decode(specOf("qwen3"), ids, options, seed ?? undefined));
          expect(acts.length).toBe(bodies.length);
          acts.forEach((a, i) => {
            const body = bodies[i] as string;
            const parsed = JSON.parse(body) as { name: string; arguments: unknown };
            expect(a.texts.join("")).toBe(body);
            expect(a.end).toEqual({
              type: "action_end",
              kind: "tool_call",
              raw: body,
              call: { name: parsed.name, arguments: parsed.arguments },
            });
          });
        }
      }),
      { seed: 3301, numRuns: 60 },
    );
  });

  it("a body cut inside a string keeps its whole text: the raw text is every chunk, the call an error", () => {
    fc.assert(
      fc.property(callArb, fc.nat(), fc.option(fc.nat()), (call, at, seed) => {
        const body = callText(call);
        const ids = generation([body]);
        // Cut after the open marker and before the close marker: the stream ends in the body.
        const open = ids.indexOf(Q.toolCall);
        const close = ids.indexOf(Q.toolCallEnd);
        const cut = open + 1 + (at % (close - open - 1));
        const [a] = actions(decode(specOf("qwen3"), ids.slice(0, cut), {}, seed ?? undefined));
        const text = a?.texts.join("") ?? "";
        // A cut inside a character's byte pieces ends the text with U+FFFD.
        expect(body.startsWith(text.replace(/\uFFFD+$/, ""))).toBe(true);
        expect(a?.end).toMatchObject({ type: "action_end", raw: text });
        expect(a?.end !== undefined && "error" in a.end).toBe(true);
      }),
      { seed: 3303, numRuns: 80 },
    );
  });

  it("past maxBufferedChars the raw text is the whole chunks within the cap, and the action ends with an error", () => {
    fc.assert(
      fc.property(callArb, fc.integer({ min: 1, max: 400 }), fc.option(fc.nat()), (call, max, seed) => {
        const body = callText(call);
        const ids = generation([body]);
        const events = decode(specOf("qwen3"), ids, { maxBufferedChars: max }, seed ?? undefined);
        const [a] = actions(events);
        expect(a?.texts.join("")).toBe(body);
        if (body.length <= max) {
          expect(a?.end).toMatchObject({ raw: body, call: { name: call.name } });
          expect(events.some((e) => e.type === "error")).toBe(false);
        } else {
          expect(a?.end).toEqual({
            type: "action_end",
            kind: "tool_call",
            raw: keptPrefix(a?.texts ?? [], max),
            error: "action text exceeded maxBufferedChars",
          });
          expect(events.filter((e) => e.type === "error").map((e) => e.type === "error" && e.code)).toEqual([
            "buffer-overflow",
          ]);
        }
      }),
      { seed: 3302, numRuns: 80 },
    );
  });
});
