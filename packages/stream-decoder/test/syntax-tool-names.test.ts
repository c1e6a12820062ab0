// Every body syntax that reads a tool name checks it against the request's tools: a call naming
// one of them is a call, any other name is an action error naming it (the text of knownTool in
// action-parse.ts), and with no tools any name is accepted. Each syntax is driven the way the
// decoder drives it (feedCall for the call lists, separator() at the block's separator marker),
// streamed and not; the streamed name and deltas are whatever the body said, known or not.
import type { BodySyntax, ResponseFieldBody } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import type { ActionResult } from "../src/action-parse.ts";
import type { BodyParser, ToolSchemas } from "../src/syntax/body.ts";
import { BODY_SYNTAXES } from "../src/syntax/index.ts";
import { driveCalls, drivePieces, LAX_CALL_REGION, type Piece, SEP } from "./body-support.ts";

const KNOWN: ToolSchemas = new Map([
  ["get_weather", { type: "object", properties: { city: { type: "string" } } }],
]);
const OTHER: ToolSchemas = new Map([["get_time", { type: "object", properties: {} }]]);
const UNKNOWN_ERROR = 'the call names a tool the request does not give: "get_weather"';
const CALL = { name: "get_weather", arguments: { city: "Paris" } };

/** transformers' Gemma 4 style region: `call:NAME{lax JSON}`. */
const RESPONSE_FIELD: ResponseFieldBody = LAX_CALL_REGION;

/** One call to get_weather(city="Paris") per syntax, as its formats write it; the call it gives. */
const BODIES: ReadonlyArray<readonly [BodySyntax, readonly Piece[], object]> = [
  ["json-call", ['{"name": "get_weather", "arguments": {"city": "Paris"}}'], CALL],
  [
    "json-call-list",
    ['[{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1"}]'],
    { ...CALL, id: "a1" },
  ],
  ["json-named-call-list", ['[{"get_weather": {"city": "Paris"}}]'], CALL],
  ["name-args", ["get_weather", SEP, '{"city": "Paris"}'], CALL],
  [
    "call-id-args",
    ["functions.get_weather:0", SEP, '{"city": "Paris"}'],
    { ...CALL, id: "functions.get_weather:0" },
  ],
  ["python-call-list", ['[get_weather(city="Paris")]'], CALL],
  ["marker-quoted-call", ["call:get_weather{city:", SEP, "Paris", SEP, "}"], CALL],
  ["tag-name-json", ['get_weather>{"city": "Paris"}'], CALL],
  ["fenced-json-call", ["function", SEP, 'get_weather\n```json\n{"city": "Paris"}\n```'], CALL],
  ["xml-call", ["\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n"], CALL],
  [
    "xml-invoke-list",
    ['<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n</invoke>'],
    CALL,
  ],
  [
    "dsml-invoke-list",
    [
      '<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>',
    ],
    CALL,
  ],
  ["arg-key-value", ["get_weather", SEP, "city", SEP, SEP, "Paris", SEP], CALL],
  ["response-field", ['call:get_weather{city:<|"|>Paris<|"|>}'], CALL],
];

function parser(syntax: BodySyntax): BodyParser {
  const make = BODY_SYNTAXES[syntax];
  if (make === undefined) throw new Error(`no parser for ${syntax}`);
  return make({ maxBufferedChars: 1 << 16, argumentsKey: "arguments", responseField: RESPONSE_FIELD });
}

interface Run {
  readonly results: ActionResult[];
  readonly names: string[];
  readonly args: string;
}

/** The body fed as the decoder feeds it (a call list through feedCall), every action's result. */
function run(
  syntax: BodySyntax,
  pieces: readonly Piece[],
  tools: ToolSchemas | undefined,
  streamed: boolean,
): Run {
  const p = parser(syntax);
  if (p.feedCall !== undefined) {
    const text = pieces.filter((x): x is string => x !== SEP);
    const actions = driveCalls(p, text, streamed, tools);
    return {
      results: actions.map((a) => a.result),
      names: actions.flatMap((a) => a.names),
      args: actions.map((a) => a.args).join(""),
    };
  }
  const r = drivePieces(p, pieces, streamed, { kind: "tool_call", tools });
  return { results: [r.result], names: r.names, args: r.args };
}

describe("tool names are checked against the request's tools in every body syntax", () => {
  for (const [syntax, pieces, call] of BODIES)
    it(syntax, () => {
      for (const streamed of [false, true]) {
        const known = run(syntax, pieces, KNOWN, streamed);
        expect(known.results, `${syntax} known, streamed ${streamed}`).toEqual([{ call }]);
        expect(run(syntax, pieces, undefined, streamed).results, `${syntax} no tools`).toEqual([{ call }]);
        const unknown = run(syntax, pieces, OTHER, streamed);
        expect(unknown.results, `${syntax} unknown, streamed ${streamed}`).toEqual([
          { error: UNKNOWN_ERROR },
        ]);
        if (streamed) {
          // What was streamed is the body's, whether or not the name is known.
          expect(unknown.names).toEqual(["get_weather"]);
          expect(JSON.parse(unknown.args)).toEqual(CALL.arguments);
          expect(unknown.names).toEqual(known.names);
          expect(unknown.args).toBe(known.args);
        }
      }
    });

  it("covers every registered syntax that reads a name from the body", () => {
    // python-call and raw take the name from the block's kind marker, json-arguments from the
    // header's metadata line (its own suite checks that name against the tools), not from the body.
    const fromKind = new Set(["python-call", "raw", "json-arguments"]);
    const named = Object.keys(BODY_SYNTAXES).filter((s) => !fromKind.has(s));
    expect(BODIES.map(([s]) => s).sort()).toEqual(named.sort());
  });
});
