// Body syntax "response-field" (a response_template tool-call region): the header read after
// the open marker, the json (lax knobs), xml-inline and kv-lines contents, the transform's name
// and arguments, typing by the tool's schema, errors as results, and streaming: the name as soon
// as the header is read, the arguments as deltas that concatenate to the final arguments JSON,
// identical under any chunking.
import type { ResponseFieldBody } from "@chatwire/tokenizer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ActionResult } from "../src/action-parse.ts";
import { createResponseFieldParser, matchItems } from "../src/syntax/response-field.ts";
import { LAX_CALL_REGION } from "./body-support.ts";
import { objectOf } from "./schema-support.ts";
import { splitAt } from "./split-at.ts";

/** The compiled region of a tool-call open pattern `<\|tool_call>call:(?P<name>\w+)` with lax JSON. */
const LAX: ResponseFieldBody = LAX_CALL_REGION;

const XML: ResponseFieldBody = {
  header: [{ ws: true }, { lit: "<function=" }, { word: "name" }, { lit: ">" }],
  content: "xml-inline",
  tag: [
    { lit: "<parameter=" },
    { word: "key" },
    { lit: ">" },
    { ws: true },
    { lazy: "value" },
    { ws: true },
    { lit: "</parameter>" },
  ],
  valueParser: "json-or-text",
  name: { capture: "name" },
  arguments: { content: [] },
};

const KV: ResponseFieldBody = {
  header: [],
  content: "kv-lines",
  lineSep: "\n",
  kvSep: ":",
  strip: true,
  name: { content: ["tool"] },
  arguments: { content: [] },
};

const DOTTED: ResponseFieldBody = {
  header: [],
  content: "json",
  name: { content: ["name"] },
  arguments: { content: ["args"] },
};

interface Run {
  result: ActionResult;
  events: string[];
  name: string | undefined;
  deltas: string;
}

function run(field: ResponseFieldBody, chunks: readonly string[], tools?: Map<string, unknown>): Run {
  const p = createResponseFieldParser({
    maxBufferedChars: 1 << 16,
    argumentsKey: "arguments",
    responseField: field,
  });
  const events: string[] = [];
  let name: string | undefined;
  let deltas = "";
  p.reset(
    {
      onToolCallName(n) {
        events.push(`name:${n}`);
        name = n;
      },
      onToolCallArguments(t) {
        events.push(`args:${t}`);
        deltas += t;
      },
    },
    tools,
  );
  for (const c of chunks) {
    p.feed(c);
    events.push("chunk");
  }
  return { result: p.end(chunks.join("")), events, name, deltas };
}

const call = (r: ActionResult): unknown => ("call" in r ? r.call : r);

describe("response-field body syntax", () => {
  it("reads a captured name and lax JSON arguments (delimited strings, bare keys)", () => {
    const body =
      'call:foo{bool_value:true,list_value:[<|"|>foo<|"|>,<|"|>bar<|"|>],null_value:null,number_value:1,' +
      'string_value:<|"|>a, b:c<|"|>,struct_value:{foo:<|"|>bar<|"|>}}';
    expect(call(run(LAX, [body]).result)).toEqual({
      name: "foo",
      arguments: {
        bool_value: true,
        list_value: ["foo", "bar"],
        null_value: null,
        number_value: 1,
        string_value: "a, b:c",
        struct_value: { foo: "bar" },
      },
    });
  });

  it("reads a reserved string delimiter back from the separator marker", () => {
    const p = createResponseFieldParser({
      maxBufferedChars: 1 << 16,
      argumentsKey: "arguments",
      responseField: { ...LAX, separatorText: '<|"|>' },
    });
    p.reset(null, undefined);
    expect(p.readsText?.()).toBe(true);
    for (const piece of ["call:f{a:", null, "x, y:1", null, ",b:[", null, "c", null, "]}"])
      if (piece === null) p.separator();
      else p.feed(piece);
    // The decoder's text holds no marker: what it passes is not read.
    expect(call(p.end("call:f{a:x, y:1,b:[c]}"))).toEqual({
      name: "f",
      arguments: { a: "x, y:1", b: ["c"] },
    });
  });

  it("reads xml-inline parameters, values through the JSON value parser (text when not JSON)", () => {
    const body =
      '\n<function=get_weather>\n<parameter=locations>\n[{"country": "France"}]\n</parameter>\n' +
      "<parameter=temp_units>\ncelsius\n</parameter>\n</function>\n";
    expect(call(run(XML, [body]).result)).toEqual({
      name: "get_weather",
      arguments: { locations: [{ country: "France" }], temp_units: "celsius" },
    });
  });

  it("reads kv-lines and takes the name from the content", () => {
    expect(call(run(KV, ["\ntool: lookup\n city : Paris \nno separator\n"]).result)).toEqual({
      name: "lookup",
      arguments: { tool: "lookup", city: "Paris" },
    });
  });

  it("follows dotted transform paths; a missing key is an error result", () => {
    expect(call(run(DOTTED, ['{"name": "w", "args": {"city": {"id": 7}}}']).result)).toEqual({
      name: "w",
      arguments: { city: { id: 7 } },
    });
    expect(run(DOTTED, ['{"name": "w"}']).result).toEqual({ error: "missing key 'args'" });
  });

  it("decodes arguments written as a JSON string once", () => {
    expect(call(run(DOTTED, ['{"name": "w", "args": "{\\"x\\": 1}"}']).result)).toEqual({
      name: "w",
      arguments: { x: 1 },
    });
  });

  it("casts string values by the tool's schema as transformers does (_coerce)", () => {
    const tools = new Map<string, unknown>([
      [
        "f",
        objectOf({
          n: "integer",
          x: "number",
          b: "boolean",
          z: ["null", "string"],
          o: "object",
          s: "string",
          bad: "integer",
        }),
      ],
    ]);
    const body = 'tool:f\nn: 12\nx: 1.5\nb: True\nz: None\no: {"k": [1]}\ns: 12\nbad: 1.5';
    expect(call(run(KV, [body], tools).result)).toEqual({
      name: "f",
      arguments: { tool: "f", n: 12, x: 1.5, b: true, z: null, o: { k: [1] }, s: "12", bad: "1.5" },
    });
  });

  it("a schema with 200k anyOf alternatives casts like a small one (no stack-sized limit, no throw)", () => {
    const wide = { anyOf: [{ anyOf: Array.from({ length: 200_000 }, () => ({ type: "integer" })) }] };
    const tools = new Map<string, unknown>([["f", { type: "object", properties: { n: wide } }]]);
    expect(call(run(KV, ["tool:f\nn: 12"], tools).result)).toEqual({
      name: "f",
      arguments: { tool: "f", n: 12 },
    });
  });

  it("never throws on a malformed body: an error result", () => {
    expect(run(LAX, ["nocall{a:1}"]).result).toEqual({
      error: "the region does not start as its open pattern reads",
    });
    expect("error" in run(LAX, ["call:f{a:"]).result).toBe(true);
    expect("error" in run(DOTTED, ["[1, 2]"]).result).toBe(true);
    expect("error" in run(LAX, ["call:f{a:\u0001}"]).result).toBe(true);
    expect("error" in run(DOTTED, [`{"name": "w", "args": ${"[".repeat(5000)}}`]).result).toBe(true);
  });

  it("streams the captured name before any argument delta; deltas concatenate to the arguments", () => {
    const r = run(LAX, ["cal", "l:ge", "t_time", "{city:", '<|"|>Paris<|"|>}']);
    expect(r.events.indexOf("name:get_time")).toBeLessThan(r.events.findIndex((e) => e.startsWith("args:")));
    // The name is known once a character after the word arrives ("{" in the last chunk here).
    expect(r.events.indexOf("name:get_time")).toBeLessThan(r.events.lastIndexOf("chunk"));
    expect(JSON.parse(r.deltas)).toEqual({ city: "Paris" });
  });

  it("gives the same call, name and deltas under any chunking", () => {
    const bodies: Array<[ResponseFieldBody, string]> = [
      [LAX, 'call:foo{a:<|"|>x, y<|"|>,b:[1,2],c:{d:null}}'],
      [
        XML,
        "\n<function=f>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\nhi there\n</parameter>\n</function>",
      ],
      [KV, "tool: t\nk: v\n"],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...bodies),
        fc.array(fc.nat(), { maxLength: 12 }),
        ([field, body], cuts) => {
          const chunks = splitAt(body, cuts);
          const whole = run(field, [body]);
          const split = run(field, chunks);
          expect(split.result).toEqual(whole.result);
          expect(split.name).toBe(whole.name);
          expect(split.deltas).toBe(whole.deltas);
          if ("call" in whole.result) expect(JSON.parse(split.deltas)).toEqual(whole.result.call.arguments);
        },
      ),
      { numRuns: 200, seed: 37 },
    );
  });

  it("JSON arguments stream one top-level member at a time, each as JSON.stringify writes it", () => {
    const tools = new Map<string, unknown>([
      ["get_time", { type: "object", properties: { days: { type: "integer" }, city: { type: "string" } } }],
    ]);
    const r = run(
      LAX,
      [
        "call:get_time{city:",
        '<|"|>Par',
        'is, "x"<|"|>,da',
        'ys:<|"|>3<|"|>,opts:{a: [1, 2.50]',
        ",b:null}}",
      ],
      tools,
    );
    expect(r.events).toEqual([
      "name:get_time",
      "chunk",
      "chunk",
      'args:{"city":"Paris, \\"x\\""',
      "chunk",
      'args:,"days":3',
      "chunk",
      'args:,"opts":{"a":[1,2.5],"b":null}',
      "chunk",
      "args:}",
    ]);
    expect(r.deltas).toBe(JSON.stringify({ city: 'Paris, "x"', days: 3, opts: { a: [1, 2.5], b: null } }));
  });

  it("a key written twice after its first value streamed: an error, streamed or not", () => {
    const why = "a key is written twice after its first value was streamed";
    expect(run(LAX, ["call:f{a:1,b:2,a:3}"]).result).toEqual({ error: why });
    const p = createResponseFieldParser({
      maxBufferedChars: 1 << 16,
      argumentsKey: "arguments",
      responseField: LAX,
    });
    p.reset(null, undefined);
    p.feed("call:f{a:1,b:2,a:3}");
    expect(p.end("call:f{a:1,b:2,a:3}")).toEqual({ error: why });
    // Twice inside one member: read as the whole is (the last value), nothing streamed before it.
    expect(call(run(LAX, ["call:f{a:{x:1,x:2}}"]).result)).toEqual({ name: "f", arguments: { a: { x: 2 } } });
  });

  it("random lax objects under any chunking: deltas are the arguments' JSON, the result is the unstreamed one", () => {
    const word = fc.stringMatching(/^[a-z_][a-z0-9_]{0,4}$/);
    const text = fc.string({ unit: fc.constantFrom(...'ab ,:{}[]"\\é😀\n'.split("")), maxLength: 6 });
    const leaf = fc.oneof(
      text.map((t) => ({ lax: `<|"|>${t}<|"|>`, v: t as unknown })),
      text.map((t) => ({ lax: JSON.stringify(t), v: t as unknown })),
      fc.integer({ min: -1000, max: 1000 }).map((n) => ({ lax: String(n), v: n as unknown })),
      fc.constantFrom(
        { lax: "true", v: true as unknown },
        { lax: "null", v: null as unknown },
        { lax: "1.50", v: 1.5 as unknown },
      ),
    );
    const value = fc.oneof(
      leaf,
      fc
        .array(leaf, { maxLength: 3 })
        .map((xs) => ({ lax: `[${xs.map((x) => x.lax).join(", ")}]`, v: xs.map((x) => x.v) as unknown })),
    );
    const obj = fc.uniqueArray(fc.tuple(word, value), { selector: ([k]) => k, maxLength: 4 });
    let calls = 0;
    fc.assert(
      fc.property(obj, fc.array(fc.nat(), { maxLength: 10 }), (members, cuts) => {
        const body = `call:f{${members.map(([k, x]) => `${k}:${x.lax}`).join(",")}}`;
        const chunks = splitAt(body, cuts);
        const streamed = run(LAX, chunks);
        const p = createResponseFieldParser({
          maxBufferedChars: 1 << 16,
          argumentsKey: "arguments",
          responseField: LAX,
        });
        p.reset(null, undefined);
        for (const c of chunks) p.feed(c);
        // The region read at its close, unstreamed, is the reference (the lax reading may refuse
        // a JSON string that holds `,word:`).
        const reference = p.end(body);
        expect(streamed.result).toEqual(reference);
        if ("call" in reference) {
          calls++;
          expect(reference.call.arguments).toEqual(Object.fromEntries(members.map(([k, x]) => [k, x.v])));
          expect(streamed.deltas).toBe(JSON.stringify(reference.call.arguments));
        }
      }),
      { numRuns: 300, seed: 37 },
    );
    expect(calls).toBeGreaterThan(250);
  });

  it("never throws on any body text", () => {
    const pieces = fc.oneof(
      fc.constantFrom(
        "call:",
        "f",
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        '<|"|>',
        "<parameter=",
        ">",
        "</parameter>",
        "\n",
        "\u0001",
      ),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(LAX, XML, KV, DOTTED),
        fc.array(pieces, { maxLength: 30 }),
        (field, parts) => {
          const r = run(field, parts).result;
          if ("error" in r) expect(r.error).not.toMatch(/^internal error/);
        },
      ),
      { numRuns: 500, seed: 37 },
    );
  });

  it("stays linear on long runs: a word over 256 characters fails, a missing terminator ends the search", () => {
    const long = "a".repeat(300);
    expect(matchItems(LAX.header, `call:${long}{`, 0, true)).toBe(null);
    const tags = `${"<parameter=k>".repeat(20_000)}x`;
    const t0 = performance.now();
    expect(call(run(XML, [`\n<function=f>${tags}`]).result)).toEqual({ name: "f", arguments: {} });
    expect(run({ ...XML, header: [] }, [`<parameter=${"w".repeat(200_000)}`]).result).toEqual({
      error: "the call has no name",
    });
    // Quadratic work would take minutes here; linear takes milliseconds.
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it("matches pattern items anchored and reports when more text is needed", () => {
    const items = LAX.header;
    expect(matchItems(items, "call:get_x{", 0, false)).toEqual({ end: 10, groups: { name: "get_x" } });
    expect(matchItems(items, "cal", 0, false)).toBe("more");
    expect(matchItems(items, "call:get", 0, false)).toBe("more");
    expect(matchItems(items, "call:get", 0, true)).toEqual({ end: 8, groups: { name: "get" } });
    expect(matchItems(items, "x", 0, false)).toBe(null);
  });
});
