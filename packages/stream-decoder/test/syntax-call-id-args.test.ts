// Body syntax "call-id-args" (Kimi K2 `functions.NAME:IDX‹sep›{json}`): the expectations are the
// peers' (llama.cpp test-chat.cpp's Kimi K2 cases: name "special_function", id
// "functions.special_function:0"); any chunking, streamed or not, gives the same call, the
// name first and argument deltas that concatenate to the arguments; garbage never throws.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../src/python-literal.ts";
import { nameOfCallId } from "../src/syntax/call-id-args.ts";
import { type BodyRun, bodyParser, expectSameRuns, type Piece, SEP } from "./body-support.ts";

/** Whole vs chunked vs one unit at a time, streamed and not: the same result, name (first) and deltas. */
const check = (pieces: readonly Piece[], cuts: readonly number[]): BodyRun =>
  expectSameRuns(bodyParser("call-id-args"), pieces, cuts, { nameFirst: true });

describe("call-id-args", () => {
  it("reads the peers' Kimi K2 calls: the name from the id, the id unchanged", () => {
    const r = check(["functions.special_function:0", SEP, '{"arg1": 1}'], [0.3, 0.6]);
    expect(r.result).toEqual({
      call: { name: "special_function", arguments: { arg1: 1 }, id: "functions.special_function:0" },
    });
    const two = check(["functions.python:1", SEP, `{"code": "print('hey')"}`], [0.5]);
    expect(two.result).toEqual({
      call: { name: "python", arguments: { code: "print('hey')" }, id: "functions.python:1" },
    });
    expect(check(["functions.empty_args:0", SEP, "{}"], []).result).toEqual({
      call: { name: "empty_args", arguments: {}, id: "functions.empty_args:0" },
    });
  });

  it("the name is between the first '.' and the last ':' (dotted and coloned names)", () => {
    expect(nameOfCallId("functions.a.b:12")).toBe("a.b");
    expect(nameOfCallId("functions.ns:tool:3")).toBe("ns:tool");
    for (const bad of [
      "special_function:0",
      "functions.special_function",
      "functions.f:x",
      ".f:0",
      "functions.:0",
      "functions.f:",
    ])
      expect(nameOfCallId(bad)).toBeNull();
  });

  it("malformed bodies are error results", () => {
    const noSep = check(["functions.f:0"], []);
    expect("error" in noSep.result).toBe(true);
    const badId = check(["get_weather", SEP, "{}"], []);
    expect("error" in badId.result && badId.names.length === 0).toBe(true);
    expect("error" in check(["functions.f:0", SEP, "{}", SEP, "{}"], []).result).toBe(true);
    expect("error" in check(["functions.f:0", SEP, "[1]"], []).result).toBe(true);
  });

  it("is bounded by maxBufferedChars", () => {
    const p = bodyParser("call-id-args", 16);
    p.reset(null, undefined);
    p.feed("functions.a_very_long_tool_name:0");
    p.separator();
    expect(p.end("functions.a_very_long_tool_name:0")).toEqual({
      error: "the tool call body is longer than 16 characters",
    });
  });

  const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom<JsonValue>(null, true, false, 0, -1, 1.5),
      fc.string({ unit: "binary", maxLength: 10 }),
      fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie("v"), { maxKeys: 3 }),
    ),
  })).v;
  const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });

  it("any chunking of a well-formed call gives the same call; deltas concatenate to the arguments", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,10}$/),
        fc.nat(20),
        fc.dictionary(fc.string({ maxLength: 6 }), jsonValue, { maxKeys: 4 }),
        fc.boolean(),
        cuts,
        (name, index, args, pretty, cs) => {
          const id = `functions.${name}:${index}`;
          const text = pretty ? JSON.stringify(args, null, 2) : JSON.stringify(args);
          const r = check([id, SEP, text], cs);
          expect(r.result).toEqual({ call: { name, arguments: JSON.parse(text), id } });
          expect(r.args).toBe(text);
        },
      ),
      { seed: 3701, numRuns: 300 },
    );
  });

  it("garbage never throws and is chunk-invariant", () => {
    const garbage = fc.string({
      unit: fc.constantFrom(...'{}[]":,.\\ \n\tabfunctions0123:_'.split("")),
      maxLength: 40,
    });
    fc.assert(
      fc.property(garbage, garbage, cuts, (g, h, cs) => {
        check([g, SEP, h], cs);
        check([g], cs);
        check([g, SEP, h, SEP, g], cs);
      }),
      { seed: 3702, numRuns: 400 },
    );
  });
});
