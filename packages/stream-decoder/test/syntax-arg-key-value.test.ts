// Body syntax "arg-key-value" (GLM 4.5 / 4.6 / 4.7, src/syntax/arg-key-value.ts): the name, then
// the four reserved key/value tags as separators, read by position. Expectations are the peers'
// calls for GLM outputs (llama.cpp test-chat.cpp: `<tool_call>special_function<arg_key>arg1
// </arg_key><arg_value>1</arg_value></tool_call>` with an integer arg1 is {"arg1": 1}; a call
// with no pair is {}), the templates' own layouts (GLM 4.6 writes "\n" between the tags, 4.7
// nothing), and fast-check: random calls under random chunkings give the same call, the name
// first, deltas that concatenate to the arguments.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolSchemas } from "../src/syntax/body.ts";
import { type BodyRun, bodyParser, drivePieces, type Piece, SEP, unitPieces } from "./body-support.ts";

function run(pieces: readonly Piece[], tools?: ToolSchemas, max = 1_000_000): BodyRun {
  return drivePieces(bodyParser("arg-key-value", max), pieces, true, { tools });
}

/** A call as GLM writes it: name, then per pair ‹k›K‹/k›[gap]‹v›V‹/v›[gap]. */
function glm(name: string, pairs: ReadonlyArray<readonly [string, string]>, gap = ""): Piece[] {
  const out: Piece[] = [name, gap];
  for (const [k, v] of pairs) out.push(SEP, k, SEP, gap, SEP, v, SEP, gap);
  return out.filter((x) => x !== "");
}

/** Whole and one unit per chunk: the same run; the deltas are the arguments. */
function check(pieces: readonly Piece[], tools?: ToolSchemas): BodyRun {
  const whole = run(pieces, tools);
  expect(run(unitPieces(pieces), tools)).toEqual(whole);
  if ("call" in whole.result) {
    expect(whole.names).toEqual([whole.result.call.name]);
    expect(JSON.parse(whole.args)).toEqual(whole.result.call.arguments);
  }
  return whole;
}

const TOOLS: ToolSchemas = new Map([
  ["special_function", { type: "object", properties: { arg1: { type: "integer" } } }],
  ["edit", { type: "object", properties: { path: { type: "string" }, lines: { type: "array" } } }],
  ["read_file_diff_md", { type: "object", properties: {} }],
]);

describe("arg-key-value: the peers' GLM outputs", () => {
  it("GLM 4.7 layout: no whitespace between tags; the integer typed", () => {
    expect(check(glm("special_function", [["arg1", "1"]]), TOOLS).result).toEqual({
      call: { name: "special_function", arguments: { arg1: 1 } },
    });
  });
  it("GLM 4.6 layout: a newline after the name and between the tags", () => {
    expect(check(glm("special_function", [["arg1", "1"]], "\n"), TOOLS).result).toEqual({
      call: { name: "special_function", arguments: { arg1: 1 } },
    });
  });
  it("a call without pairs: the name at the end, then {}", () => {
    expect(check(["read_file_diff_md"], TOOLS)).toEqual({
      result: { call: { name: "read_file_diff_md", arguments: {} } },
      names: ["read_file_diff_md"],
      args: "{}",
    });
  });
  it("a string-typed parameter keeps JSON-looking text; others are JSON, then Python literals, then text", () => {
    const r = check(
      glm("edit", [
        ["path", "123"],
        ["lines", "[1, 2]"],
        ["flag", "True"],
        ["note", "plain words"],
      ]),
      TOOLS,
    );
    expect(r.result).toEqual({
      call: { name: "edit", arguments: { path: "123", lines: [1, 2], flag: true, note: "plain words" } },
    });
  });
});

describe("arg-key-value: malformed bodies are errors, never throws", () => {
  const cases: ReadonlyArray<readonly [Piece[], string]> = [
    [[], "empty function name"],
    [[" \n"], "empty function name"],
    [["a\nb"], "not a function name"],
    [["f", SEP, "k"], "unterminated call: a key has no value"],
    [["f", SEP, "k", SEP, SEP, "v"], 'unterminated call: the value of "k" is not closed'],
    [["f", SEP, "k", SEP, "oops", SEP, "v", SEP], "text between the key/value tags"],
    [["f", SEP, "k", SEP, "\u00a0", SEP, "v", SEP], "text between the key/value tags"],
    [["f", SEP, " ", SEP, SEP, "v", SEP], "empty parameter name"],
  ];
  for (const [pieces, error] of cases)
    it(JSON.stringify(pieces.map((x) => (x === SEP ? "‹sep›" : x))), () => {
      expect(check(pieces).result).toEqual({ error: expect.stringContaining(error) });
    });
  it("more than maxBufferedChars: an error", () => {
    expect(run(glm("f", [["k", "x".repeat(200)]]), undefined, 100).result).toEqual({
      error: "the call holds more than 100 characters",
    });
  });
});

describe("arg-key-value: vLLM's own GLM-4.7 parser cases (its tests), the tags as separators", () => {
  const cases: ReadonlyArray<readonly [Piece[], unknown]> = [
    [["get_current_date"], { name: "get_current_date", arguments: {} }],
    [["get_current_date\n"], { name: "get_current_date", arguments: {} }],
    [
      ["get_weather", SEP, "city", SEP, SEP, "Beijing", SEP],
      { name: "get_weather", arguments: { city: "Beijing" } },
    ],
    [
      ["get_weather\n", SEP, "city", SEP, "\n", SEP, "Beijing", SEP, "\n"],
      { name: "get_weather", arguments: { city: "Beijing" } },
    ],
  ];
  const tools: ToolSchemas = new Map([
    ["get_current_date", {}],
    ["get_weather", { type: "object", properties: { city: { type: "string" }, date: { type: "string" } } }],
  ]);
  for (const [pieces, call] of cases)
    it(JSON.stringify(pieces.map((x) => (x === SEP ? "‹sep›" : x))), () => {
      expect(check(pieces, tools).result).toEqual({ call });
    });
});

describe("arg-key-value: random calls under random chunkings", () => {
  const ident = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() === s && !/[\n\r<]/.test(s));
  const call = fc.record({
    name: ident,
    args: fc.dictionary(
      ident.filter((k) => k !== "__proto__"),
      fc.string({ maxLength: 10 }),
      { maxKeys: 3 },
    ),
  });
  it("the same call whole and chunked; strings of a string-typed schema come back as written", () => {
    fc.assert(
      fc.property(call, fc.array(fc.nat(), { maxLength: 6 }), fc.constantFrom("", "\n"), (c, cuts, gap) => {
        const props = Object.fromEntries(Object.keys(c.args).map((k) => [k, { type: "string" }]));
        const tools: ToolSchemas = new Map([[c.name, { type: "object", properties: props }]]);
        const pieces = glm(c.name, Object.entries(c.args), gap);
        const chunked = pieces.flatMap((x): Piece[] => {
          if (x === SEP || x.length < 2) return [x];
          const at = (cuts[0] ?? 0) % x.length;
          return at === 0 ? [x] : [x.slice(0, at), x.slice(at)];
        });
        const whole = run(pieces, tools);
        expect(run(chunked, tools)).toEqual(whole);
        expect(whole.result).toEqual({ call: { name: c.name, arguments: c.args } });
        expect(whole.names).toEqual([c.name]);
        expect(JSON.parse(whole.args)).toEqual(c.args);
      }),
      { seed: 37, numRuns: 300 },
    );
  });
  it("random pieces and separators never throw", () => {
    const piece = fc.oneof(
      fc.constant<Piece>(SEP),
      fc.constantFrom<Piece>("", " ", "\n", "a", "1", "[", '{"', "<"),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        expect(() => run(pieces)).not.toThrow();
      }),
      { seed: 37, numRuns: 300 },
    );
  });
});
