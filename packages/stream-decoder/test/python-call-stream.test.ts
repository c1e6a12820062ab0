// The "python-call" body (ChatGLM3) read as it arrives must give, for ANY body and chunking,
// exactly the result of parsing the whole body at the close (parsePythonToolCall: the fence
// stripped, then the Python call parsed), and the plain shapes a model writes must be read by
// the streaming reader itself (its result does not need the raw text).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePythonToolCall } from "../src/action-parse.ts";
import { PythonCallParser } from "../src/syntax/python-call.ts";
import type { ToolCallSink } from "../src/tool-call-scanner.ts";
import { feedBody } from "./body-support.ts";

/**
 * Feeds `body` cut at `cuts` (offsets, any order); `raw` is what end() gets. Odd offset counts
 * feed the way the decoder's fast path does (JSON-plain chunks through feedPlain, in runs).
 */
function read(body: string, cuts: readonly number[], raw = body, max?: number) {
  const deltas: string[] = [];
  const names: string[] = [];
  const sink: ToolCallSink = {
    onToolCallName: (n) => names.push(n),
    onToolCallArguments: (d) => deltas.push(d),
  } as ToolCallSink;
  const p = new PythonCallParser(max);
  p.reset(sink, undefined, "write_file");
  const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const c of [...at, body.length]) {
    if (c > from) chunks.push(body.slice(from, c));
    from = Math.max(from, c);
  }
  feedBody(p, chunks, cuts.length % 2 === 1);
  return { result: p.end(raw), deltas, names };
}

// ---- generated bodies ----
const ESCAPES = [
  "\\n",
  "\\t",
  "\\\\",
  "\\'",
  '\\"',
  "\\a",
  "\\b",
  "\\f",
  "\\v",
  "\\r",
  "\\x41",
  "\\xe9",
  "\\u00e9",
  "\\u4e2d",
  "\\ud83d\\ude00",
  "\\U0001F600",
  "\\101",
  "\\7",
  "\\0",
  "\\1234",
  "\\\n",
  "\\\r\n",
  "\\\r",
  "\\q",
  "\\ ",
  "\\N{DASH}",
  "\\xZ1",
  "\\u12",
  "\\U00110000",
  "\\",
];
const PLAIN = ["a", "Z", " ", "é", "中", "😀", "#", "(", ")", ",", "=", "`", "```", "[", "]", "{", "}", "\t"];
const fragment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PLAIN) },
  { weight: 1, arbitrary: fc.constantFrom(...ESCAPES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const strBody = (q: string) =>
  fc.array(fc.oneof(fragment, fc.constant(q === "'" ? '"' : "'")), { maxLength: 8 }).map((xs) => xs.join(""));
const quoted = fc.constantFrom("'", '"').chain((q) => strBody(q).map((b) => `${q}${b}${q}`));
const space = fc.constantFrom("", " ", "  ", "\t", "\n", "\r\n", "\f", " \n ");
const scalar = fc.oneof(
  quoted,
  fc.integer().map(String),
  fc.constantFrom("True", "False", "None", "1.5", "-2", "+ 3", "0x1F", "1_000", "1e3", "01", "1j", "x"),
);
const literal: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("v"), { maxLength: 3 }).map((xs) => `[${xs.join(", ")}]`),
    fc.array(tie("v"), { maxLength: 3 }).map((xs) => `(${xs.join(", ")}${xs.length === 1 ? "," : ""})`),
    fc
      .array(fc.tuple(quoted, tie("v")), { maxLength: 2 })
      .map((xs) => `{${xs.map(([k, v]) => `${k}: ${v}`).join(", ")}}`),
  ),
})).v;
/** Value spellings the streaming reader leaves to the fallback (adjacent literals, prefixes, triple quotes, comments). */
const unusual = fc.constantFrom(
  "'a' 'b'",
  "r'\\d'",
  "u'x'",
  "'''a'b'''",
  '""',
  "''",
  "1 # c\n",
  "'a'  # c\n",
  "[1,\\\n2]",
);
const value = fc.oneof({ weight: 6, arbitrary: literal }, { weight: 1, arbitrary: unusual });
const key = fc.constantFrom("path", "content", "a", "_k2", "__proto__", "path", "x y", "1a");
const call = fc
  .tuple(
    fc.array(fc.tuple(key, space, space, value, space), { maxLength: 4 }),
    fc.boolean(),
    fc.constantFrom("tool_call", "tool_call", "toolcall", "f"),
    space,
  )
  .map(
    ([args, trailing, name, sp]) =>
      `${name}${sp}(${args.map(([k, s1, s2, v, s3]) => `${k}${s1}=${s2}${v}${s3}`).join(",")}${trailing && args.length > 0 ? "," : ""})`,
  );
const fence = fc.constantFrom(
  ["", ""],
  ["```python\n", "\n```"],
  ["```\n", "\n```"],
  ["```python \r\n", "\r\n```"],
  ["```py\t\n", "```"],
  ["``` python\n", "\n```"],
  ["```python\n", ""],
  ["", "\n```"],
  ["````\n", "\n````"],
);
const body = fc
  .tuple(space, fence, space, call, space, space, fc.constantFrom("", "", "", "x", "\u00a0", "```"))
  .map(([s1, [open, close], s2, c, s3, s4, tail]) => `${s1}${open}${s2}${c}${s3}${close}${s4}${tail}`);
/** A body with one unit inserted, removed or replaced (near-misses of every rule). */
const mutated = fc
  .tuple(
    body,
    fc.nat(),
    fc.constantFrom("'", '"', "\\", "(", ")", ",", "=", "#", "`", "\n", "\r", "a", " ", ""),
    fc.nat(2),
  )
  .map(([b, at, u, how]) => {
    const i = at % (b.length + 1);
    return how === 0
      ? b.slice(0, i) + u + b.slice(i)
      : how === 1
        ? b.slice(0, i) + b.slice(i + 1)
        : b.slice(0, i) + u + b.slice(i + 1);
  });
const cuts = fc.array(fc.nat(400), { maxLength: 12 });

describe("python-call read as it arrives", () => {
  it("gives parsePythonToolCall's result for any body and chunking, and one arguments delta for a call", () => {
    fc.assert(
      fc.property(fc.oneof(body, mutated), cuts, (b, cs) => {
        const { result, deltas, names } = read(b, cs);
        expect(result).toEqual(parsePythonToolCall(b, "write_file"));
        expect(names).toEqual(["write_file"]);
        expect(deltas).toEqual("call" in result ? [JSON.stringify(result.call.arguments)] : []);
      }),
      { seed: 4101, numRuns: 3000 },
    );
  });

  it("reads the plain shapes itself: the call does not come from the raw text", () => {
    const plainValue = fc.oneof(
      fc
        .constantFrom("'", '"')
        .chain((q) =>
          fc
            .array(fc.constantFrom(...PLAIN, ...ESCAPES.slice(0, 23)), { maxLength: 10 })
            .map((xs) => `${q}${xs.join("").replaceAll(q, `\\${q}`)}${q}`),
        ),
      fc.constantFrom("1", "-2.5", "True", "None", "[1, 'a', {'k': (2,)}]"),
    );
    const plainCall = fc
      .tuple(
        fc.uniqueArray(fc.constantFrom("path", "content", "mode", "n"), { maxLength: 3 }),
        fc.array(plainValue, { minLength: 3, maxLength: 3 }),
      )
      .map(([ks, vs]) => `tool_call(${ks.map((k, i) => `${k}=${vs[i]}`).join(", ")})`);
    fc.assert(
      fc.property(plainCall, fc.boolean(), cuts, (c, fenced, cs) => {
        const b = fenced ? `\`\`\`python\n${c}\n\`\`\`` : c;
        const whole = parsePythonToolCall(b, "write_file");
        fc.pre("call" in whole);
        // end("") would make the fallback fail: the result is the streaming reader's.
        expect(read(b, cs, "").result).toEqual(whole);
      }),
      { seed: 4102, numRuns: 1000 },
    );
  });

  it("a long string argument is decoded piece by piece (escapes cut anywhere)", () => {
    const text = "line 1\nline 2 \\ 'quoted' \"dq\" é 中 😀 ".repeat(200);
    const py = `tool_call(path='notes.md', content='${text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll("'", "\\'")}')`;
    for (const step of [1, 2, 3, 7, 64]) {
      const cs: number[] = [];
      for (let i = step; i < py.length; i += step) cs.push(i);
      expect(read(py, cs, "").result).toEqual({
        call: { name: "write_file", arguments: { path: "notes.md", content: text } },
      });
    }
  });

  it("falls back past maxBufferedChars, a separator, or nesting at the cap", () => {
    const b = "tool_call(a='xxxxxxxxxx')";
    expect(read(b, [3, 9], "", 10).result).toEqual(parsePythonToolCall("", "write_file"));
    expect(read(b, [3, 9], b, 10).result).toEqual(parsePythonToolCall(b, "write_file"));
    const p = new PythonCallParser();
    p.reset(null, undefined, "k");
    p.feed("tool_call(a=1");
    p.separator();
    p.feed(")");
    expect(p.end("")).toEqual(parsePythonToolCall("", "k"));
    for (const d of [62, 63, 64, 65]) {
      const deep = `tool_call(a=${"[".repeat(d)}${"]".repeat(d)})`;
      expect(read(deep, [5, 20]).result).toEqual(parsePythonToolCall(deep, "write_file"));
    }
  });
});
