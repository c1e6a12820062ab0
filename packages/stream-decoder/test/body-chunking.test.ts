// Every body syntax of the registry (syntax/index.ts), driven the way the decoder drives it
// (reset / feed per chunk / separator / end(raw)): any chunking of a body gives the same
// ActionResult and the same streamed name and concatenated argument deltas as feeding it whole;
// streamed and not streamed give the same result; the concatenated deltas parse to the call's
// arguments; random garbage never throws. References: JSON.parse for the JSON reader
// (tool-call-scanner.ts) built values, the whole-body feed for chunkings.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DUPLICATE_NAME_ERROR,
  nestsDeeperThan,
  parseJsonCall,
  valueNestsDeeperThan,
} from "../src/action-parse.ts";
import type { JsonValue } from "../src/python-literal.ts";
import type { BODY_SYNTAXES } from "../src/syntax/index.ts";
import { ToolCallScanner } from "../src/tool-call-scanner.ts";
import { type BodyRun, bodyParser, expectSameRuns, type Piece, SEP } from "./body-support.ts";

type Syntax = keyof typeof BODY_SYNTAXES;

/** The chunk-invariance battery (expectSameRuns) of one body of a syntax. */
const checkBody = (
  syntax: Syntax,
  pieces: readonly Piece[],
  kind: string,
  cuts: readonly number[],
): BodyRun => expectSameRuns(bodyParser(syntax), pieces, cuts, { kind }, syntax !== "raw");

const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom<JsonValue>(null, true, false, 0, -1, 1.5, 1e21, -2.5e-7),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: "binary", maxLength: 10 }),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie("v"), { maxKeys: 4 }),
  ),
})).v;

const argsObject = fc.dictionary(fc.string({ maxLength: 6 }), jsonValue, { maxKeys: 4 });
const name = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/[\n<>]/.test(s));
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });
/** JSON spellings: compact, indented, or with odd (legal) whitespace. */
const spelled = (v: JsonValue, style: number): string =>
  style === 0 ? JSON.stringify(v) : style === 1 ? JSON.stringify(v, null, 2) : JSON.stringify(v, null, "\t ");

/** Bodies made of the structure's own characters: mostly malformed, sometimes not. */
const garbage = fc.string({
  unit: fc.constantFrom(
    ...'{}[]":,\\ \n\tabnu0123456789.-eE`<>=/_function parameter name arguments'.split(""),
  ),
  maxLength: 60,
});

describe("json-call: any chunking, streamed or not, gives the same call and deltas", () => {
  it("well-formed calls (JSON.parse is the reference for the call)", () => {
    fc.assert(
      fc.property(name, argsObject, fc.nat(2), cuts, (n, a, style, cs) => {
        const text = ` ${spelled({ name: n, arguments: a }, style)}\n`;
        const r = checkBody("json-call", [text], "", cs);
        expect(r.result).toEqual({ call: { name: n, arguments: JSON.parse(JSON.stringify(a)) } });
        // The raw text of the value: one piece of the body, from its "{" to its "}".
        expect(text.includes(r.args) && r.args.startsWith("{") && r.args.endsWith("}")).toBe(true);
      }),
      { seed: 331, numRuns: 300 },
    );
  });

  it("garbage never throws and is chunk-invariant", () => {
    fc.assert(
      fc.property(garbage, cuts, (g, cs) => {
        checkBody("json-call", [`{"name": "f", "arguments": ${g}`], "", cs);
        checkBody("json-call", [g], "", cs);
      }),
      { seed: 332, numRuns: 500 },
    );
  });

  it('a second top-level "name" key rejects the call, streamed or not, whatever its spelling', () => {
    for (const text of [
      '{"name": "a", "name": "b", "arguments": {}}',
      '{"name": "a", "arguments": {"name": 1}, "n\\u0061me": "b"}',
      '{"name": 1, "arguments": {}, "name": "b"}',
      '{"\\u006Eame": "a", "arguments": {"t": "\\u4f60"}, "name": "b"}',
    ]) {
      const r = checkBody("json-call", [text], "", [0.5]);
      expect(r.result, text).toEqual({ error: DUPLICATE_NAME_ERROR });
      expect(parseJsonCall(text, ["arguments"])).toEqual({ error: DUPLICATE_NAME_ERROR });
    }
    // One "name" key (the others are nested or values): a call.
    const ok = '{"name": "a", "arguments": {"name": "name", "x": {"name": 2}}}';
    expect(checkBody("json-call", [ok], "", [0.3]).result).toEqual({
      call: { name: "a", arguments: { name: "name", x: { name: 2 } } },
    });
    const escaped = '{"name": "a", "arguments": {"t": "\\u4f60\\u0061"}}';
    expect(checkBody("json-call", [escaped], "", [0.3]).result).toEqual({
      call: { name: "a", arguments: { t: "你a" } },
    });
  });
});

describe("fenced-json-call: any chunking, streamed or not, gives the same call and deltas", () => {
  it("well-formed calls", () => {
    fc.assert(
      fc.property(name, argsObject, fc.nat(2), cuts, (n, a, style, cs) => {
        const argsText = spelled(a, style);
        const r = checkBody(
          "fenced-json-call",
          ["function", SEP, `${n}\n\`\`\`json\n${argsText}\n\`\`\``],
          "",
          cs,
        );
        expect(r.result).toEqual({ call: { name: n, arguments: JSON.parse(argsText) } });
        expect(r.args).toBe(argsText);
      }),
      { seed: 333, numRuns: 300 },
    );
  });

  it("garbage never throws and is chunk-invariant", () => {
    fc.assert(
      fc.property(garbage, garbage, cuts, (g, h, cs) => {
        checkBody("fenced-json-call", ["function", SEP, `f\n\`\`\`json\n${g}`], "", cs);
        checkBody("fenced-json-call", [g, SEP, h], "", cs);
      }),
      { seed: 334, numRuns: 500 },
    );
  });
});

describe("xml-call: any chunking, streamed or not, gives the same call and deltas", () => {
  const value = fc.string({ maxLength: 12 }).filter((s) => !s.includes("</parameter>"));
  const key = fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !/[\n\r<>]/.test(s));
  it("well-formed calls", () => {
    fc.assert(
      fc.property(name, fc.dictionary(key, value, { maxKeys: 4 }), cuts, (n, params, cs) => {
        const body = Object.entries(params)
          .map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`)
          .join("");
        const r = checkBody("xml-call", [`\n<function=${n}>\n${body}</function>\n`], "", cs);
        expect(r.result).toEqual({ call: { name: n, arguments: params } });
      }),
      { seed: 335, numRuns: 300 },
    );
  });

  it("garbage never throws and is chunk-invariant", () => {
    fc.assert(
      fc.property(garbage, cuts, (g, cs) => {
        checkBody("xml-call", [`<function=f>\n${g}`], "", cs);
        checkBody("xml-call", [g], "", cs);
      }),
      { seed: 336, numRuns: 500 },
    );
  });
});

describe("python-call and raw: any chunking gives the same call", () => {
  it("python-call: tool_call(k=v, ...) with literal arguments (JSON values written as Python)", () => {
    const py = (v: JsonValue): string =>
      JSON.stringify(v, (_k, x: unknown) => x).replace(/\b(true|false|null)\b/g, (m) =>
        m === "true" ? "True" : m === "false" ? "False" : "None",
      );
    const ident = fc.stringMatching(/^[a-z_][a-z0-9_]{0,5}$/);
    fc.assert(
      fc.property(
        fc.dictionary(
          ident,
          fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 6 })),
        ),
        cuts,
        (params, cs) => {
          // Strings with no "true"/"false"/"null" words keep their spelling under py().
          fc.pre(!Object.values(params).some((v) => typeof v === "string" && /true|false|null/.test(v)));
          const list = Object.entries(params).map(([k, v]) => `${k}=${py(v)}`);
          const r = checkBody(
            "python-call",
            [`\`\`\`python\ntool_call(${list.join(", ")})\n\`\`\``],
            "get",
            cs,
          );
          expect(r.result).toEqual({ call: { name: "get", arguments: params } });
        },
      ),
      { seed: 337, numRuns: 200 },
    );
  });

  it("raw: the code, one fence stripped", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), cuts, (code, cs) => {
        checkBody("raw", [`\`\`\`python\n${code}\n\`\`\``], "interpreter", cs);
      }),
      { seed: 338, numRuns: 200 },
    );
  });

  it("garbage never throws and is chunk-invariant", () => {
    fc.assert(
      fc.property(garbage, cuts, (g, cs) => {
        checkBody("python-call", [g], "f", cs);
        checkBody("raw", [g], "k", cs);
      }),
      { seed: 339, numRuns: 300 },
    );
  });
});

describe("the JSON reader's built value is JSON.parse's", () => {
  const read = (text: string, top: "call" | "arguments", chunk: number): JsonValue | undefined => {
    const s = new ToolCallScanner(null, undefined, { build: true, top, trail: "trim" });
    for (let i = 0; i < text.length; i += chunk) s.feed(text.slice(i, i + chunk));
    return s.result();
  };
  const parsed = (text: string): { v: unknown } | undefined => {
    try {
      return { v: JSON.parse(text) };
    } catch {
      return undefined;
    }
  };

  it("any JSON value, any chunk size (top 'arguments')", () => {
    fc.assert(
      fc.property(jsonValue, fc.nat(2), fc.integer({ min: 1, max: 9 }), (v, style, chunk) => {
        // A space after it: a number ends at the unit that follows it.
        const text = `${spelled(v, style)} `;
        expect(read(text, "arguments", chunk)).toEqual(JSON.parse(text));
      }),
      { seed: 340, numRuns: 500 },
    );
  });

  it("-0, big and tiny numbers, escapes, lone surrogates and __proto__ keys as JSON.parse makes them", () => {
    const text =
      '{"name": "f", "arguments": {"a": -0, "b": 1e400, "c": 5e-324, "d": "\\ud800\\u00e9\\n\\/", "__proto__": {"x": 1}}}';
    const got = read(text, "call", 3) as { arguments: Record<string, unknown> };
    const want = JSON.parse(text) as { arguments: Record<string, unknown> };
    expect(got).toEqual(want);
    expect(Object.is(got.arguments.a, -0)).toBe(true);
    expect(Object.hasOwn(got.arguments, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(got.arguments)).toBe(Object.prototype);
  });

  it("garbage: a value exactly when JSON.parse of the trimmed text gives a call object", () => {
    fc.assert(
      fc.property(garbage, fc.integer({ min: 1, max: 9 }), (g, chunk) => {
        for (const text of [g, `{"name": "f", "arguments": ${g}`, `{"name": "f", "arguments": {${g}}}`]) {
          const p = parsed(text.trim());
          const isObj = p !== undefined && typeof p.v === "object" && p.v !== null && !Array.isArray(p.v);
          const got = read(text, "call", chunk);
          if (isObj) expect(got).toEqual(p.v);
          else expect(got).toBeUndefined();
        }
      }),
      { seed: 341, numRuns: 1000 },
    );
  });
});

describe("the nesting check on a parsed value is the check on its text", () => {
  it("valueNestsDeeperThan(JSON.parse(t), max) === nestsDeeperThan(t, max)", () => {
    const deep = fc.letrec<{ v: JsonValue }>((tie) => ({
      v: fc.oneof(
        { depthSize: "large", maxDepth: 12 },
        fc.constantFrom<JsonValue>(null, 1, "[{", "]}"),
        fc.array(tie("v"), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 3 }), tie("v"), { maxKeys: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(deep, fc.integer({ min: 0, max: 8 }), (v, max) => {
        const text = JSON.stringify(v);
        expect(valueNestsDeeperThan(JSON.parse(text), max)).toBe(nestsDeeperThan(text, max));
      }),
      { seed: 342, numRuns: 1000 },
    );
  });
});

describe("name-args: any chunking, streamed or not, gives the same call and deltas", () => {
  const id = fc.stringMatching(/^[A-Za-z0-9]{1,9}$/);
  it("well-formed calls, with and without a call id", () => {
    fc.assert(
      fc.property(
        name,
        fc.option(id, { nil: undefined }),
        argsObject,
        fc.nat(2),
        cuts,
        (n, i, a, style, cs) => {
          const argsText = spelled(a, style);
          const pieces: Piece[] = i === undefined ? [n, SEP, argsText] : [n, SEP, i, SEP, argsText];
          const r = checkBody("name-args", pieces, "", cs);
          const call = { name: n, arguments: JSON.parse(argsText) };
          expect(r.result).toEqual({ call: i === undefined ? call : { ...call, id: i } });
          expect(r.args).toBe(argsText);
        },
      ),
      { seed: 343, numRuns: 300 },
    );
  });

  it("garbage never throws and is chunk-invariant", () => {
    fc.assert(
      fc.property(garbage, garbage, garbage, cuts, (g, h, k, cs) => {
        checkBody("name-args", [g, SEP, h], "", cs);
        checkBody("name-args", [g, SEP, h, SEP, k], "", cs);
        checkBody("name-args", [g], "", cs);
        checkBody("name-args", [g, SEP, " ", h, SEP], "", cs);
      }),
      { seed: 344, numRuns: 500 },
    );
  });
});
