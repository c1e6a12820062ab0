// The JSON call-list variants a template can derive (template/output/recognizers/json-calls.ts),
// driven as the decoder drives a BodyParser with feedCall (a short read ends one action and
// opens the next):
//   - "json-call-list" with the format's own key spellings (BodyParserOptions nameKey / idKey:
//     Command R7B's `{"tool_call_id": "0", "tool_name": N, "parameters": {...}}`);
//   - "json-named-call-list" (Apertus' `[{"NAME": {...}}]`);
//   - arguments written as a JSON string holding the object, decoded once (as vLLM does), in
//     json-call-list and json-call.
// References: JSON.parse of the whole list; any chunking, streamed or not, gives the same
// actions, and the streamed argument deltas concatenate to the arguments' JSON.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ActionResult } from "../src/action-parse.ts";
import type { BodyParser, BodyParserOptions } from "../src/syntax/body.ts";
import { BODY_SYNTAXES } from "../src/syntax/index.ts";
import type { JsonObject } from "../src/tool-call-scanner.ts";
import {
  listCutsArb as cutsArb,
  driveCalls as drive,
  expectCalls,
  expectGarbageCalls,
} from "./body-support.ts";

type Syntax = "json-call-list" | "json-named-call-list" | "json-call";

function parser(syntax: Syntax, options: Partial<BodyParserOptions> = {}): BodyParser {
  const make = BODY_SYNTAXES[syntax];
  if (make === undefined) throw new Error(`no ${syntax} parser`);
  return make({ maxBufferedChars: 1_000_000, argumentsKey: "arguments", ...options });
}

const argsArb = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const nameArb = fc.string({ minLength: 1, maxLength: 8 });

/** Same actions under any chunking; the results and streamed deltas are the expected calls. */
function checkList(
  syntax: Syntax,
  options: Partial<BodyParserOptions>,
  text: string,
  expected: readonly ActionResult[],
  cuts: readonly number[],
  streamed: boolean,
): void {
  expectCalls(() => parser(syntax, options), text, cuts, streamed, expected);
}

describe("json-call-list with the format's key spellings (Command R7B)", () => {
  const cohere = { argumentsKey: "parameters", nameKey: "tool_name", idKey: "tool_call_id" } as const;

  it("a worked example: the peer's R7B output", () => {
    const text =
      '[\n    {"tool_call_id": "0", "tool_name": "special_function", "parameters": {"arg1": 1}}\n]';
    const [a] = drive(parser("json-call-list", cohere), [text], true);
    expect(a?.result).toEqual({ call: { name: "special_function", arguments: { arg1: 1 }, id: "0" } });
    expect(a?.names).toEqual(["special_function"]);
    expect(a?.args).toBe('{"arg1": 1}');
  });

  it("any list, any chunking, streamed or not", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.string({ maxLength: 4 }), name: nameArb, args: argsArb }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.constantFrom(undefined, 4),
        cutsArb,
        fc.boolean(),
        (calls, indent, cuts, streamed) => {
          const list = calls.map((c) => ({ tool_call_id: c.id, tool_name: c.name, parameters: c.args }));
          const text = JSON.stringify(list, null, indent);
          const parsed = JSON.parse(text) as {
            tool_call_id: string;
            tool_name: string;
            parameters: JsonObject;
          }[];
          const expected = parsed.map((c) => ({
            call: { name: c.tool_name, arguments: c.parameters, id: c.tool_call_id },
          }));
          checkList("json-call-list", cohere, text, expected, cuts, streamed);
        },
      ),
    );
  });

  it('"name" is not the name key here: such an element is an error naming the key', () => {
    const [a] = drive(parser("json-call-list", cohere), ['[{"name": "f", "parameters": {}}]'], false);
    expect(a?.result).toEqual({ error: 'the call has no string "tool_name"' });
    const [b] = drive(
      parser("json-call-list", cohere),
      ['[{"tool_name": "f", "tool_name": "g", "parameters": {}}]'],
      true,
    );
    expect(b?.result).toEqual({ error: 'the call has more than one "tool_name" key' });
  });
});

describe("json-named-call-list (Apertus `[{NAME: ARGS}]`)", () => {
  it("a worked example: two calls, one action each", () => {
    const text = '[{"special_function": {"arg1": 1}}, {"other": {}}]';
    const actions = drive(parser("json-named-call-list"), [text], true);
    expect(actions.map((a) => a.raw)).toEqual(['[{"special_function": {"arg1": 1}}, ', '{"other": {}}]']);
    expect(actions.map((a) => a.result)).toEqual([
      { call: { name: "special_function", arguments: { arg1: 1 } } },
      { call: { name: "other", arguments: {} } },
    ]);
    expect(actions.map((a) => a.names)).toEqual([["special_function"], ["other"]]);
    expect(actions.map((a) => a.args)).toEqual(['{"arg1": 1}', "{}"]);
  });

  it("any list, any chunking, streamed or not", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(nameArb, argsArb), { minLength: 1, maxLength: 4 }),
        cutsArb,
        fc.boolean(),
        (calls, cuts, streamed) => {
          const text = JSON.stringify(calls.map(([n, a]) => ({ [n]: a })));
          const parsed = JSON.parse(text) as Record<string, Record<string, unknown>>[];
          const expected = parsed.map((o) => {
            const [name, args] = Object.entries(o)[0] as [string, ActionResult];
            return { call: { name, arguments: args } } as ActionResult;
          });
          checkList("json-named-call-list", {}, text, expected, cuts, streamed);
        },
      ),
    );
  });

  it("an element with no key, two keys or non-object arguments is an error, never a throw", () => {
    for (const streamed of [false, true]) {
      const bad = (text: string) => drive(parser("json-named-call-list"), [text], streamed)[0]?.result;
      expect(bad("[{}]")).toEqual({ error: "a named call has exactly one key, the tool name" });
      expect(bad('[{"a": {}, "b": {}}]')).toEqual({
        error: "a named call has exactly one key, the tool name",
      });
      expect(bad('[{"a": 1}]')).toEqual({ error: 'the arguments of "a" are not a JSON object' });
      expect(bad("[1]")).toEqual({ error: "expected a call object in the list of calls" });
    }
  });

  it("garbage never throws and is chunk-invariant", () => {
    expectGarbageCalls(() => parser("json-named-call-list"), '{}[]":,\\ \n\tabnu01.-e_', 50, 300);
  });
});

describe("JSON-string arguments are decoded once (as vLLM does)", () => {
  const stringArgs = fc.tuple(nameArb, argsArb);

  it("json-call-list and json-call: the call holds the object; streamed, one delta with its JSON", () => {
    fc.assert(
      fc.property(stringArgs, cutsArb, fc.boolean(), ([name, args], cuts, streamed) => {
        const expected = [{ call: { name, arguments: JSON.parse(JSON.stringify(args)) as JsonObject } }];
        const element = { name, arguments: JSON.stringify(args) };
        checkList("json-call-list", {}, JSON.stringify([element]), expected, cuts, streamed);
        checkList("json-call", {}, JSON.stringify(element), expected, cuts, streamed);
      }),
    );
  });

  it("a worked example, and strings that do not hold an object stay errors", () => {
    const [a] = drive(parser("json-call"), [String.raw`{"name": "f", "arguments": "{\"a\":1}"}`], true);
    expect(a?.result).toEqual({ call: { name: "f", arguments: { a: 1 } } });
    expect(a?.args).toBe('{"a":1}');
    for (const s of ['"[1]"', '"x"', String.raw`"\"{}\""`]) {
      const [b] = drive(parser("json-call"), [`{"name": "f", "arguments": ${s}}`], true);
      expect(b?.result).toEqual({ error: `the call's "arguments" is not a JSON object` });
      expect(b?.args).toBe("");
    }
  });
});

describe("a call naming a tool the request does not give is an action error naming it", () => {
  const tools = new Map<string, unknown>([["known", { type: "object" }]]);
  const cases: [Syntax, Partial<BodyParserOptions>, string, string][] = [
    ["json-call", {}, '{"name": "nope", "arguments": {}}', '{"name": "known", "arguments": {}}'],
    ["json-call-list", {}, '[{"name": "nope", "arguments": {}}]', '[{"name": "known", "arguments": {}}]'],
    ["json-named-call-list", {}, '[{"nope": {}}]', '[{"known": {}}]'],
  ];
  it("in every JSON body syntax, streamed or not; a known name is a call", () => {
    for (const [syntax, options, unknown, known] of cases)
      for (const streamed of [false, true]) {
        expect(drive(parser(syntax, options), [unknown], streamed, tools)[0]?.result).toEqual({
          error: 'the call names a tool the request does not give: "nope"',
        });
        expect(drive(parser(syntax, options), [known], streamed, tools)[0]?.result).toEqual({
          call: { name: "known", arguments: {} },
        });
        // Without tools, any name is a call.
        expect("call" in (drive(parser(syntax, options), [unknown], streamed)[0]?.result ?? {})).toBe(true);
      }
  });
});
