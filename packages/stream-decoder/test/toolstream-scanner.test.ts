// ToolCallScanner on tricky JSON: the name when its string is complete, the RAW arguments value
// as deltas that never reach past its last unit, nothing guessed on malformed text. Every case
// is checked fed whole, one unit at a time and split at every position into two chunks: the
// expectations below are written by hand from the input text.
import { describe, expect, it } from "vitest";
import { ToolCallScanner } from "../src/tool-call-scanner.ts";

type Out = { readonly kind: "name" | "args"; readonly text: string };

function feed(chunks: readonly string[], maxName?: number): { out: Out[]; perChunk: number[] } {
  const out: Out[] = [];
  const s = new ToolCallScanner(
    {
      onToolCallName: (text) => out.push({ kind: "name", text }),
      onToolCallArguments: (text) => out.push({ kind: "args", text }),
    },
    maxName,
  );
  const perChunk: number[] = [];
  for (const c of chunks) {
    const before = out.filter((o) => o.kind === "args").length;
    s.feed(c);
    perChunk.push(out.filter((o) => o.kind === "args").length - before);
  }
  return { out, perChunk };
}

interface Expect {
  /** Expected tool name (undefined: none reported). */
  readonly name?: string;
  /** Expected concatenation of the argument deltas ("" : none). */
  readonly args: string;
  /** Name reported before the first argument delta. */
  readonly nameFirst?: boolean;
}

/** Checks one input under every chunking; returns the whole-text outputs. */
function check(text: string, want: Expect, maxName?: number): Out[] {
  const chunkings: string[][] = [[text], [...text.split("")]];
  for (let k = 1; k < text.length; k++) chunkings.push([text.slice(0, k), text.slice(k)]);
  let first: Out[] | undefined;
  for (const chunks of chunkings) {
    const { out, perChunk } = feed(chunks, maxName);
    const names = out.filter((o) => o.kind === "name").map((o) => o.text);
    const args = out.filter((o) => o.kind === "args");
    expect(names, JSON.stringify(chunks)).toEqual(want.name === undefined ? [] : [want.name]);
    expect(args.map((a) => a.text).join(""), JSON.stringify(chunks)).toBe(want.args);
    for (const a of args) expect(a.text).not.toBe("");
    for (const n of perChunk) expect(n).toBeLessThanOrEqual(1);
    if (want.name !== undefined && want.args !== "" && want.nameFirst !== undefined) {
      const iName = out.findIndex((o) => o.kind === "name");
      const iArgs = out.findIndex((o) => o.kind === "args");
      expect(iName < iArgs).toBe(want.nameFirst);
    }
    first ??= out;
  }
  return first as Out[];
}

describe("ToolCallScanner: well-formed calls", () => {
  it("a Qwen3 call as the template writes it", () => {
    const out = check('\n{"name": "get_weather", "arguments": {"location": "Paris", "unit": "celsius"}}\n', {
      name: "get_weather",
      args: '{"location": "Paris", "unit": "celsius"}',
      nameFirst: true,
    });
    expect(out).toEqual([
      { kind: "name", text: "get_weather" },
      { kind: "args", text: '{"location": "Paris", "unit": "celsius"}' },
    ]);
  });

  it('escaped quotes, "}" and "]" inside strings, escaped backslashes', () => {
    check(String.raw`{"name": "f", "arguments": {"q": "a \"}\" b", "r": "]}\\", "s\"}": "\\\""}}`, {
      name: "f",
      args: String.raw`{"q": "a \"}\" b", "r": "]}\\", "s\"}": "\\\""}`,
    });
  });

  it("nested objects and arrays, all literals, numbers in every form", () => {
    const args = '{"a":{"b":[1,[2,{"c":null}],true,false]},"d":[],"e":{},"n":[-0,0.5,-12.25e+3,1E-7,10e2]}';
    const out = check(`{"name":"f","arguments":${args}}`, { name: "f", args });
    expect(
      JSON.parse(
        out
          .filter((o) => o.kind === "args")
          .map((o) => o.text)
          .join(""),
      ),
    ).toEqual(JSON.parse(args));
  });

  it("unicode escapes in the name and in the keys (decoded, surrogate pairs joined)", () => {
    check(String.raw`{"name": "caf\u00e9_\uD83D\ude00\n\t\/", "arguments": {"k": "\u0041"}}`, {
      name: "café_😀\n\t/",
      args: String.raw`{"k": "\u0041"}`,
    });
    check(String.raw`{"n\u0061me": "x", "\u0061rguments": {"k": 1}}`, { name: "x", args: '{"k": 1}' });
  });

  it("keys in either order: arguments first, name after them", () => {
    const out = check('{"arguments": {"x": [1, 2]}, "name": "late"}', {
      name: "late",
      args: '{"x": [1, 2]}',
      nameFirst: false,
    });
    expect(out.map((o) => o.kind)).toEqual(["args", "name"]);
  });

  it("whitespace and newlines everywhere; inner whitespace is part of the value, outer is not", () => {
    check('\n  {\n  "name"  :\n "f" ,\r\n\t"arguments" :  \n  { "a" : [ 1 ,\n 2 ] }  \n}\n', {
      name: "f",
      args: '{ "a" : [ 1 ,\n 2 ] }',
    });
    // What String.prototype.trim removes may precede the object (the call parser trims).
    check('\u00a0\ufeff\u3000{"name": "f", "arguments": {}}', { name: "f", args: "{}" });
  });

  it("arguments as a string (not streamed: decoded once by the call parser), as an empty object, as a number, as a literal, as an array", () => {
    check(String.raw`{"name": "f", "arguments": "{\"a\": 1}"}`, { name: "f", args: "" });
    check('{"name": "f", "arguments": {}}', { name: "f", args: "{}" });
    check('{"arguments": -0.5e-3, "name": "f"}', { name: "f", args: "-0.5e-3" });
    check('{"arguments":12}', { args: "12" });
    check('{"name": "f", "arguments": true }', { name: "f", args: "true" });
    check('{"name": "f", "arguments": [ ] }', { name: "f", args: "[ ]" });
  });

  // Key rules, one row per check: the call text, what streams, the name cap if any.
  const KEY_RULES: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, Expect, number?]>]> = [
    [
      'InternLM2 "parameters" (and either key name in any format)',
      [['{"name": "search", "parameters": {"query": "x"}}', { name: "search", args: '{"query": "x"}' }]],
    ],
    [
      "no arguments key: the name only; other keys are skipped",
      [['{"id": "call_1", "name": "f", "extra": {"arguments": [1]}}', { name: "f", args: "" }]],
    ],
    [
      '"name" and "arguments" only count at the top level',
      [
        [
          '{"arguments": {"name": "inner", "arguments": 1}, "name": "outer"}',
          { name: "outer", args: '{"name": "inner", "arguments": 1}' },
        ],
        ['{"meta": {"name": "no"}, "name": "yes", "arguments": {}}', { name: "yes", args: "{}" }],
      ],
    ],
    [
      "a key longer than any key looked for, starting like one, is another key",
      [['{"argumentsargumentsarguments": {"a": 1}, "namename": "x", "name": "f"}', { name: "f", args: "" }]],
    ],
    [
      "duplicate keys: the first name and the first arguments value are the ones streamed",
      [
        [
          '{"name": "a", "arguments": {"x": 1}, "name": "b", "parameters": {"y": 2}}',
          { name: "a", args: '{"x": 1}' },
        ],
      ],
    ],
    [
      "a non-string name is not reported; a name longer than the cap is not reported",
      [
        ['{"name": 5, "arguments": {}}', { args: "{}" }],
        ['{"name": "abcd", "arguments": {}}', { args: "{}" }, 3],
        ['{"name": "abc", "arguments": {}}', { name: "abc", args: "{}" }, 3],
      ],
    ],
    [
      "text after the closed object changes nothing",
      [
        [
          '{"name": "f", "arguments": {"a": 1}} trailing {"name": "g", "arguments": [2]}',
          { name: "f", args: '{"a": 1}' },
        ],
      ],
    ],
  ];
  for (const [title, rows] of KEY_RULES)
    it(title, () => {
      for (const [text, want, maxName] of rows) check(text, want, maxName);
    });
});

describe("ToolCallScanner: malformed text stops the stream where it becomes malformed", () => {
  it("a bad literal", () => {
    check('{"name": "f", "arguments": {"a": tru e}}', { name: "f", args: '{"a": tru' });
  });

  it("a leading zero, a lone minus, a dot without digits, an exponent without digits", () => {
    check('{"name": "f", "arguments": {"a": 01}}', { name: "f", args: '{"a": 0' });
    check('{"name": "f", "arguments": {"a": -}}', { name: "f", args: '{"a": -' });
    check('{"name": "f", "arguments": {"a": 1.}}', { name: "f", args: '{"a": 1.' });
    check('{"name": "f", "arguments": {"a": 1e+}}', { name: "f", args: '{"a": 1e+' });
    check('{"name": "f", "arguments": {"a": 0x1f}}', { name: "f", args: '{"a": 0' });
    check('{"name": "f", "arguments": {"a": +1}}', { name: "f", args: '{"a": ' });
  });

  it("a raw control character in a string, a bad escape, a bad \\u escape", () => {
    check('{"name": "f", "arguments": {"a": "x\ny"}}', { name: "f", args: '{"a": "x' });
    check(String.raw`{"name": "f", "arguments": {"a": "x\qy"}}`, { name: "f", args: '{"a": "x\\' });
    check(String.raw`{"name": "f", "arguments": {"a": "\u12G4"}}`, { name: "f", args: '{"a": "\\u12' });
  });

  it("a trailing comma, a missing colon, a missing comma, a mismatched bracket", () => {
    check('{"name":"f","arguments":{"a":1,}}', { name: "f", args: '{"a":1,' });
    check('{"name":"f","arguments":{"a" 1}}', { name: "f", args: '{"a" ' });
    check('{"name":"f","arguments":{"a":1 "b":2}}', { name: "f", args: '{"a":1 ' });
    check('{"name":"f","arguments":{"a":[1}}', { name: "f", args: '{"a":[1' });
    check('{"name":"f","arguments":{"a":1]}', { name: "f", args: '{"a":1' });
  });

  it("broken before the name or the arguments: nothing of them", () => {
    check('{"name" "f", "arguments": {}}', { args: "" });
    check('{name: "f", "arguments": {}}', { args: "" });
    check('{"name": "f" "arguments": {}}', { name: "f", args: "" });
    check('{"name": "f", "arguments": }', { name: "f", args: "" });
  });

  it("not an object at the top: nothing", () => {
    check('["f", {"name": "g", "arguments": {}}]', { args: "" });
    check('x{"name": "f", "arguments": {}}', { args: "" });
  });

  it("text that ends early: what arrived, nothing closed", () => {
    check('{"name": "f", "arguments": {"a": [1, {"b": "x', { name: "f", args: '{"a": [1, {"b": "x' });
    check('{"name": "unfinished', { args: "" });
  });

  it("reset() starts a new call", () => {
    const out: string[] = [];
    const s = new ToolCallScanner({
      onToolCallName: (n) => out.push(`name:${n}`),
      onToolCallArguments: (t) => out.push(`args:${t}`),
    });
    s.feed('{"name": "a", "arguments": {"x": ');
    s.reset();
    s.feed('{"name": "b", "arguments": {"y": 2}}');
    expect(out).toEqual(["name:a", 'args:{"x": ', "name:b", 'args:{"y": 2}']);
    expect(s.done).toBe(true);
  });
});
