// Body syntax "xml-call" (Qwen3-Coder, src/syntax/xml-call.ts): the name as soon as
// `<function=NAME>` is complete, one arguments delta per closed parameter and "}" at </function>,
// values typed by the tool schema (vLLM's rules) only when the request carried tools. Every
// hand-written case is checked whole, one unit at a time and split at every position; fast-check
// adds random bodies under random chunkings. The typing of values is compared with Python itself
// (int, float, json.loads, ast.literal_eval, json.dumps) through test/xml-call-reference.py.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ActionResult } from "../src/action-parse.ts";
import type { ToolSchemas } from "../src/syntax/body.ts";
import { pyFloat, pyIntText } from "../src/syntax/python-number.ts";
import { XmlCallParser } from "../src/syntax/xml-call.ts";
import { typeValue } from "../src/syntax/xml-call-typing.ts";
import { timeRatio } from "./ratio-support.ts";
import { objectOf } from "./schema-support.ts";
import { splitAt } from "./split-at.ts";

const here = dirname(fileURLToPath(import.meta.url));

interface Run {
  readonly names: string[];
  readonly deltas: string[];
  readonly result: ActionResult;
}

function run(chunks: readonly string[], tools?: ToolSchemas, max?: number): Run {
  const names: string[] = [];
  const deltas: string[] = [];
  const p = new XmlCallParser(max);
  p.reset({ onToolCallName: (n) => names.push(n), onToolCallArguments: (t) => deltas.push(t) }, tools);
  for (const c of chunks) p.feed(c);
  return { names, deltas, result: p.end() };
}

/** Whole, per unit, and every two-way split: the same names, delta text and result. */
function check(text: string, tools?: ToolSchemas): Run {
  const whole = run([text], tools);
  const chunkings: string[][] = [[...text]];
  for (let k = 1; k < text.length; k++) chunkings.push([text.slice(0, k), text.slice(k)]);
  for (const chunks of chunkings) {
    const r = run(chunks, tools);
    expect(r.names, JSON.stringify(chunks)).toEqual(whole.names);
    expect(r.deltas.join(""), JSON.stringify(chunks)).toBe(whole.deltas.join(""));
    expect(r.result, JSON.stringify(chunks)).toEqual(whole.result);
  }
  if ("call" in whole.result) expect(JSON.parse(whole.deltas.join(""))).toEqual(whole.result.call.arguments);
  return whole;
}

/** The template's rendering of a call body (between the two markers). */
function body(name: string, params: ReadonlyArray<readonly [string, string]>): string {
  return `\n<function=${name}>\n${params.map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`).join("")}</function>\n`;
}

const WEATHER: ToolSchemas = new Map([
  [
    "get_weather",
    {
      type: "object",
      properties: {
        city: { type: "string" },
        days: { type: "integer" },
        temp: { type: "number" },
        metric: { type: "boolean" },
        hours: { type: "array", items: { type: "string" } },
        where: { type: "object" },
        unit: { type: "string", enum: ["c", "f"] },
        either: { type: ["integer", "null"] },
        untyped: { description: "no type" },
      },
    },
  ],
]);

describe("xml-call: the template's layout", () => {
  it("streams the name, one delta per parameter and the closing brace", () => {
    const r = check(
      body("get_weather", [
        ["city", "Paris"],
        ["days", "3"],
      ]),
    );
    expect(r.names).toEqual(["get_weather"]);
    expect(r.deltas).toEqual(['{"city": "Paris"', ', "days": "3"', "}"]);
    expect(r.result).toEqual({ call: { name: "get_weather", arguments: { city: "Paris", days: "3" } } });
  });

  it("reports the name before any parameter is complete", () => {
    const names: string[] = [];
    const p = new XmlCallParser();
    p.reset({ onToolCallName: (n) => names.push(n), onToolCallArguments: () => {} }, undefined);
    p.feed("\n<function=get_weather");
    expect(names).toEqual([]);
    p.feed(">\n<parameter=ci");
    expect(names).toEqual(["get_weather"]);
  });

  it("a call without parameters is {}", () => {
    const r = check("\n<function=now>\n</function>\n");
    expect(r.deltas).toEqual(["{}"]);
    expect(r.result).toEqual({ call: { name: "now", arguments: {} } });
  });

  it("without the template's newlines, and with spaces between tags", () => {
    expect(check("<function=f><parameter=a>x</parameter></function>").result).toEqual({
      call: { name: "f", arguments: { a: "x" } },
    });
    expect(check(" \t\r\n<function=f>  <parameter=a>x</parameter>\r\n</function> \n").result).toEqual({
      call: { name: "f", arguments: { a: "x" } },
    });
  });

  it("strips exactly one leading and one trailing newline of a value", () => {
    const r = check(
      body("write", [
        ["content", "\n\nline 1\nline 2\n\n"],
        ["empty", ""],
      ]),
    );
    expect(r.result).toEqual({
      call: { name: "write", arguments: { content: "\n\nline 1\nline 2\n\n", empty: "" } },
    });
    expect(check("<function=f><parameter=a>\r\nx\r\n</parameter></function>").result).toEqual({
      call: { name: "f", arguments: { a: "\r\nx\r" } },
    });
  });

  it("a value ends only at </parameter>: tags, near misses and JSON inside stay text", () => {
    const value = 'a</paramete<r</param</function><parameter=b>"\\\n{"x": 1}</parameter';
    const r = check(body("f", [["v", value]]));
    expect(r.result).toEqual({ call: { name: "f", arguments: { v: value } } });
    expect(r.deltas[0]).toBe(`{"v": ${JSON.stringify(value)}`);
  });

  it("keeps CJK, emoji and control characters, escaped as json.dumps(ensure_ascii=False)", () => {
    const value = "你好 😀\u0000\u001f\u007f\t";
    const r = check(body("f", [["s", value]]));
    expect(r.deltas[0]).toBe('{"s": "你好 😀\\u0000\\u001f\u007f\\t"');
    expect(r.result).toEqual({ call: { name: "f", arguments: { s: value } } });
  });

  it("a repeated parameter is streamed twice; its last value wins at its first place", () => {
    const r = check(
      body("f", [
        ["a", "1"],
        ["b", "2"],
        ["a", "3"],
      ]),
    );
    expect(r.deltas.join("")).toBe('{"a": "1", "b": "2", "a": "3"}');
    if (!("call" in r.result)) throw new Error("no call");
    expect(Object.keys(r.result.call.arguments)).toEqual(["a", "b"]);
    expect(r.result.call.arguments).toEqual({ a: "3", b: "2" });
  });

  it('"__proto__" and "constructor" are ordinary names', () => {
    const r = check(
      body("f", [
        ["__proto__", "x"],
        ["constructor", "y"],
      ]),
      new Map([["f", { properties: { constructor: { type: "integer" } } }]]),
    );
    if (!("call" in r.result)) throw new Error("no call");
    expect(Object.getPrototypeOf(r.result.call.arguments)).toBe(Object.prototype);
    expect(Object.keys(r.result.call.arguments)).toEqual(["__proto__", "constructor"]);
    expect(r.deltas.join("")).toBe('{"__proto__": "x", "constructor": "y"}');
  });

  it("with a null sink only end() reports", () => {
    const p = new XmlCallParser();
    p.reset(null, WEATHER);
    p.feed(body("get_weather", [["days", "4"]]));
    expect(p.end()).toEqual({ call: { name: "get_weather", arguments: { days: 4 } } });
  });

  it("reset() starts a new body", () => {
    const p = new XmlCallParser();
    p.reset(null, undefined);
    p.feed("<function=f><parameter=a>x");
    p.reset(null, undefined);
    p.feed("<function=g></function>");
    expect(p.end()).toEqual({ call: { name: "g", arguments: {} } });
  });
});

describe("xml-call: values typed by the tool schema (vLLM's rules)", () => {
  const typed = (params: ReadonlyArray<readonly [string, string]>) =>
    check(body("get_weather", params), WEATHER);

  it("the template's renderings of non-strings come back as JSON", () => {
    const r = typed([
      ["city", "Paris"],
      ["days", "3"],
      ["temp", "21.5"],
      ["metric", "True"],
      ["hours", "['07:00', '08:00']"],
      ["where", '{"lat": 48.85, "tags": ["a", true, null]}'],
      ["unit", "c"],
    ]);
    expect(r.result).toEqual({
      call: {
        name: "get_weather",
        arguments: {
          city: "Paris",
          days: 3,
          temp: 21.5,
          metric: true,
          hours: ["07:00", "08:00"],
          where: { lat: 48.85, tags: ["a", true, null] },
          unit: "c",
        },
      },
    });
    expect(r.deltas.join("")).toBe(
      '{"city": "Paris", "days": 3, "temp": 21.5, "metric": true, "hours": ["07:00", "08:00"], "where": {"lat": 48.85, "tags": ["a", true, null]}, "unit": "c"}',
    );
  });

  it("vLLM's fallbacks: strings when a conversion fails, false for a non-boolean, null for null", () => {
    const r = typed([
      ["days", "three"],
      ["temp", "2.0"],
      ["metric", "yes"],
      ["city", "NULL"],
      ["hours", "not a list"],
      ["either", "5"],
      ["untyped", "7"],
      ["extra", "8"],
    ]);
    expect(r.result).toEqual({
      call: {
        name: "get_weather",
        arguments: {
          days: "three",
          temp: 2,
          metric: false,
          city: null,
          hours: "not a list",
          either: 5,
          untyped: "7",
          extra: "8",
        },
      },
    });
  });

  it("an unknown tool: an error naming it; its streamed values are strings, but null is null (tools were given)", () => {
    const r = check(
      body("other", [
        ["a", "1"],
        ["b", "null"],
      ]),
      WEATHER,
    );
    expect(r.result).toEqual({ error: 'the call names a tool the request does not give: "other"' });
    expect(r.names).toEqual(["other"]);
    expect(JSON.parse(r.deltas.join(""))).toEqual({ a: "1", b: null });
  });

  it("without tools every value is a string, null included", () => {
    const r = check(
      body("get_weather", [
        ["days", "3"],
        ["metric", "False"],
        ["b", "null"],
      ]),
    );
    expect(r.result).toEqual({
      call: { name: "get_weather", arguments: { days: "3", metric: "False", b: "null" } },
    });
  });

  it("an infinite number makes the call an error (vLLM: int(inf) raises OverflowError)", () => {
    expect(typed([["temp", "inf"]]).result).toEqual({ error: 'parameter "temp": an infinite number' });
    expect(typed([["temp", "nan"]]).result).toEqual({
      call: { name: "get_weather", arguments: { temp: "nan" } },
    });
  });

  it("integers keep their exact digits in the JSON text; past the double range they stay strings", () => {
    const big = "123456789012345678901234567890";
    const r = typed([["days", big]]);
    expect(r.deltas.join("")).toBe(`{"days": ${big}}`);
    expect(typeValue("9".repeat(400), "days", { days: { type: "integer" } })).toEqual({
      json: JSON.stringify("9".repeat(400)),
      value: "9".repeat(400),
    });
  });

  it("parameters without properties type by the parameters object itself (as vLLM)", () => {
    const tools: ToolSchemas = new Map([["f", { a: { type: "integer" } }]]);
    expect(check(body("f", [["a", "12"]]), tools).result).toEqual({
      call: { name: "f", arguments: { a: 12 } },
    });
  });
});

describe("xml-call: malformed bodies are errors, never throws", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["", "unterminated call: no <function=NAME>"],
    ["\n<function=f>\n<parameter=a>\nx\n", 'unterminated call: parameter "a" has no </parameter>'],
    ["\n<function=f>\n<parameter=a>\nx\n</parameter>\n", "unterminated call: no </function>"],
    ["\n<function=f", "unterminated call: no </function>"],
    ["I will call it.\n<function=f></function>", 'expected <function=, got "I"'],
    ["<function=f>text<parameter=a>x</parameter></function>", 'expected <parameter= or </function>, got "t"'],
    ["<function=f></function>\n<function=g></function>", 'text after </function>: "<"'],
    ["<function=f></function>done", 'text after </function>: "d"'],
    ["<function=></function>", "empty function name"],
    ["<function=f><parameter=>x</parameter></function>", "empty parameter name"],
    ["<function=f\n<parameter=a>x</parameter></function>", 'a name holds a line break: "f"'],
    ["<function=f<parameter=a>x</parameter></function>", 'a name holds "<": "f"'],
    ["<function=f><param=a>x</param></function>", 'unexpected tag "<param="'],
    ["<functions=f></functions>", 'unexpected tag "<functions"'],
  ];
  for (const [text, error] of cases) {
    it(JSON.stringify(text), () => {
      const r = check(text);
      expect(r.result).toEqual({ error: expect.stringContaining(error) });
    });
  }

  it("a separator marker is an error", () => {
    const p = new XmlCallParser();
    p.reset(null, undefined);
    p.feed("<function=f>");
    p.separator();
    p.feed("</function>");
    expect(p.end()).toEqual({ error: "a separator marker is not part of this call syntax" });
  });

  it("more than maxBufferedChars kept characters: an error, nothing more streamed", () => {
    const r = run([`<function=f><parameter=a>${"x".repeat(200)}</parameter></function>`], undefined, 100);
    expect(r.result).toEqual({ error: "the call holds more than 100 characters" });
    expect(r.names).toEqual(["f"]);
    expect(r.deltas).toEqual([]);
  });

  it("a value nested deeper than 200 levels makes the call an error; a deep literal stays a string", () => {
    const deep = `${"[".repeat(300)}${"]".repeat(300)}`;
    expect(check(body("get_weather", [["hours", deep]]), WEATHER).result).toEqual({
      error: "a parameter value is nested deeper than 200 levels",
    });
    const lit = `${"(".repeat(300)}${")".repeat(300)}`;
    expect(typeValue(lit, "hours", { hours: { type: "array" } })).toEqual({
      json: JSON.stringify(lit),
      value: lit,
    });
  });
});

describe("xml-call: properties", () => {
  const key = fc.constantFrom("a", "b", "city", "x_1", "名", "k k");
  const piece = fc.constantFrom(
    "x",
    "Paris",
    "\n",
    " ",
    "<",
    ">",
    "</",
    "</paramete",
    "</parameter",
    "</function>",
    "<parameter=z>",
    "你好",
    "😀",
    '"',
    "\\",
    "True",
    "['a', 1]",
    '{"k": [1, 2.5]}',
    "null",
    "3",
  );
  const value = fc.array(piece, { maxLength: 6 }).map((p) => p.join(""));
  const params = fc.array(fc.tuple(key, value), { maxLength: 5 });
  const schema: ToolSchemas = new Map([
    ["f", objectOf({ a: "integer", b: "array", city: "string", x_1: "boolean", 名: "object" })],
  ]);

  it("random bodies under random chunkings give the same events and result; deltas parse to the arguments", () => {
    fc.assert(
      fc.property(params, fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), (ps, withTools, cuts) => {
        const text = body("f", ps);
        const tools = withTools ? schema : undefined;
        const whole = run([text], tools);
        const split = run(splitAt(text, cuts), tools);
        expect(split.names).toEqual(whole.names);
        expect(split.deltas.join("")).toBe(whole.deltas.join(""));
        expect(split.result).toEqual(whole.result);
        expect(whole.names).toEqual(["f"]);
        if (ps.every(([, v]) => !v.includes("</parameter>"))) {
          if (!("call" in whole.result)) throw new Error(JSON.stringify(whole.result));
          expect(JSON.parse(whole.deltas.join(""))).toEqual(whole.result.call.arguments);
          if (!withTools) expect(whole.result.call.arguments).toEqual(Object.fromEntries(ps));
        }
      }),
      { numRuns: 400, seed: 8 },
    );
  });

  it("linear: a value of near misses of </parameter> costs about what plain text does", () => {
    const n = 200_000;
    const hostile = `<function=f><parameter=a>${"</paramete<".repeat(n / 11)}</parameter></function>`;
    const benign = `<function=f><parameter=a>${"x".repeat(hostile.length - 39)}</parameter></function>`;
    const go = (t: string) => () => {
      const p = new XmlCallParser(10_000_000);
      p.reset(null, undefined);
      for (let i = 0; i < t.length; i += 7) p.feed(t.slice(i, i + 7));
      p.end();
    };
    const ratio = timeRatio(go(hostile), go(benign));
    expect(ratio).toBeLessThan(20); // measured 0.7
  });

  it("linear: typing a long number-like value costs about what a string value does", () => {
    const n = 300_000;
    const props = {
      i: { type: "integer" },
      f: { type: "number" },
      o: { type: "object" },
      s: { type: "string" },
    };
    const digits = `${"1".repeat(n)}x`;
    const hostile = () => {
      typeValue(digits, "i", props);
      typeValue(digits, "f", props);
      typeValue(`[${"1,".repeat(n / 2)}x]`, "o", props);
    };
    const plain = "y".repeat(n + 1);
    const benign = () => {
      for (let k = 0; k < 3; k++) typeValue(plain, "s", props);
    };
    const ratio = timeRatio(hostile, benign);
    expect(ratio).toBeLessThan(100); // measured 11 (three parses vs one scan)
  });
});

describe("Python's int() / float() (re-implemented)", () => {
  it("int", () => {
    expect(pyIntText(" 12\n")).toBe("12");
    expect(pyIntText("+1_000")).toBe("1000");
    expect(pyIntText("-007")).toBe("-7");
    expect(pyIntText("-0")).toBe("0");
    expect(pyIntText("１２")).toBe("12");
    expect(pyIntText("٣٤")).toBe("34");
    expect(pyIntText("𝟗")).toBe("9");
    for (const bad of ["", "1__0", "_1", "1_", "0x10", "1.0", "1e3", "1 2", "٣a"])
      expect(pyIntText(bad)).toBeUndefined();
    expect(pyIntText("9".repeat(4300))).toBe("9".repeat(4300));
    expect(pyIntText("9".repeat(4301))).toBeUndefined();
  });

  it("float", () => {
    expect(pyFloat(" 1.5 ")).toBe(1.5);
    expect(pyFloat("5.")).toBe(5);
    expect(pyFloat(".5e1_0")).toBe(5e9);
    expect(pyFloat("-Infinity")).toBe(Number.NEGATIVE_INFINITY);
    expect(pyFloat("nAn")).toBeNaN();
    for (const bad of ["", ".", "e5", "1..0", "0x1p3", "1e", "1_.0", "infinit"])
      expect(pyFloat(bad)).toBeUndefined();
  });
});

describe("typing compared with Python itself (test/xml-call-reference.py)", () => {
  const values = [
    "3",
    " 3 ",
    "-0",
    "007",
    "1_000",
    "１２",
    "3.0",
    "2.5",
    "1e3",
    "1e-7",
    "0.1",
    "1e300",
    "123456789012345678901234567890.5",
    "-2.5e-5",
    "nan",
    "True",
    "false",
    "TRUE",
    "yes",
    "null",
    "None",
    "['07:00', '08:00']",
    "[1, 2.5, True, None, 'x']",
    '["a", {"b": [1, 2]}]',
    "{'a': 1, 'b': [True, None]}",
    '{"a": 1, "a": 2}',
    '{"__proto__": 1}',
    "{1: 'x', 2.5: 'y', None: 'w'}",
    "('a', 'b')",
    "'single' \"double\"",
    "r'\\d+'",
    "'\\x41\\u00e9\\U0001F600'",
    "  [1]",
    "[1, # comment\n 2]",
    "[1,\n2]",
    "plain text",
    "",
    '"quoted"',
    '{"x": "你好"}',
    "-5",
    "+3",
    // Not here, documented differences: "--5" (literal_eval refuses a run of signs; eval and
    // parsePythonLiteral take it), {True: 1} keys (Python merges True with 1), big integers.
  ];
  const types: ReadonlyArray<string | null> = [
    null,
    "string",
    "integer",
    "number",
    "boolean",
    "array",
    "object",
    "Integer ",
    "float64",
    "dict[str, int]",
    "list",
    "other",
  ];

  it("every value × type gives the JSON Python gives", () => {
    const cases = values.flatMap((value) => types.map((type) => ({ value, type })));
    const r = spawnSync("/usr/bin/python3", [join(here, "xml-call-reference.py")], {
      input: JSON.stringify(cases),
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    const want = JSON.parse(r.stdout) as Array<{ json?: string; error?: string }>;
    let compared = 0;
    cases.forEach((c, k) => {
      const w = want[k];
      const props = { p: c.type === null ? {} : { type: c.type } };
      const got = typeValue(c.value, "p", props);
      const label = JSON.stringify(c);
      if (w?.error !== undefined) throw new Error(`${label}: Python raised ${w.error}`);
      if ("error" in got) throw new Error(`${label}: ${got.error}`);
      // Same value; the spelling may differ only where documented (1.0 / 1e+300 written as integers).
      expect(JSON.parse(got.json), label).toEqual(JSON.parse(w?.json ?? "null"));
      expect(got.value, label).toEqual(JSON.parse(w?.json ?? "null"));
      compared++;
    });
    expect(compared).toBe(values.length * types.length);
  });
});
