// Qwen3-Coder encode -> decode: random tool calls with typed arguments (string, integer, number,
// boolean, array, object properties) encoded by encodeChat as the template renders them
// (non-strings as Python str() or tojson) and decoded from that assistant message with the
// request's tools: the decoder gives back exactly the arguments sent (vLLM's typing rules undo
// the template's renderings), the streamed deltas parse to them, and without tools every value
// is the text the template wrote. Values the format cannot carry are excluded by construction
// (docs/families/qwen3-coder.md): a string holding "</parameter>" or reading "null", integers
// past 2^53 inside arrays, -0, text that NFC normalization (the tokenizer's) would change.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../../tokenizer/src/index.ts";
import { coderTokenizer } from "../../tokenizer/test/qwen3-coder-support.ts";
import { compileDecoderSpecFor, type DecoderEvent, type DecoderSpec } from "../src/index.ts";
import { assistantCalls } from "./chat-messages.ts";
import { run } from "./models.ts";
import { objectOf } from "./schema-support.ts";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const piece = fc.constantFrom(
  "x",
  "Paris",
  " ",
  "\n",
  "\t",
  "你好",
  "😀",
  "é",
  "'",
  '"',
  "\\",
  "\u0000",
  "\u007f",
  "\u00a0",
  "\u200b",
  "<tool_call>",
  "<parameter=",
  "</function>",
  "{",
  "[1]",
  "True",
);
const str = fc
  .array(piece, { maxLength: 6 })
  .map((p) => p.join(""))
  .filter((s) => !s.includes("</parameter>") && s.toLowerCase() !== "null");
const safeInt = fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 });
const double = fc
  .oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 }),
    fc.constantFrom(0.1, 1.5, 1e21, 1e-7, 2.5e-300),
  )
  .map((x) => (x === 0 ? 0 : x));
const json: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1000, max: 1000 }),
    fc.constantFrom(0.5, -2.25, 1e-7),
    str,
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("k", "a b", "名"), tie("v"), { maxKeys: 3 }),
  ),
})).v;

const TOOL = {
  type: "function",
  function: {
    name: "act",
    parameters: objectOf({ s: "string", i: "integer", n: "number", b: "boolean", a: "array", o: "object" }),
  },
};

const args = fc.record(
  {
    s: str,
    i: safeInt,
    n: double,
    b: fc.boolean(),
    a: fc.array(json, { maxLength: 4 }),
    o: fc.dictionary(fc.constantFrom("k", "a b", "名", "__proto__"), json, { maxKeys: 3 }),
  },
  { requiredKeys: [] },
);

interface Call {
  readonly name: string;
  readonly args: unknown;
  readonly streamed: unknown;
}

/** The compiled spec, made once: a spec is immutable, and compiling it per call fills its per-ID tables again. */
let spec: DecoderSpec | undefined;

function decodeCalls(ids: readonly number[], tools: readonly unknown[] | undefined): Call[] {
  spec ??= compileDecoderSpecFor(coderTokenizer());
  const events = run(spec, ids, { streamToolCalls: true, ...(tools === undefined ? {} : { tools }) });
  const errors = events.filter((e: DecoderEvent) => e.type === "error");
  expect(errors, JSON.stringify(events.slice(0, 8))).toEqual([]);
  const calls: Call[] = [];
  let streamed = "";
  for (const e of events) {
    if (e.type === "tool_call_arguments") streamed += e.text;
    if (e.type === "action_end") {
      if (e.call === undefined) throw new Error(`action_end error: ${e.error}`);
      calls.push({ name: e.call.name, args: e.call.arguments, streamed: JSON.parse(streamed) });
      streamed = "";
    }
  }
  return calls;
}

describe("qwen3-coder: typed tool calls survive encode -> decode", () => {
  it("random arguments: the decoder with tools gives back what was sent", () => {
    const tok = coderTokenizer();
    const imStart = tok.tokenIds.imStart as number;
    const imEnd = tok.tokenIds.imEnd as number;
    fc.assert(
      fc.property(
        fc.array(args, { minLength: 1, maxLength: 2 }),
        fc.option(str, { nil: undefined }),
        (calls, content) => {
          const request = {
            tools: [TOOL],
            messages: [
              { role: "user", content: "go" },
              assistantCalls(
                calls.map((a) => ({ name: "act", arguments: a })),
                content ?? null,
              ),
            ],
            add_generation_prompt: false,
          };
          const { ids } = tok.encodeChat(request as ChatRequest);
          // The assistant message as the model generates it after the prompt's
          // "<|im_start|>assistant\n": from the token after that header through <|im_end|>.
          const from = ids.lastIndexOf(imStart);
          let at = from + 1;
          while (at < ids.length && tok.decode(ids.slice(from + 1, at)) !== "assistant\n") at++;
          const turn = ids.slice(at, ids.lastIndexOf(imEnd) + 1);
          const typed = decodeCalls(turn, [TOOL]);
          expect(typed.map((c) => c.name)).toEqual(calls.map(() => "act"));
          typed.forEach((c, k) => {
            expect(c.args).toEqual(JSON.parse(JSON.stringify(calls[k])));
            expect(c.streamed).toEqual(c.args);
          });
          for (const c of decodeCalls(turn, undefined))
            for (const v of Object.values(c.args as Record<string, unknown>)) expect(typeof v).toBe("string");
        },
      ),
      { numRuns: 200, seed: 20261201 },
    );
  });
});
