import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonValue, PythonLiteralError, parsePythonCall, parsePythonLiteral } from "../src/index.ts";

describe("Python literal parser (no eval)", () => {
  it.each([
    ["'a\\'b'", "a'b"],
    ['"tab\\tnl\\n"', "tab\tnl\n"],
    ["r'\\d+\\''", "\\d+\\'"],
    ["u'x' \"y\" R'\\z'", "xy\\z"],
    ["'''tri\nple ''' ", "tri\nple "],
    ['"""a "quoted" b"""', 'a "quoted" b'],
    ["'\\x41\\u4e2d\\U0001F600\\101\\0'", "A中😀A\0"],
    ["'\\q'", "\\q"],
    ["1_000", 1000],
    ["-0x_ff", -255],
    ["0o17", 15],
    ["0b101", 5],
    ["-1.5e-3", -0.0015],
    [".5", 0.5],
    ["5.", 5],
    ["1E3", 1000],
    ["True", true],
    ["None", null],
    ["[1, (2, 3), (4,), (), {'k': [None]},]", [1, [2, 3], [4], [], { k: [null] }]],
    ["{1: 'a', True: 2, None: 3, 'x': {}}", { "1": "a", true: 2, null: 3, x: {} }],
    ["(  # comment\n 7 )", 7],
  ] as const)("%s", (src, value) => {
    expect(parsePythonLiteral(src)).toEqual(value);
  });

  it.each([
    "f'x'",
    "b'x'",
    "x",
    "print(1)",
    "1 + 2",
    "{1, 2}",
    "3j",
    "012",
    "'unterminated",
    "'\\N{DASH}'",
    "[1 2]",
    "99999999999999999999",
  ])("rejects %s", (src) => {
    expect(() => parsePythonLiteral(src)).toThrow(PythonLiteralError);
  });

  it("tool_call keyword arguments only", () => {
    expect(parsePythonCall('tool_call(a="x", b=[1, 2.0], c={"d": False})')).toEqual({
      name: "tool_call",
      arguments: { a: "x", b: [1, 2], c: { d: false } },
    });
    expect(() => parsePythonCall("tool_call(1)")).toThrow(/positional/);
    expect(() => parsePythonCall("tool_call(a=1, a=2)")).toThrow(/repeated/);
    expect(() => parsePythonCall("tool_call(a=f(1))")).toThrow(PythonLiteralError);
    expect(() => parsePythonCall("tool_call(a=1) + 1")).toThrow(PythonLiteralError);
    expect(parsePythonCall("tool_call(__proto__=1)").arguments).toEqual(JSON.parse('{"__proto__": 1}'));
  });

  // Render random values in Python syntax (random quote styles, escapes, prefixes, number
  // spellings) and parse them back.
  const str = fc.string({ unit: "binary", maxLength: 12 });
  const value: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      str,
      fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)),
      fc.constantFrom(true, false, null),
      fc.array(tie("v"), { maxLength: 4 }),
      fc.dictionary(str, tie("v"), { maxKeys: 4 }),
    ),
  })).v;

  function pyString(s: string, style: number): string {
    const q = style % 2 === 0 ? "'" : '"';
    const triple = style % 3 === 0;
    const quote = triple ? q.repeat(3) : q;
    let out = "";
    for (const ch of s) {
      const cp = ch.codePointAt(0) as number;
      if (ch === "\\") out += "\\\\";
      else if (ch === q) out += `\\${q}`;
      else if (ch === "\n") out += style % 4 === 0 ? "\\n" : "\\x0a";
      else if (cp < 0x20 || cp === 0x7f || ch === "\r") out += `\\x${cp.toString(16).padStart(2, "0")}`;
      else if (cp >= 0xd800 && cp < 0xe000) out += `\\u${cp.toString(16).padStart(4, "0")}`;
      else if (cp > 0xffff && style % 5 === 0) out += `\\U${cp.toString(16).padStart(8, "0")}`;
      else out += ch;
    }
    return (style % 7 === 0 ? "u" : "") + quote + out + quote;
  }

  function py(v: JsonValue, style: number): string {
    if (v === null) return "None";
    if (v === true) return "True";
    if (v === false) return "False";
    if (typeof v === "number") {
      if (Number.isSafeInteger(v)) {
        if (style % 3 === 1 && v >= 0) return `0x${v.toString(16)}`;
        return String(v).replace(/(\d)(\d{3})$/, style % 2 === 0 ? "$1_$2" : "$1$2");
      }
      // A float (Python spells integral floats with ".0" or an exponent).
      const f = String(v).replace("e+", "e");
      return /[.e]/.test(f) ? f : `${f}.0`;
    }
    if (typeof v === "string") return pyString(v, style);
    if (Array.isArray(v)) {
      const items = v.map((x, i) => py(x, style + i + 1));
      return style % 2 === 0
        ? `[${items.join(", ")}]`
        : `(${items.join(", ")}${items.length === 1 ? "," : ""})`;
    }
    return `{${Object.entries(v)
      .map(([k, x], i) => `${pyString(k, style + i)}: ${py(x, style + i + 2)}`)
      .join(",\n ")}}`;
  }

  it("render random literals in Python syntax, parse them back equal", () => {
    fc.assert(
      fc.property(value, fc.nat(1000), (v, style) => {
        expect(parsePythonLiteral(py(v, style))).toEqual(v);
      }),
      { seed: 3, numRuns: 500 },
    );
  });
});
