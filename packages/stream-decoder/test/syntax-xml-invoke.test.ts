// The XML-parameter bodies of every spelling (src/syntax/xml-call.ts with XML_SPELLINGS):
// Seed-OSS's `<function=N>` layout, MiniMax-M2's `<invoke name="N">` lists and DeepSeek V3.2's
// DSML invoke lists, driven as the decoder drives them (feedCall cuts a list into one action per
// call). Expectations are the calls the templates were given (their renderings are written here
// by hand, in the template's own layout) and the peers' expected calls for the same outputs
// (llama.cpp test-chat.cpp); fast-check adds random calls under random chunkings: the same calls,
// the name first, deltas that concatenate to each call's arguments.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolSchemas } from "../src/syntax/body.ts";
import { pyStrip } from "../src/syntax/python-number.ts";
import { bodyParser, type CallAction, driveCalls } from "./body-support.ts";
import { splitAt } from "./split-at.ts";

type Syntax = "xml-call" | "xml-invoke-list" | "dsml-invoke-list";

type Call = Omit<CallAction, "raw">;

/** The decoder's use of a body parser: feedCall cuts (one action per call), end() per action. */
function drive(syntax: Syntax, chunks: readonly string[], tools?: ToolSchemas, max?: number): Call[] {
  return driveCalls(bodyParser(syntax, max), chunks, true, tools).map(({ raw: _, ...call }) => call);
}

/** Whole, one unit at a time and every two-way split give the same calls. */
function check(syntax: Syntax, text: string, tools?: ToolSchemas): Call[] {
  const whole = drive(syntax, [text], tools);
  const chunkings: string[][] = [[...text]];
  for (let k = 1; k < text.length; k++) chunkings.push([text.slice(0, k), text.slice(k)]);
  for (const chunks of chunkings) expect(drive(syntax, chunks, tools), JSON.stringify(chunks)).toEqual(whole);
  for (const c of whole)
    if ("call" in c.result) {
      expect(c.names).toEqual([c.result.call.name]);
      expect(JSON.parse(c.args)).toEqual(c.result.call.arguments);
    }
  return whole;
}

const calls = (r: readonly Call[]): unknown[] =>
  r.map((c) => ("call" in c.result ? c.result.call : c.result));

const INT_ARG: ToolSchemas = new Map([
  ["special_function", { type: "object", properties: { arg1: { type: "integer" } } }],
  ["empty_args", { type: "object", properties: {} }],
]);

describe("Seed-OSS (xml-call): the peer's outputs", () => {
  it("a value without newlines, typed by the schema", () => {
    const r = check(
      "xml-call",
      "\n<function=special_function>\n<parameter=arg1>1</parameter>\n</function>\n",
      INT_ARG,
    );
    expect(calls(r)).toEqual([{ name: "special_function", arguments: { arg1: 1 } }]);
  });
  it("one leading and one trailing newline of a value are layout", () => {
    const r = check(
      "xml-call",
      '<function=edit>\n<parameter=filename>\nfoo.cpp\n</parameter>\n<parameter=old>def foo(arg = "14"):\n    return arg\n\n</parameter>\n</function>',
    );
    expect(calls(r)).toEqual([
      { name: "edit", arguments: { filename: "foo.cpp", old: 'def foo(arg = "14"):\n    return arg\n' } },
    ]);
  });
  it("reads one call per body: a second is an error", () => {
    const r = check("xml-call", "<function=f></function>\n<function=g></function>");
    expect(calls(r)).toEqual([{ error: 'text after </function>: "<"' }]);
  });
});

describe("MiniMax-M2 (xml-invoke-list): several calls in one block, one action each", () => {
  it("an empty invoke: the name, then {}", () => {
    const r = check("xml-invoke-list", '\n<invoke name="empty_args">\n</invoke>\n', INT_ARG);
    expect(r).toEqual([
      { result: { call: { name: "empty_args", arguments: {} } }, names: ["empty_args"], args: "{}" },
    ]);
  });
  it("the template's layout of two calls (values as the template writes them)", () => {
    const text =
      '\n<invoke name="special_function">\n<parameter name="arg1">1</parameter>\n</invoke>\n' +
      '<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n<parameter name="days">[1, 2]</parameter>\n</invoke>\n';
    const tools: ToolSchemas = new Map([
      ...INT_ARG,
      ["get_weather", { type: "object", properties: { city: { type: "string" }, days: { type: "array" } } }],
    ]);
    expect(calls(check("xml-invoke-list", text, tools))).toEqual([
      { name: "special_function", arguments: { arg1: 1 } },
      { name: "get_weather", arguments: { city: "Paris", days: [1, 2] } },
    ]);
    // Without the request's tools every value is the text the model wrote.
    expect(calls(check("xml-invoke-list", text))).toEqual([
      { name: "special_function", arguments: { arg1: "1" } },
      { name: "get_weather", arguments: { city: "Paris", days: "[1, 2]" } },
    ]);
  });
  it("typing by every type the schema allows (vLLM's own tests of this format's parser)", () => {
    const nullable = (t: string): ToolSchemas =>
      new Map([["f", { type: "object", properties: { p: { anyOf: [{ type: t }, { type: "null" }] } } }]]);
    const arg = (v: string, tools?: ToolSchemas): unknown =>
      (
        calls(
          check("xml-invoke-list", `<invoke name="f"><parameter name="p">${v}</parameter></invoke>`, tools),
        )[0] as {
          arguments: { p: unknown };
        }
      ).arguments.p;
    expect(arg("Alice", nullable("string"))).toBe("Alice");
    expect(arg("null", nullable("string"))).toBe(null);
    expect(arg('{"theme": "dark", "fontSize": 14}', nullable("object"))).toEqual({
      theme: "dark",
      fontSize: 14,
    });
    // Without the request's tools: the text, stripped.
    expect(arg(" 5 ")).toBe("5");
    // The order integer, number, boolean, object / array, string; else JSON, else the text.
    const types = (t: unknown): ToolSchemas => new Map([["f", { type: "object", properties: { p: t } }]]);
    expect(arg("7", types({ type: ["string", "integer"] }))).toBe(7);
    expect(arg("7.5", types({ type: ["integer", "number"] }))).toBe(7.5);
    expect(arg("yes", types({ type: "boolean" }))).toBe(true);
    expect(arg("maybe", types({ type: "boolean" }))).toBe("maybe");
    expect(arg("[1]", types({ enum: [1, [2]] }))).toEqual([1]);
    expect(arg("[1]", types({ enum: [1, "a"] }))).toBe("[1]");
    expect(arg("x", types({ oneOf: [{ type: "integer" }, { allOf: [{ type: "string" }] }] }))).toBe("x");
  });
  it("malformed: an error result, never a throw", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["", 'unterminated call: no <invoke name="NAME">'],
      ['<invoke name="f"></invoke>text', 'text after </invoke>: "t"'],
      ['<invoke name="f" x="1"></invoke>', "unexpected attributes"],
      ['<invoke name="f"><parameter name="a" string="true">x</parameter></invoke>', "unexpected attributes"],
      ['<invoke name="f\n"></invoke>', "a name holds a line break"],
      ['<invoke name="f"><parameter name="a">x</invoke>', 'parameter "a" has no </parameter>'],
      ["<invoke name=f></invoke>", "unexpected tag"],
    ];
    for (const [text, error] of cases) {
      const r = check("xml-invoke-list", text);
      expect(r.at(-1)?.result, text).toEqual({ error: expect.stringContaining(error) });
    }
  });
});

const DSML_TOOLS: ToolSchemas = new Map([
  ["magic_int", { type: "object", properties: { ref: { type: "integer" }, name: { type: "string" } } }],
  ["get_time", { type: "object", properties: { city: { type: "string" } } }],
]);

describe('DeepSeek V3.2 DSML (dsml-invoke-list): string="true" is text, "false" is JSON', () => {
  const P = "｜DSML｜";
  it("the peer's multi-argument and two-call outputs", () => {
    const one =
      `\n<${P}invoke name="magic_int">\n<${P}parameter name="ref" string="false">42</${P}parameter>\n` +
      `<${P}parameter name="name" string="true">foo bar</${P}parameter>\n</${P}invoke>\n`;
    expect(calls(check("dsml-invoke-list", one, DSML_TOOLS))).toEqual([
      { name: "magic_int", arguments: { ref: 42, name: "foo bar" } },
    ]);
    const two =
      `\n<${P}invoke name="get_time">\n<${P}parameter name="city" string="true">Paris</${P}parameter>\n</${P}invoke>\n` +
      `<${P}invoke name="get_weather">\n<${P}parameter name="city" string="true">Paris</${P}parameter>\n</${P}invoke>\n`;
    expect(calls(check("dsml-invoke-list", two))).toEqual([
      { name: "get_time", arguments: { city: "Paris" } },
      { name: "get_weather", arguments: { city: "Paris" } },
    ]);
  });
  it('string="false" values are JSON whatever the tools say; "true" keeps JSON-looking text', () => {
    const body = (k: string, s: string, v: string): string =>
      `<${P}invoke name="f"><${P}parameter name="${k}" string="${s}">${v}</${P}parameter></${P}invoke>`;
    const arg = (text: string): unknown =>
      (calls(check("dsml-invoke-list", text))[0] as { arguments: unknown }).arguments;
    expect(arg(body("a", "false", '{"theme":"dark","level":2}'))).toEqual({ a: { theme: "dark", level: 2 } });
    expect(arg(body("a", "false", "-14"))).toEqual({ a: -14 });
    expect(arg(body("a", "false", "3.14"))).toEqual({ a: 3.14 });
    expect(arg(body("a", "false", "true"))).toEqual({ a: true });
    expect(arg(body("a", "true", "[1, 2]"))).toEqual({ a: "[1, 2]" });
    expect(arg(body("a", "true", "</parameter>"))).toEqual({ a: "</parameter>" });
  });
  it("with the request's tools the schema's types win over the attribute (vLLM's own tests of this format)", () => {
    const tool = (props: object): ToolSchemas => new Map([["f", { type: "object", properties: props }]]);
    const args = (params: string, tools: ToolSchemas): unknown =>
      (
        calls(check("dsml-invoke-list", `<${P}invoke name="f">\n${params}</${P}invoke>`, tools))[0] as {
          arguments: unknown;
        }
      ).arguments;
    const param = (k: string, s: string, v: string): string =>
      `<${P}parameter name="${k}" string="${s}">${v}</${P}parameter>\n`;
    expect(
      args(
        param("enabled", "false", "true") + param("count", "false", "42"),
        tool({ enabled: { type: "boolean" }, count: { type: "integer" } }),
      ),
    ).toEqual({ enabled: true, count: 42 });
    expect(args(param("value", "true", "42"), tool({ value: { type: "integer" } }))).toEqual({ value: 42 });
    expect(
      args(
        param("wait", "true", '{"type":"for","minutes":2880}'),
        tool({ wait: { anyOf: [{ type: "object" }, { type: "null" }] } }),
      ),
    ).toEqual({ wait: { type: "for", minutes: 2880 } });
    expect(
      args(
        param("tags", "false", '["a", "b"]') +
          param("meta", "false", '{"k": 1}') +
          param("ratio", "false", "3.14"),
        tool({ tags: { type: "array" }, meta: { type: "object" }, ratio: { type: "number" } }),
      ),
    ).toEqual({ tags: ["a", "b"], meta: { k: 1 }, ratio: 3.14 });
    // A string-typed property keeps the text, whatever the attribute says.
    expect(args(param("s", "false", "42"), tool({ s: { type: "string" } }))).toEqual({ s: "42" });
  });
  it("an unknown attribute value is an error", () => {
    const r = check(
      "dsml-invoke-list",
      `<${P}invoke name="f"><${P}parameter name="a" string="maybe">x</${P}parameter></${P}invoke>`,
    );
    expect(r[0]?.result).toEqual({ error: expect.stringContaining("unexpected attributes") });
  });
  it("more than maxBufferedChars: an error, nothing more streamed", () => {
    const r = drive(
      "dsml-invoke-list",
      [
        `<${P}invoke name="f"><${P}parameter name="a" string="true">${"x".repeat(200)}</${P}parameter></${P}invoke>`,
      ],
      undefined,
      100,
    );
    expect(r).toEqual([
      { result: { error: "the call holds more than 100 characters" }, names: ["f"], args: "" },
    ]);
  });
});

// ---- random calls under random chunkings ----

const SPELL = {
  "xml-call": {
    open: (n: string) => `<function=${n}>`,
    close: "</function>",
    param: (k: string) => `<parameter=${k}>`,
    end: "</parameter>",
  },
  "xml-invoke-list": {
    open: (n: string) => `<invoke name="${n}">`,
    close: "</invoke>",
    param: (k: string) => `<parameter name="${k}">`,
    end: "</parameter>",
  },
  "dsml-invoke-list": {
    open: (n: string) => `<｜DSML｜invoke name="${n}">`,
    close: "</｜DSML｜invoke>",
    param: (k: string) => `<｜DSML｜parameter name="${k}" string="true">`,
    end: "</｜DSML｜parameter>",
  },
} as const;

const ident = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/[\n\r<>"]/.test(s));
const value = fc.string({ maxLength: 12 }).filter((s) => !s.includes("</"));
const oneCall = fc.record({
  name: ident,
  args: fc.dictionary(
    ident.filter((k) => k !== "__proto__"),
    value,
    { maxKeys: 3 },
  ),
});
const cutsArb = fc.array(fc.nat(), { maxLength: 8 });

const split = splitAt<string>;

describe("any chunking of random calls gives the same calls, names first, deltas = arguments", () => {
  for (const syntax of Object.keys(SPELL) as Syntax[]) {
    const s = SPELL[syntax];
    const listed = syntax !== "xml-call";
    it(syntax, () => {
      fc.assert(
        fc.property(fc.array(oneCall, { minLength: 1, maxLength: listed ? 3 : 1 }), cutsArb, (cs, cuts) => {
          const text = cs
            .map(
              (c) =>
                `\n${s.open(c.name)}\n${Object.entries(c.args)
                  .map(([k, v]) => `${s.param(k)}\n${v}\n${s.end}\n`)
                  .join("")}${s.close}`,
            )
            .join("");
          const got = drive(syntax, split(text, cuts));
          expect(got).toEqual(drive(syntax, [text]));
          // The invoke list's typing strips each value (vLLM's rule for it); the others keep it.
          const want = (v: string): string => (syntax === "xml-invoke-list" ? pyStrip(v) : v);
          const args = cs.map((c) =>
            Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, want(v)])),
          );
          expect(got.map((g) => g.result)).toEqual(
            cs.map((c, i) => ({ call: { name: c.name, arguments: args[i] } })),
          );
          for (const [i, g] of got.entries()) {
            expect(g.names).toEqual([cs[i]?.name]);
            expect(JSON.parse(g.args)).toEqual(args[i]);
          }
        }),
        { seed: 37, numRuns: 300 },
      );
    });
  }

  it("random text never throws", () => {
    const alphabet = fc.constantFrom(
      "<",
      ">",
      '"',
      "/",
      "=",
      "\n",
      " ",
      "a",
      "invoke",
      "parameter",
      "｜DSML｜",
      "function",
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), cutsArb, (parts, cuts) => {
        const text = parts.join("");
        for (const syntax of Object.keys(SPELL) as Syntax[])
          expect(() => drive(syntax, split(text, cuts))).not.toThrow();
      }),
      { seed: 37, numRuns: 300 },
    );
  });
});
