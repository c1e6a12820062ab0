// Body syntax "call-id-args" (Kimi K2 `functions.NAME:IDX‹sep›{json}`): the expectations are the
// peers' (llama.cpp test-chat.cpp's Kimi K2 cases: name "special_function", id
// "functions.special_function:0"); any chunking, streamed or not, gives the same call, the
// name first and argument deltas that concatenate to the arguments; garbage never throws.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ActionResult } from "../src/action-parse.ts";
import type { JsonValue } from "../src/python-literal.ts";
import type { BodyParser } from "../src/syntax/body.ts";
import { nameOfCallId } from "../src/syntax/call-id-args.ts";
import { BODY_SYNTAXES } from "../src/syntax/index.ts";

const SEP: unique symbol = Symbol("sep");
type Piece = string | typeof SEP;

interface Run {
  readonly result: ActionResult;
  readonly names: string[];
  readonly args: string;
}

function parser(): BodyParser {
  const make = BODY_SYNTAXES["call-id-args"];
  if (make === undefined) throw new Error("call-id-args is not registered");
  return make({ maxBufferedChars: 1_000_000, argumentsKey: "arguments" });
}

function run(p: BodyParser, pieces: readonly Piece[], streamed: boolean): Run {
  const names: string[] = [];
  let args = "";
  p.reset(
    streamed
      ? {
          onToolCallName: (n) => names.push(n),
          onToolCallArguments: (t) => {
            expect(names.length).toBe(1); // the name comes first
            args += t;
          },
        }
      : null,
    undefined,
  );
  let raw = "";
  for (const piece of pieces) {
    if (piece === SEP) p.separator();
    else {
      p.feed(piece);
      raw += piece;
    }
  }
  return { result: p.end(raw), names, args };
}

function chunked(pieces: readonly Piece[], cuts: readonly number[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if (piece === SEP) {
      out.push(piece);
      continue;
    }
    const at = [...new Set(cuts.map((f) => Math.floor(f * piece.length)))].sort((a, b) => a - b);
    let from = 0;
    for (const c of at)
      if (c > from && c < piece.length) {
        out.push(piece.slice(from, c));
        from = c;
      }
    out.push(piece.slice(from));
  }
  return out;
}

/** Whole vs chunked vs one unit at a time, streamed and not: the same result, name and deltas. */
function check(pieces: readonly Piece[], cuts: readonly number[]): Run {
  const p = parser();
  const whole = run(p, pieces, true);
  expect(run(p, pieces, false).result).toEqual(whole.result);
  const units = pieces.flatMap((x): Piece[] => (x === SEP ? [x] : [...x]));
  for (const c of [chunked(pieces, cuts), units]) {
    const r = run(p, c, true);
    expect(r.result).toEqual(whole.result);
    expect(r.names).toEqual(whole.names);
    expect(r.args).toBe(whole.args);
    expect(run(p, c, false).result).toEqual(whole.result);
  }
  if ("call" in whole.result) {
    expect(JSON.parse(whole.args)).toEqual(whole.result.call.arguments);
    expect(whole.names).toEqual([whole.result.call.name]);
  }
  return whole;
}

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
    const make = BODY_SYNTAXES["call-id-args"];
    if (make === undefined) throw new Error("not registered");
    const p = make({ maxBufferedChars: 16, argumentsKey: "arguments" });
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
