// The "python-call-list" body syntax (LFM2's `<|tool_call_start|>[f(a=1), g(b="x")]<|tool_call_end|>`),
// driven the way the decoder drives a BodyParser with feedCall (decoder.ts callListText): every
// cut ends one action and opens the next. The reference is the generated calls themselves,
// written the way LFM2's templates write them (strings as `"` + text + `"`, True / False / None,
// dicts through tojson): any chunking, streamed or not, gives one action per call with those
// names and arguments; the streamed deltas concatenate to the arguments JSON; garbage never
// throws and is chunk-invariant.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonValue, parsePythonLiteral } from "../src/python-literal.ts";
import { PythonLiteralError } from "../src/python-literal-error.ts";
import type { BodyParser } from "../src/syntax/body.ts";
import {
  bodyParser,
  cutAt as chunked,
  listCutsArb as cutsArb,
  driveCalls as drive,
  expectCalls,
  expectGarbageCalls,
  expectListErrors,
  scalarArb,
} from "./body-support.ts";
import { agreedCalls, burstsArb, expectStreamedCalls, haveTemplate } from "./derived-format-support.ts";

const parser = (max?: number): BodyParser => bodyParser("python-call-list", max);

/** Python's str() of a value inside a list (strings escaped: JSON's escapes are Python's too). */
function pyRepr(v: JsonValue): string {
  if (v === true) return "True";
  if (v === false) return "False";
  if (v === null) return "None";
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return JSON.stringify(v);
}

/** A value as LFM2's templates write it: `"` + string + `"`, tojson for dicts, str() of the rest. */
function pyValue(v: JsonValue): string {
  if (typeof v === "string") return `"${v}"`;
  if (typeof v === "object" && v !== null && !Array.isArray(v)) return JSON.stringify(v);
  return pyRepr(v);
}

interface Call {
  readonly name: string;
  readonly arguments: Record<string, JsonValue>;
}
const pyCall = (c: Call): string =>
  `${c.name}(${Object.entries(c.arguments)
    .map(([k, v]) => `${k}=${pyValue(v)}`)
    .join(", ")})`;

// Strings the templates can write unescaped: no '"' and no '\' (a raw string cannot hold them).
const text = fc.string({ unit: fc.constantFrom(...[..."ab z\n\t'é😀{}[](),=#"]), maxLength: 8 });
const scalar = scalarArb(text);
const value: fc.Arbitrary<JsonValue> = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.string({ unit: fc.constantFrom(..."abk_ ".split("")), maxLength: 4 }), scalar, {
    maxKeys: 3,
  }),
);
const ident = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,6}$/);
const callArb: fc.Arbitrary<Call> = fc.record({
  name: fc.oneof(
    ident,
    fc.tuple(ident, ident).map(([a, b]) => `${a}.${b}`),
  ),
  arguments: fc.dictionary(ident, value, { maxKeys: 4 }),
});

describe("python-call-list: one action per call, any chunking, streamed or not", () => {
  it("lists as LFM2's templates write them (the generated calls are the reference)", () => {
    fc.assert(
      fc.property(
        fc.array(callArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("", " ", "\n"),
        cutsArb,
        fc.boolean(),
        (calls, lead, cuts, streamed) => {
          const body = `${lead}[${calls.map(pyCall).join(", ")}]${lead}`;
          expectCalls(
            parser,
            body,
            cuts,
            streamed,
            calls.map((call) => ({ call })),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("worked examples: the peers' LFM2 cases", () => {
    const cases: [string, Call[]][] = [
      ["[special_function(arg1=1)]", [{ name: "special_function", arguments: { arg1: 1 } }]],
      ["[toggle(enabled=True)]", [{ name: "toggle", arguments: { enabled: true } }]],
      ["[set_nullable(value=None)]", [{ name: "set_nullable", arguments: { value: null } }]],
      [
        '[set_config(config={"enabled": true, "note": null})]',
        [{ name: "set_config", arguments: { config: { enabled: true, note: null } } }],
      ],
      [
        '[Calendar.create_event(title="demo", participants=["Alice", "Bob"])]',
        [{ name: "Calendar.create_event", arguments: { title: "demo", participants: ["Alice", "Bob"] } }],
      ],
      // The backslash is text: the templates write strings unescaped.
      [
        "[python(code=\"def hello():\\n    print('hey')\")]",
        [{ name: "python", arguments: { code: "def hello():\\n    print('hey')" } }],
      ],
      ["[empty_args()]", [{ name: "empty_args", arguments: {} }]],
      ["get_time(city='Paris')", [{ name: "get_time", arguments: { city: "Paris" } }]],
      ['[f(s="""a"b""", t=\'\')]', [{ name: "f", arguments: { s: 'a"b', t: "" } }]],
    ];
    for (const streamed of [false, true])
      for (const [body, calls] of cases)
        expect(
          drive(parser(), [body], streamed).map((a) => a.result),
          body,
        ).toEqual(calls.map((call) => ({ call })));
  });

  it("two calls: the second action starts at its name; deltas stream per argument", () => {
    const body = "[special_function(arg1=1), special_function_with_opt(arg1=1, arg2=2)]";
    const actions = drive(parser(), [body], true);
    expect(actions.map((a) => a.raw)).toEqual([
      "[special_function(arg1=1), ",
      "special_function_with_opt(arg1=1, arg2=2)]",
    ]);
    expect(actions.map((a) => a.names)).toEqual([["special_function"], ["special_function_with_opt"]]);
    expect(actions.map((a) => a.args)).toEqual(['{"arg1": 1}', '{"arg1": 1, "arg2": 2}']);
  });

  it("a string value streams while it is read; other values when they end", () => {
    // A run of quotes in a triple-quoted string is held until it is known not to close it.
    const p = parser();
    const deltas: string[] = [];
    p.reset(
      { onToolCallName: (n) => deltas.push(`name:${n}`), onToolCallArguments: (t) => deltas.push(t) },
      undefined,
    );
    const chunks = ['[f(city="Par', 'is \\"x', '", code="""a""', 'b"', '"", n=1', "2)]"];
    for (const c of chunks) expect(p.feedCall?.(c)).toBe(c.length);
    expect(deltas).toEqual([
      "name:f",
      '{"city": "Par',
      'is \\\\\\"x',
      '", "code": "a',
      '\\"\\"b',
      '", "n": ',
      "12}",
    ]);
    expect(p.end(chunks.join(""))).toEqual({
      call: { name: "f", arguments: { city: 'Paris \\"x', code: 'a""b', n: 12 } },
    });
  });

  it("malformed lists are error results, never calls or throws", () => {
    const cases: [string, string][] = [
      ["", "no call in the list of calls"],
      ["[]", "the list of calls is empty"],
      ['{"name": "a"}', "the tool calls are not a Python list of calls"],
      ["[f(a=1)", 'the list of calls is not closed by "]"'],
      ["[f(a=1]", "unexpected ] in a call's arguments"],
      ["[f(a=1", 'the call is not closed by ")"'],
      ["[f(1)]", "positional arguments are not allowed"],
      ["[f(a=1, a=2)]", 'keyword argument "a" repeated'],
      ["[f(a=1)] x", "text after the list of calls"],
      ["[f(a=1) g()]", 'expected "," or "]" after a call in the list'],
      ["[f(a=x)]", 'name "x" is not a literal at offset 0'],
      ["[f(a=1+2)]", "unexpected text after the literal at offset 1"],
    ];
    expectListErrors(parser, cases);
  });

  it("a value longer than maxBufferedChars is an error result", () => {
    const body = `[f(a="${"x".repeat(200)}")]`;
    expect(drive(parser(100), [body], true).at(-1)?.result).toEqual({
      error: "the tool call body is longer than 100 characters",
    });
    const deep = `[f(a=${"[".repeat(300)}${"]".repeat(300)})]`;
    expect(drive(parser(), [deep], false).at(-1)?.result).toEqual({
      error: "the call is nested deeper than 200 levels",
    });
  });

  it("string values of any quoting stream deltas that concatenate to the arguments, under any chunking", () => {
    // Quotes, triple quotes, backslashes, prefixes and joined literals: whenever the value is read,
    // the text streamed while it arrived is its JSON.
    const piece = fc.constantFrom('"', "'", '"""', '"""a""', "\\", "a", " ", "\n", "r", "1", ",", ")");
    let calls = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), cutsArb, (pieces, cuts) => {
        const body = `[f(k=${pieces.join("")}, n=1)]`;
        const whole = drive(parser(), [body], true);
        expect(drive(parser(), chunked(body, cuts), true)).toEqual(whole);
        expect(drive(parser(), [...body], true)).toEqual(whole);
        for (const a of whole)
          if ("call" in a.result) {
            calls++;
            expect(JSON.parse(a.args)).toEqual(a.result.call.arguments);
          }
      }),
      { numRuns: 2000, seed: 37 },
    );
    expect(calls).toBeGreaterThan(50);
  });

  it("garbage never throws, is chunk-invariant and keeps every unit in some action", () => {
    expectGarbageCalls(parser, "[](){}\"',=\\ \n\tabf_.0123456789-TrueNone#", 60, 500);
  });

  it("a parser is reusable: reset() starts a new list", () => {
    const p = parser();
    drive(p, ['[f(a=1), g(b="'], true);
    expect(drive(p, ["[h(k=[1])]"], true).map((a) => a.result)).toEqual([
      { call: { name: "h", arguments: { k: [1] } } },
    ]);
  });
});

const LFM2 = "models/templates/LFM2.5-8B-A1B.jinja";

describe.skipIf(!haveTemplate(LFM2))(
  "python-call-list through the decoder (LFM2.5 template, stand-in vocabulary)",
  () => {
    it("content, reasoning (a marker inside it is text) and calls; bursts and the reference path agree", () => {
      fc.assert(
        fc.property(
          fc.array(callArb, { minLength: 1, maxLength: 3 }),
          fc.constantFrom("", "Let me check."),
          fc.constantFrom("", "plan <|tool_call_start|>[f()]<|tool_call_end|> more"),
          burstsArb,
          (calls, content, reasoning, bursts) => {
            const think = reasoning === "" ? "" : `<think>${reasoning}</think>`;
            const output = `${think}${content}<|tool_call_start|>[${calls.map(pyCall).join(", ")}]<|tool_call_end|>`;
            const names = calls.map((c) => c.name);
            const m = agreedCalls(LFM2, output, names, bursts);
            expect(m.content).toBe(content);
            expect(m.reasoning).toBe(reasoning);
            expectStreamedCalls(m, calls);
          },
        ),
        { numRuns: 60 },
      );
    });
  },
);

describe("python-literal dialect options (rawStrings, jsonNames)", () => {
  it("raw strings keep backslashes and may span lines; JSON names only when asked", () => {
    expect(parsePythonLiteral('"a\\nb"')).toBe("a\nb");
    expect(parsePythonLiteral('"a\\nb"', { rawStrings: true })).toBe("a\\nb");
    expect(parsePythonLiteral('"a\nb"', { rawStrings: true })).toBe("a\nb");
    expect(() => parsePythonLiteral('"a\nb"')).toThrow(PythonLiteralError);
    expect(parsePythonLiteral("[true, false, null]", { jsonNames: true })).toEqual([true, false, null]);
    expect(() => parsePythonLiteral("true")).toThrow(PythonLiteralError);
  });
});
