// Hostile model output against the two parsers that read tool calls: the
// ChatGLM3 Python-literal parser and the JSON tool-call scanner. Linear time (hostile vs
// benign input of the same size, ratio only), a documented nesting limit that is a typed
// error (never a throw past the API, never a stack overflow), and fast-check fuzzing with
// random and adversarial nesting, truncation and garbage.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ActionParser, parseAction } from "../src/action-parse.ts";
import { type JsonValue, parsePythonCall, parsePythonLiteral } from "../src/python-literal.ts";
import { PythonLiteralError } from "../src/python-literal-error.ts";
import { ToolCallScanner } from "../src/tool-call-scanner.ts";
import { timeRatio } from "./ratio-support.ts";

/** The documented nesting limit (docs/decoder.md): deeper is an error, never a throw. */
const MAX_DEPTH = 200;

function nestedTuple(depth: number): string {
  return `${"(".repeat(depth)}1${",)".repeat(depth)}`;
}

function pyErrorType(src: string): string {
  try {
    parsePythonLiteral(src);
    return "ok";
  } catch (e) {
    if (e instanceof PythonLiteralError) return e.type;
    return `threw ${e instanceof Error ? e.name : String(e)}`;
  }
}

function scan(text: string, chunk = text.length): { name: string[]; args: string; done: boolean } {
  const name: string[] = [];
  let args = "";
  const s = new ToolCallScanner({
    onToolCallName: (n) => name.push(n),
    onToolCallArguments: (t) => {
      args += t;
    },
  });
  for (let i = 0; i < text.length; i += chunk) s.feed(text.slice(i, i + chunk));
  return { name, args, done: s.done };
}

describe("Python literal parser: linear time, bounded depth", () => {
  it("nested tuples are parsed once (the (x) vs (x,) decision does not re-parse)", () => {
    // 2,000 copies of a 16-deep one-element tuple vs the same number of flat 16-tuples (the
    // same length): a re-parse per level made the nested one ~2^16 times the work.
    const hostile = `[${Array(2000).fill(nestedTuple(16)).join(",")}]`;
    const flat = `(${Array(16).fill("1").join(",")}${" ".repeat(nestedTuple(16).length - 33)})`;
    const benign = `[${Array(2000).fill(flat).join(",")}]`;
    expect(benign.length).toBe(hostile.length);
    expect(parsePythonLiteral(nestedTuple(3))).toEqual([[[1]]]);
    const r = timeRatio(
      () => parsePythonLiteral(hostile),
      () => parsePythonLiteral(benign),
    );
    console.log(`python-literal nested tuples (depth 16) / flat, same size: ${r.toFixed(2)}x`);
    expect(r).toBeLessThan(5);
  });

  it("tuples nested up to the limit stay linear too", () => {
    const hostile = `[${Array(200)
      .fill(nestedTuple(MAX_DEPTH - 1))
      .join(",")}]`;
    const benign = `[${Array(200)
      .fill(`[${"1,".repeat(MAX_DEPTH - 1)}1${" ".repeat(MAX_DEPTH - 3)}]`)
      .join(",")}]`;
    expect(benign.length).toBe(hostile.length);
    const r = timeRatio(
      () => parsePythonLiteral(hostile),
      () => parsePythonLiteral(benign),
    );
    console.log(`python-literal nested tuples (depth ${MAX_DEPTH - 1}) / flat, same size: ${r.toFixed(2)}x`);
    expect(r).toBeLessThan(5);
  });

  it(`nesting deeper than ${MAX_DEPTH} is a PythonLiteralError of type "too-deep", at any size`, () => {
    for (const open of ["(", "[", "{'k': ", "-(", "[(", "{1: ["]) {
      for (const depth of [MAX_DEPTH + 1, 5_000, 200_000]) {
        expect(pyErrorType(`${open.repeat(depth)}1`), `${open} x ${depth}`).toBe("too-deep");
      }
    }
    expect(pyErrorType(`${"[".repeat(MAX_DEPTH)}${"]".repeat(MAX_DEPTH)}`)).toBe("ok");
    expect(pyErrorType(`${"[".repeat(MAX_DEPTH + 1)}${"]".repeat(MAX_DEPTH + 1)}`)).toBe("too-deep");
    // Unary signs are not nesting, but a long run of them must not recurse either.
    expect(parsePythonLiteral(`${"-".repeat(100_001)}1`)).toBe(-1);
    expect(pyErrorType("[1, 2")).toBe("invalid-literal");
  });

  it("a ChatGLM3 tool call nested too deep is an action_end error, nothing thrown", () => {
    const body = `\`\`\`python\ntool_call(a=${"[".repeat(100_000)}${"]".repeat(100_000)})\n\`\`\``;
    const r = parseAction(ActionParser.GlmToolCall, body, "f");
    expect(r).toEqual({ error: expect.stringMatching(/nested deeper than 200/) });
  });

  it("error messages quote at most 40 characters of the input", () => {
    const long = "x".repeat(100_000);
    for (const src of [long, `'a' ${long}`, `${long}'s'`]) {
      try {
        parsePythonLiteral(src);
        expect.unreachable();
      } catch (e) {
        expect((e as Error).message.length).toBeLessThan(120);
      }
    }
  });
});

/** A JSON value rendered as Python source (True/False/None; JSON strings are Python strings). */
function pySource(v: JsonValue, style: number): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number" || typeof v === "string") return JSON.stringify(v);
  const sp = " ".repeat(style % 3);
  if (Array.isArray(v))
    return `[${v.map((x, i) => pySource(x, style + i)).join(`,${sp}`)}${style % 5 === 0 && v.length > 0 ? "," : ""}]`;
  return `{${Object.entries(v)
    .map(([k, x], i) => `${JSON.stringify(k)}:${sp}${pySource(x, style + i)}`)
    .join(`,${sp}`)}}`;
}

const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.string({ unit: "binary", maxLength: 10 }),
    fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
    // Not the integral doubles that JSON.stringify spells as unsafe integers ("1e20" comes
    // out as "100000000000000000000"): in Python that text is an exact int, which has no
    // exact JSON number (the parser refuses it; python-literal.test.ts checks that).
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((x) => !(Number.isInteger(x) && !Number.isSafeInteger(x) && Math.abs(x) < 1e21)),
    fc.constantFrom(true, false, null),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie("v"), { maxKeys: 4 }),
  ),
})).v;

/** Brackets, separators, literals and quotes: text that nests, breaks and truncates. */
const adversarial = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom("(", "[", "{", ")", "]", "}", ",", ":", " ", "1", "'", '"') },
      { weight: 2, arbitrary: fc.constantFrom("True", "None", "-", "\\", "r'", "'''", "#", "\n", "=", "a=") },
      { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
      { weight: 1, arbitrary: fc.nat(400).map((n) => "(".repeat(n)) },
      { weight: 1, arbitrary: fc.nat(400).map((n) => "[".repeat(n)) },
    ),
    { maxLength: 60 },
  )
  .map((xs) => xs.join(""));

describe("fuzz: Python literal parser (our re-implementation of Python's literal grammar)", () => {
  it("JSON-compatible literals: equal to JSON.parse of the equivalent JSON (the reference)", () => {
    fc.assert(
      fc.property(jsonValue, fc.nat(100), (v, style) => {
        const json = JSON.stringify(v);
        expect(parsePythonLiteral(pySource(v, style))).toEqual(JSON.parse(json));
      }),
      { seed: 11, numRuns: 600 },
    );
  });

  it("random, adversarially nested, truncated and garbage input: a value or a PythonLiteralError", () => {
    fc.assert(
      fc.property(adversarial, fc.boolean(), (src, asCall) => {
        try {
          if (asCall) parsePythonCall(`tool_call(a=${src})`);
          else parsePythonLiteral(src);
        } catch (e) {
          expect(e).toBeInstanceOf(PythonLiteralError);
          expect(["invalid-literal", "too-deep"]).toContain((e as PythonLiteralError).type);
        }
      }),
      { seed: 12, numRuns: 2000 },
    );
  });

  it("every prefix of a valid literal: a value or a PythonLiteralError, never a throw of another kind", () => {
    fc.assert(
      fc.property(jsonValue, fc.nat(100), (v, style) => {
        const src = pySource(v, style);
        for (let k = 0; k <= src.length; k++) {
          try {
            parsePythonLiteral(src.slice(0, k));
          } catch (e) {
            expect(e).toBeInstanceOf(PythonLiteralError);
          }
        }
      }),
      { seed: 13, numRuns: 200 },
    );
  });
});

describe("fuzz: JSON tool-call scanner", () => {
  it("whole calls: the name and the raw arguments text (JSON.parse / JSON.stringify are the reference)", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 8 }),
        jsonValue,
        fc.nat(3),
        fc.integer({ min: 1, max: 7 }),
        (name, args, indent, chunk) => {
          const argsText = JSON.stringify(args, null, indent);
          const text = `{"name": ${JSON.stringify(name)}, "arguments": ${argsText}}`;
          const parsed = JSON.parse(text) as { name: string; arguments: JsonValue };
          const out = scan(text, chunk);
          expect(out.name).toEqual([parsed.name]);
          // A JSON string is not streamed (its raw text is not the arguments' JSON).
          if (typeof args === "string") expect(out.args).toBe("");
          else {
            expect(JSON.parse(out.args)).toEqual(parsed.arguments);
            expect(out.args).toBe(argsText);
          }
          expect(out.done).toBe(true);
        },
      ),
      { seed: 21, numRuns: 500 },
    );
  });

  it("truncated calls: the arguments so far are a prefix of the real ones", () => {
    fc.assert(
      fc.property(jsonValue, fc.double({ min: 0, max: 1, noNaN: true }), (args, cut) => {
        const argsText = JSON.stringify(args);
        const text = `{"name": "f", "arguments": ${argsText}}`;
        const out = scan(text.slice(0, Math.floor(cut * text.length)), 3);
        expect(argsText.startsWith(out.args)).toBe(true);
      }),
      { seed: 22, numRuns: 500 },
    );
  });

  it("garbage and adversarial nesting: never throws, deltas are one contiguous piece of the input", () => {
    fc.assert(
      fc.property(adversarial, fc.integer({ min: 1, max: 9 }), (junk, chunk) => {
        const text = `{"name": "f", "arguments": ${junk.replaceAll("'", '"')}`;
        const out = scan(text, chunk);
        expect(text.includes(out.args)).toBe(true);
      }),
      { seed: 23, numRuns: 2000 },
    );
  });

  it(`a bracket stack deeper than ${MAX_DEPTH} ends the stream there (bounded memory)`, () => {
    const deep = `{"name": "f", "arguments": ${"[".repeat(1_000_000)}`;
    const out = scan(deep, 1000);
    expect(out.done).toBe(true);
    expect(out.args).toBe("[".repeat(MAX_DEPTH - 1));
    const ok = `{"name": "f", "arguments": ${"[".repeat(MAX_DEPTH - 1)}${"]".repeat(MAX_DEPTH - 1)}}`;
    expect(scan(ok).args).toBe(`${"[".repeat(MAX_DEPTH - 1)}${"]".repeat(MAX_DEPTH - 1)}`);
  });

  it("deep nesting costs what a flat array of the same size costs", () => {
    const n = 400_000;
    const hostile = `{"name": "f", "arguments": {"a": ${"[".repeat(n)}`;
    const benign = `{"name": "f", "arguments": {"a": [${"1,".repeat(n / 2 - 1)}1`;
    const r = timeRatio(
      () => scan(hostile, 7),
      () => scan(benign, 7),
    );
    console.log(`json scanner deep brackets / flat numbers, same size: ${r.toFixed(2)}x`);
    expect(r).toBeLessThan(5);
  });
});
