// The "tag-name-json" body syntax (Functionary v3.1's `<function=NAME>{json}</function>`, the
// body between its text markers): `NAME>ARGS`. The reference is the generated call (JSON.parse
// of JSON.stringify of its arguments): any chunking, streamed or not, gives that call, the name
// is reported at ">", the deltas concatenate to the arguments; garbage never throws and is
// chunk-invariant.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BodyParser } from "../src/syntax/body.ts";
import {
  bodyParser,
  cutsArb,
  drivePieces,
  expectChunkInvariant,
  expectJsonCallRoundTrip,
} from "./body-support.ts";
import {
  decodeIds,
  expectRenderedJsonCalls,
  haveTemplate,
  loadEntry,
  message,
} from "./derived-format-support.ts";

const parser = (max?: number): BodyParser => bodyParser("tag-name-json", max);
const drive = drivePieces;
const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_.-]{0,8}$/);

describe("tag-name-json: NAME>{json}, any chunking", () => {
  it("round trip (the generated call is the reference)", () => {
    expectJsonCallRoundTrip(parser, name, fc.constant(""), (n, json) => `${n}>${json}`);
  });

  it("the peer's case and malformed bodies", () => {
    for (const streamed of [false, true]) {
      expect(drive(parser(), ['special_function>{"arg1": 1}'], streamed).result).toEqual({
        call: { name: "special_function", arguments: { arg1: 1 } },
      });
      expect(drive(parser(), ["f{}"], streamed).result).toEqual({
        error: 'the tool call has no ">" after its name',
      });
      expect(drive(parser(), [">{}"], streamed).result).toEqual({
        error: "the tool call has an empty or multi-line name",
      });
      expect(drive(parser(), ["f>[1]"], streamed).result).toEqual({
        error: "the tool call's arguments are not a JSON object",
      });
      expect("error" in drive(parser(), ["f>{"], streamed).result).toBe(true);
    }
    expect(drive(parser(10), ['f>{"k": "long value"}'], true).result).toEqual({
      error: "the tool call body is longer than 10 characters",
    });
  });

  it("garbage never throws and is chunk-invariant", () => {
    const unit = fc.constantFrom(...'{}[]":,>\\ \nab01'.split(""));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), cutsArb, fc.boolean(), (units, cuts, streamed) => {
        expectChunkInvariant(parser, [units.join("")], cuts, streamed);
      }),
      { numRuns: 400 },
    );
  });
});

const V31 = "models/templates/meetkai-functionary-medium-v3.1.jinja";

describe.skipIf(!haveTemplate(V31))(
  "tag-name-json through the decoder (Functionary v3.1 template, text markers)",
  () => {
    it("content and calls written as text; bursts and the reference path agree", () => {
      expectRenderedJsonCalls(
        V31,
        name,
        ["", "Let me check. 1 > 0."],
        (content, calls) =>
          `${content}${calls.map(([n, a]) => `<function=${n}>${JSON.stringify(a)}</function>`).join("")}<|eom_id|>`,
      );
    });

    it("a python call after <|python_tag|> is code", () => {
      const ids = loadEntry(V31).encode("<|python_tag|>print(1 > 0)<|eom_id|>");
      expect(message(decodeIds(V31, ids, "one")).calls).toEqual([
        { name: "python", arguments: { code: "print(1 > 0)" } },
      ]);
    });
  },
);
