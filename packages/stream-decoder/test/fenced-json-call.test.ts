// The "fenced-json-call" body parser (DeepSeek tool calls) on its own: a body is a list of
// pieces (text, or the <｜tool▁sep｜> separator), fed in any chunking. Expectations are written
// by hand from the input text (JSON.parse for the parsed call of generated inputs).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ActionResult } from "../src/action-parse.ts";
import { MAX_NESTING_DEPTH } from "../src/limits.ts";
import { createFencedJsonCallParser, FencedJsonCallParser } from "../src/syntax/fenced-json-call.ts";
import { feedPieces, type Piece, SEP } from "./body-support.ts";
import { timeRatio } from "./ratio-support.ts";

type Out = { readonly kind: "name" | "args"; readonly text: string };

interface Run {
  readonly out: Out[];
  readonly result: ActionResult;
}

function run(pieces: readonly Piece[], parser = new FencedJsonCallParser(), streamed = true): Run {
  const out: Out[] = [];
  parser.reset(
    streamed
      ? {
          onToolCallName: (text) => out.push({ kind: "name", text }),
          onToolCallArguments: (text) => out.push({ kind: "args", text }),
        }
      : null,
    undefined,
  );
  return { out, result: feedPieces(parser, pieces) };
}

/** `type SEP rest`, the text pieces split at the given cut points (sorted, within each text). */
function chunked(pieces: readonly Piece[], cuts: (text: string) => number[]): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    if (p === SEP) {
      out.push(p);
      continue;
    }
    let from = 0;
    for (const c of [...new Set(cuts(p))].sort((a, b) => a - b)) {
      if (c > from && c < p.length) {
        out.push(p.slice(from, c));
        from = c;
      }
    }
    out.push(p.slice(from));
  }
  return out;
}

const names = (r: Run): string[] => r.out.filter((o) => o.kind === "name").map((o) => o.text);
const args = (r: Run): string =>
  r.out
    .filter((o) => o.kind === "args")
    .map((o) => o.text)
    .join("");

/** Checks one body whole, one unit at a time, and cut in two at every position. */
function check(pieces: readonly Piece[], want: { name?: string; args: string; result: ActionResult }): void {
  const chunkings: Piece[][] = [[...pieces], chunked(pieces, (t) => [...t].map((_, i) => i + 1))];
  const total = pieces.reduce((n, p) => n + (p === SEP ? 0 : p.length), 0);
  for (let k = 1; k < total; k++) {
    let left = k;
    chunkings.push(
      chunked(pieces, (t) => {
        const at = left;
        left -= t.length;
        return at > 0 && at < t.length ? [at] : [];
      }),
    );
  }
  const parser = new FencedJsonCallParser();
  for (const c of chunkings) {
    const r = run(c, parser);
    const label = JSON.stringify(c.map((p) => (p === SEP ? "<sep>" : p)));
    expect(names(r), label).toEqual(want.name === undefined ? [] : [want.name]);
    expect(args(r), label).toBe(want.args);
    expect(r.result, label).toEqual(want.result);
    for (const o of r.out) expect(o.text).not.toBe("");
    const iName = r.out.findIndex((o) => o.kind === "name");
    const iArgs = r.out.findIndex((o) => o.kind === "args");
    if (iArgs >= 0) expect(iName).toBeLessThan(iArgs);
    // Not streamed: the same call.
    expect(run(c, parser, false).result, label).toEqual(want.result);
  }
}

const body = (name: string, json: string): Piece[] => [
  "function",
  SEP,
  `${name}\n\`\`\`json\n${json}\n\`\`\``,
];

describe("fenced-json-call: well-formed bodies", () => {
  it("a call as DeepSeek's template writes it", () => {
    check(body("get_weather", '{"city": "Paris", "unit": "celsius"}'), {
      name: "get_weather",
      args: '{"city": "Paris", "unit": "celsius"}',
      result: { call: { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } } },
    });
  });

  it("the name comes when its line ends, before any argument text", () => {
    const out: string[] = [];
    const p = createFencedJsonCallParser({ maxBufferedChars: 1_000_000, argumentsKey: "arguments" });
    p.reset(
      { onToolCallName: (n) => out.push(`name:${n}`), onToolCallArguments: (a) => out.push(`args:${a}`) },
      undefined,
    );
    p.feed("function");
    p.separator();
    p.feed("get_wea");
    expect(out).toEqual([]);
    p.feed("ther");
    expect(out).toEqual([]);
    p.feed("\n");
    expect(out).toEqual(["name:get_weather"]);
    p.feed("```json\n{");
    expect(out).toEqual(["name:get_weather", "args:{"]);
    p.feed('"a": 1}\n```');
    expect(out).toEqual(["name:get_weather", "args:{", 'args:"a": 1}']);
    expect(p.end('functionget_weather\n```json\n{"a": 1}\n```')).toEqual({
      call: { name: "get_weather", arguments: { a: 1 } },
    });
  });

  it("strings with fences, quotes, braces, CJK, emoji; nested values; indentation", () => {
    const json =
      '{\n  "code": "```py\\nprint(\\"}\\")\\n```",\n  "q": "天気 🌦️ \\u00e9",\n  "n": [1, -2.5e3, {"x": null}]\n}';
    check(body("run_code", json), {
      name: "run_code",
      args: json,
      result: { call: { name: "run_code", arguments: JSON.parse(json) } },
    });
  });

  it('"```" with no language, "\\r\\n" line ends and trailing whitespace after the fence', () => {
    check(["function", SEP, 'f\n```\r\n{"a": true}\r\n```\n '], {
      name: "f",
      args: '{"a": true}',
      result: { call: { name: "f", arguments: { a: true } } },
    });
  });

  it("an empty object; a name with spaces and CJK is kept as written", () => {
    check(body("查询 天气", "{}"), {
      name: "查询 天气",
      args: "{}",
      result: { call: { name: "查询 天气", arguments: {} } },
    });
  });

  it("one parser for several bodies: reset() forgets the previous one", () => {
    const p = new FencedJsonCallParser();
    expect(run(body("a", '{"x": 1}'), p).result).toEqual({ call: { name: "a", arguments: { x: 1 } } });
    expect(run(["func"], p).result).toEqual({ error: "the tool call has no <｜tool▁sep｜>" });
    const r = run(body("b", '{"y": [2]}'), p);
    expect(names(r)).toEqual(["b"]);
    expect(args(r)).toBe('{"y": [2]}');
    expect(r.result).toEqual({ call: { name: "b", arguments: { y: [2] } } });
  });
});

describe("fenced-json-call: malformed bodies are error results", () => {
  // Broken before the name is reported: no name, no arguments streamed.
  const beforeName: ReadonlyArray<readonly [string, Piece[], string]> = [
    ["empty body", [], "the tool call has no <｜tool▁sep｜>"],
    ["no separator", ['function get_weather\n```json\n{"a": 1}\n```'], "the tool call has no <｜tool▁sep｜>"],
    ["another type", ["python", SEP, "f\n```json\n{}\n```"], 'tool call type "python" is not "function"'],
    [
      "two separators",
      ["function", SEP, "f", SEP, "\n```json\n{}\n```"],
      "a second <｜tool▁sep｜> in the tool call",
    ],
    ["empty name", ["function", SEP, "\n```json\n{}\n```"], "the tool call has an empty name"],
    ["name line not ended", ["function", SEP, "get_weather"], "the tool call's name line is not complete"],
  ];
  for (const [label, pieces, error] of beforeName) {
    it(label, () => check(pieces, { args: "", result: { error } }));
  }

  // Broken after the name "f" was reported: what follows the separator, the arguments streamed, the error.
  const afterName: ReadonlyArray<readonly [string, string, string, string]> = [
    ["no fence", 'f\n{"a": 1}', "", "expected ```json on the line after the name"],
    ["fence of another language", "f\n```python\n{}\n```", "", "expected ```json on the line after the name"],
    ["fence line not ended", "f\n```json", "", "the tool call has no ```json block"],
    [
      "no closing fence",
      'f\n```json\n{"a": 1}',
      '{"a": 1}',
      "the tool call's arguments are not closed by ```",
    ],
    ["an array", "f\n```json\n[1, 2]\n```", "[1, 2]", "the tool call's arguments are not a JSON object"],
  ];
  for (const [label, rest, a, error] of afterName) {
    it(label, () => check(["function", SEP, rest], { name: "f", args: a, result: { error } }));
  }

  it("invalid JSON: the valid prefix was streamed, the call is an error", () => {
    const r = run(["function", SEP, 'f\n```json\n{"a": 1,, "b": 2}\n```']);
    expect(names(r)).toEqual(["f"]);
    expect(args(r)).toBe('{"a": 1,');
    expect("error" in r.result && r.result.error.startsWith("invalid JSON arguments: ")).toBe(true);
  });

  it("text after the JSON value before the fence: deltas stop at the value, the call is an error", () => {
    const r = run(["function", SEP, 'f\n```json\n{"a": 1} trailing\n```']);
    expect(args(r)).toBe('{"a": 1}');
    expect("error" in r.result).toBe(true);
  });

  it(`arguments nested deeper than ${MAX_NESTING_DEPTH}`, () => {
    const d = MAX_NESTING_DEPTH + 1;
    const json = `{"a": ${"[".repeat(d - 1)}${"]".repeat(d - 1)}}`;
    const r = run(body("f", json), new FencedJsonCallParser(), false);
    expect(r.result).toEqual({ error: `the call is nested deeper than ${MAX_NESTING_DEPTH} levels` });
  });

  it("a body longer than maxBufferedChars", () => {
    const p = new FencedJsonCallParser(100);
    const r = run(body("f", `{"a": "${"x".repeat(200)}"}`), p);
    expect(r.result).toEqual({ error: "the tool call body is longer than 100 characters" });
    // Within the bound the same parser still works.
    expect(run(body("f", '{"a": 1}'), p).result).toEqual({ call: { name: "f", arguments: { a: 1 } } });
  });

  it("a type that never ends is refused early (bounded)", () => {
    const p = new FencedJsonCallParser();
    p.reset(null, undefined);
    for (let i = 0; i < 1000; i++) p.feed("function ");
    p.separator();
    expect(p.end("function ".repeat(1000))).toEqual({ error: "no <｜tool▁sep｜> after the call type" });
  });
});

describe("fenced-json-call: properties (fast-check, seeded)", () => {
  const jsonObject = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
  const name = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !s.includes("\n"));
  const cuts = fc.array(fc.nat({ max: 400 }), { maxLength: 12 });

  it("any chunking of a well-formed body: the same name, deltas that concatenate to ARGS, the same call", () => {
    fc.assert(
      fc.property(name, jsonObject, fc.constantFrom(undefined, 2, "\t"), cuts, (n, obj, indent, cs) => {
        const json = JSON.stringify(obj, null, indent);
        const pieces = body(n, json);
        let left = 0;
        const c = chunked(pieces, (t) => {
          const base = left;
          left += t.length;
          return cs.map((x) => x - base);
        });
        const r = run(c);
        expect(names(r)).toEqual([n]);
        expect(args(r)).toBe(json);
        expect(r.result).toEqual({ call: { name: n, arguments: JSON.parse(json) } });
      }),
      { seed: 8008, numRuns: 300 },
    );
  });

  it("arbitrary bodies never throw, and the events and result do not depend on the chunking", () => {
    const piece = fc.oneof(
      { weight: 1, arbitrary: fc.constant<Piece>(SEP) },
      {
        weight: 4,
        arbitrary: fc.constantFrom<Piece>("function", "\n", "```json", "```", "{", "}", '"a"', ":", "1", "x"),
      },
      { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), cuts, (pieces, cs) => {
        const whole = run(pieces);
        const c = chunked(pieces, (t) => cs.filter((x) => x < t.length));
        const split = run(c);
        expect(names(split)).toEqual(names(whole));
        expect(args(split)).toBe(args(whole));
        expect(split.result).toEqual(whole.result);
      }),
      { seed: 8009, numRuns: 500 },
    );
  });
});

describe("fenced-json-call: linear time", () => {
  it("a name line that never ends, fed one unit at a time, costs about what a call of the same size does", () => {
    const n = 200_000;
    const benign: Piece[] = ["function", SEP, `f\n\`\`\`json\n{"a": "${"x".repeat(n)}"}\n\`\`\``];
    const hostile: Piece[] = ["function", SEP, "y".repeat(n + 20)];
    const feedUnits = (pieces: Piece[]) => () => {
      const p = new FencedJsonCallParser(10_000_000);
      p.reset({ onToolCallName: () => {}, onToolCallArguments: () => {} }, undefined);
      for (const x of pieces) {
        if (x === SEP) p.separator();
        else for (let i = 0; i < x.length; i += 1) p.feed(x[i] as string);
      }
      p.end("");
    };
    expect(timeRatio(feedUnits(hostile), feedUnits(benign), 3)).toBeLessThan(10);
  });
});
