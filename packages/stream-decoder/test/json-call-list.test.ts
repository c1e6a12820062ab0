// The "json-call-list" body syntax (Mistral's `[TOOL_CALLS][{...}, ...]`), driven the way the
// decoder drives a BodyParser with feedCall (decoder.ts callListText): every cut ends one action
// and opens the next. References: JSON.parse of the whole list for the calls, the whole-body
// feed for chunkings. Any chunking, streamed or not, gives one action per element with the same
// results, names and argument deltas; the actions' texts concatenate to the body; garbage never
// throws and is chunk-invariant.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BodyParser } from "../src/syntax/body.ts";
import {
  bodyParser,
  listCutsArb as cutsArb,
  driveCalls as drive,
  expectCalls,
  expectGarbageCalls,
  expectListErrors,
} from "./body-support.ts";

const parser = (): BodyParser => bodyParser("json-call-list");

const argsArb = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const callArb = fc.record(
  { name: fc.string({ minLength: 1, maxLength: 8 }), arguments: argsArb, id: fc.string({ maxLength: 9 }) },
  { requiredKeys: ["name", "arguments"] },
);

describe("json-call-list: one action per element, any chunking, streamed or not", () => {
  it("well-formed lists (JSON.parse of the list is the reference)", () => {
    fc.assert(
      fc.property(
        fc.array(callArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(undefined, 1, "\t"),
        fc.constantFrom("", " ", "\n"),
        cutsArb,
        fc.boolean(),
        (calls, indent, lead, cuts, streamed) => {
          const text = `${lead}${JSON.stringify(calls, null, indent)}${lead}`;
          // The call id is the element's "id" string, when it has one.
          const expected = (JSON.parse(text) as { name: string; arguments: unknown; id?: string }[]).map(
            (c) => ({
              name: c.name,
              arguments: c.arguments,
              ...(c.id === undefined ? {} : { id: c.id }),
            }),
          );
          expectCalls(
            parser,
            text,
            cuts,
            streamed,
            expected.map((call) => ({ call })),
          );
        },
      ),
    );
  });

  it("a worked example: two calls, cut before the second element's brace", () => {
    const text = '[{"name": "a", "arguments": {"x": 1}, "id": "abc123def"}, {"name": "b", "arguments": {}}]';
    const actions = drive(parser(), [text], true);
    expect(actions.map((a) => a.raw)).toEqual([
      '[{"name": "a", "arguments": {"x": 1}, "id": "abc123def"}, ',
      '{"name": "b", "arguments": {}}]',
    ]);
    expect(actions.map((a) => a.result)).toEqual([
      { call: { name: "a", arguments: { x: 1 }, id: "abc123def" } },
      { call: { name: "b", arguments: {} } },
    ]);
    expect(actions.map((a) => a.args)).toEqual(['{"x": 1}', "{}"]);
  });

  it("malformed lists are error results, never calls or throws", () => {
    const cases: [string, string][] = [
      ["", "no call in the list of calls"],
      ["[]", "the list of calls is empty"],
      ['{"name": "a", "arguments": {}}', "the tool calls are not a JSON list"],
      ['[{"name": "a", "arguments": {}}', 'the list of calls is not closed by "]"'],
      ['[{"name": "a", "arguments": {}', "the call object is not closed"],
      ['[{"name": "a", "arguments": {}}] x', "text after the list of calls"],
      ['[{"name": "a", "arguments": {}},]', "expected a call object in the list of calls"],
      ['[{"name": "a", "arguments": {}} {"name": "b"}]', 'expected "," or "]" after a call in the list'],
    ];
    expectListErrors(parser, cases);
    // An element that is not a call is that action's error; the others are still calls.
    const mixed = drive(parser(), ['[{"name": 1}, {"name": "b", "arguments": {}}]'], false);
    expect("error" in (mixed[0]?.result ?? {})).toBe(true);
    expect(mixed[1]?.result).toEqual({ call: { name: "b", arguments: {} } });
  });

  it("garbage never throws, is chunk-invariant and keeps every unit in some action", () => {
    expectGarbageCalls(parser, '{}[]":,\\ \n\tabnu0123456789.-eE_name arguments id', 60, 500);
  });

  it("a parser is reusable: reset() starts a new list", () => {
    const p = parser();
    drive(p, ['[{"name": "a", "arguments": {}}, {"na'], true);
    expect(drive(p, ['[{"name": "b", "arguments": {"k": [1]}}]'], true).map((a) => a.result)).toEqual([
      { call: { name: "b", arguments: { k: [1] } } },
    ]);
  });
});
