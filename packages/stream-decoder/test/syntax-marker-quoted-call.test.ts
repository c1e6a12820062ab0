// The "marker-quoted-call" body syntax (Gemma 4's `<|tool_call>call:NAME{k:<|"|>v<|"|>,n:1}<tool_call|>`),
// driven as the decoder drives it: text chunks, and separator() where the quote marker is. The
// reference is the generated call itself, written the way Gemma 4's template writes it
// (format_argument: bare keys, marker-quoted strings, true / false, None, Python's str() of a
// number, dictsort'ed objects): any chunking, streamed or not, gives that call; the streamed
// deltas concatenate to the arguments JSON; garbage never throws and is chunk-invariant.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../src/python-literal.ts";
import type { BodyParser } from "../src/syntax/body.ts";
import {
  bodyParser,
  cutsArb,
  drivePieces,
  expectCall,
  expectChunkInvariant,
  type Piece,
  SEP,
  scalarArb,
} from "./body-support.ts";
import { agreedCalls, burstsArb, expectStreamedCalls, haveTemplate } from "./derived-format-support.ts";

/** The quote marker in a body written as parts. */
const Q: typeof SEP = SEP;
type Part = Piece;

const parser = (max?: number): BodyParser => bodyParser("marker-quoted-call", max);
const drive = (p: BodyParser, parts: readonly Part[], streamed: boolean) =>
  drivePieces(p, parts, streamed, { kind: "tool_call" });

/** Gemma 4's format_argument(value, escape_keys=False). */
function gemmaValue(v: JsonValue): Part[] {
  if (typeof v === "string") return [Q, v, Q];
  if (v === true) return ["true"];
  if (v === false) return ["false"];
  if (v === null) return ["None"];
  if (typeof v === "number") return [String(v)];
  if (Array.isArray(v)) {
    const out: Part[] = ["["];
    v.forEach((x, i) => {
      if (i > 0) out.push(",");
      out.push(...gemmaValue(x));
    });
    out.push("]");
    return out;
  }
  const out: Part[] = ["{"];
  Object.keys(v)
    .sort()
    .forEach((k, i) => {
      if (i > 0) out.push(",");
      out.push(`${k}:`, ...gemmaValue(v[k] as JsonValue));
    });
  out.push("}");
  return out;
}

const label = (parts: readonly Part[]): string => parts.map((p) => (p === Q ? "‹q›" : p)).join("");

const gemmaCall = (name: string, args: { [k: string]: JsonValue }): Part[] => [
  `call:${name}`,
  ...gemmaValue(args),
];

const key = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,6}$/);
const scalar = scalarArb(
  fc.string({ unit: fc.constantFrom(...[..."ab z\n\t'\"é😀{}[](),:=\\"]), maxLength: 8 }),
);
const value: fc.Arbitrary<JsonValue> = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(key, fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), { maxKeys: 3 }),
);
const argsArb = fc.dictionary(key, value, { maxKeys: 4 });

describe("marker-quoted-call: a call as Gemma 4's template writes it, any chunking", () => {
  it("round trip (the generated call is the reference)", () => {
    fc.assert(
      fc.property(key, argsArb, cutsArb, fc.boolean(), (name, args, cuts, streamed) => {
        expectCall(
          parser,
          gemmaCall(name, args),
          cuts,
          streamed,
          { name, arguments: args },
          { kind: "tool_call" },
        );
      }),
      { numRuns: 400 },
    );
  });

  it("worked examples: the peers' Gemma 4 cases", () => {
    const cases: [Part[], string, { [k: string]: JsonValue }][] = [
      [["call:get_time{city:", Q, "London", Q, "}"], "get_time", { city: "London" }],
      [["call:empty_args{}"], "empty_args", {}],
      [["call:special_function{arg1:-7}"], "special_function", { arg1: -7 }],
      [["call:amount{orig:1.5e10}"], "amount", { orig: 1.5e10 }],
      [["call:set_nullable{value:null}"], "set_nullable", { value: null }],
      [["call:toggle{enabled:false}"], "toggle", { enabled: false }],
      [
        ["call:todo_list{todos:[", Q, "buy milk", Q, ",", Q, "walk dog", Q, "]}"],
        "todo_list",
        { todos: ["buy milk", "walk dog"] },
      ],
      [
        ["call:set_config{config:{theme:", Q, "dark", Q, ",count:3}}"],
        "set_config",
        { config: { theme: "dark", count: 3 } },
      ],
      [["call:f{", Q, "quoted key", Q, ":bare word, n : 2 }"], "f", { "quoted key": "bare word", n: 2 }],
      [["get_time{city:", Q, "Paris", Q, "}"], "get_time", { city: "Paris" }],
    ];
    for (const streamed of [false, true])
      for (const [parts, name, args] of cases) {
        const o = drive(parser(), parts, streamed);
        expect(o.result, label(parts)).toEqual({ call: { name, arguments: args } });
        if (streamed) expect(JSON.parse(o.args)).toEqual(args);
      }
  });

  it("streams a string's text as it arrives, in json.dumps spelling", () => {
    const names: string[] = [];
    const deltas: string[] = [];
    const p = parser();
    p.reset({ onToolCallName: (n) => names.push(n), onToolCallArguments: (t) => deltas.push(t) }, undefined);
    p.feed("call:get_time{city:");
    expect(names).toEqual(["get_time"]);
    p.separator();
    p.feed("San ");
    p.feed('Fran"cisco');
    p.separator();
    p.feed(",days:3}");
    expect(p.end("")).toEqual({ call: { name: "get_time", arguments: { city: 'San Fran"cisco', days: 3 } } });
    expect(deltas).toEqual(['{"city": ', '"San ', 'Fran\\"cisco', '", "days": 3}']);
  });

  it("malformed bodies are error results, never calls or throws", () => {
    const cases: [Part[], string][] = [
      [[""], 'the tool call has no "{" after its name'],
      [["call:{}"], "the tool call has an empty or multi-line name"],
      [["call:f{a:1"], "the call's arguments are not closed"],
      [["call:f{a:", Q, "x"], "the call's arguments are not closed"],
      [["call:f{a:1]"], "unexpected ]"],
      [["call:f{a:1,a:2}"], 'key "a" repeated'],
      [["call:f{a:1} x"], "text after the call's arguments"],
      [["call:f{a:1,}"], "unexpected } where a key should be"],
      [["call:f{a:[1,]}"], "unexpected ] where a value should be"],
      [["call:f{a", Q], "a quote marker where no string can start"],
      [["call:f{a:1", Q], "a quote marker where no string can start"],
    ];
    for (const streamed of [false, true])
      for (const [parts, error] of cases)
        expect(drive(parser(), parts, streamed).result, label(parts)).toEqual({ error });
  });

  it("bounds: a body longer than maxBufferedChars, nesting deeper than 200", () => {
    expect(drive(parser(100), ["call:f{a:", Q, "x".repeat(200), Q, "}"], true).result).toEqual({
      error: "the tool call body is longer than 100 characters",
    });
    expect(drive(parser(), [`call:f{a:${"[".repeat(300)}`], false).result).toEqual({
      error: "the call is nested deeper than 200 levels",
    });
  });

  it("garbage never throws and is chunk-invariant", () => {
    const unit = fc.constantFrom<Part>(Q, ..."{}[]:, \nabc_01.-eNonetruefalsecall:".split(""));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), cutsArb, fc.boolean(), (units, cuts, streamed) => {
        // Adjacent text units joined, so chunked() has something to cut.
        const parts: Part[] = [];
        for (const u of units) {
          const last = parts.at(-1);
          if (u !== Q && typeof last === "string") parts[parts.length - 1] = last + u;
          else parts.push(u);
        }
        expectChunkInvariant(parser, parts, cuts, streamed, { kind: "tool_call" });
      }),
      // The example: an error in the chunk after "{" was read once dropped the streamed "{".
      { numRuns: 500, examples: [[[",", "{", ","], [2 / 3], true]] },
    );
  });
});

const GEMMA4 = "models/templates/google-gemma-4-31B-it.jinja";

describe.skipIf(!haveTemplate(GEMMA4))(
  "marker-quoted-call through the decoder (Gemma 4 template, stand-in vocabulary)",
  () => {
    const text = (parts: readonly Part[]): string => parts.map((p) => (p === Q ? '<|"|>' : p)).join("");
    it("reasoning (a marker inside it is text), content and calls; bursts and the reference path agree", () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(key, argsArb), { minLength: 1, maxLength: 3 }),
          fc.constantFrom("", "Let me check."),
          fc.constantFrom("", "plan <|tool_call>call:f{}<tool_call|> more"),
          burstsArb,
          (calls, content, reasoning, bursts) => {
            // The template's reasoning block: fixed open text and one "\n" each side.
            const think = reasoning === "" ? "" : `<|channel>thought\n${reasoning}\n<channel|>`;
            const output = `${think}${content}${calls.map(([n, a]) => `<|tool_call>${text(gemmaCall(n, a))}<tool_call|>`).join("")}<|tool_response>`;
            const names = calls.map(([n]) => n);
            const m = agreedCalls(GEMMA4, output, names, bursts);
            expect(m.content).toBe(content);
            expect(m.reasoning).toBe(reasoning);
            expectStreamedCalls(
              m,
              calls.map(([name, args]) => ({ name, arguments: args })),
            );
          },
        ),
        { numRuns: 40 },
      );
    });
  },
);
