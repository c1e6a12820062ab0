// Injection properties of the Mistral-only caller fields the shared battery does not fill
// (test/conformance/encode.test.ts): a tool call's id and a tool message's tool_call_id (written
// into the calls JSON in v3, as raw text between [TOOL_RESULTS] and [TOOL_CONTENT] in v7), a tool
// message's name (v2), and the tool result as JSON text. Whatever the caller writes there, the
// reserved IDs of the encoding are those of a benign twin, in order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haveMistralSuite, mistralSpm } from "../../../test-support/mistral-suite.ts";
import { syntheticTekken } from "../../../test-support/mistral-synthetic-tekken.ts";
import { type ChatRequest, type ChatTokenizer, fromFiles } from "../src/index.ts";

function request(v: { id: string; callId: string; name: string; result: string }): ChatRequest {
  return {
    messages: [
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: v.id, type: "function", function: { name: "get_weather", arguments: "{}" } }],
      },
      { role: "tool", name: v.name, content: v.result, tool_call_id: v.callId },
    ],
  };
}

const reservedOf = (tok: ChatTokenizer, ids: readonly number[]): number[] =>
  ids.filter((id) => tok.registry.ids.has(id));

/** Caller text: up to six pieces, each a marker string of the tokenizer or a short random string. */
const markerText = (markers: readonly string[]): fc.Arbitrary<string> =>
  fc
    .array(fc.oneof(fc.constantFrom(...markers), fc.string({ maxLength: 4 })), { maxLength: 6 })
    .map((a) => a.join(""));

describe.skipIf(!haveMistralSuite())("Mistral caller fields never make a reserved ID", () => {
  for (const v of [2, 3, 7] as const) {
    it(`v${v}: ids, tool_call_id, tool name, result`, () => {
      const tok = fromFiles({ [`tokenizer.model.v${v}`]: mistralSpm(v) });
      const markers = [...tok.registry.strings.keys()];
      const benign = { id: "abcdefghi", callId: "abcdefghi", name: "get_weather", result: "21" };
      const expected = reservedOf(tok, tok.encodeChat(request(benign)).ids);
      fc.assert(
        fc.property(
          fc.constantFrom("id", "callId", "name", "result"),
          markerText(markers),
          fc.boolean(),
          (field, s, asJson) => {
            const value = field === "result" && asJson ? JSON.stringify({ s }) : s;
            const req = request({ ...benign, [field]: value });
            expect(reservedOf(tok, tok.encodeChat(req).ids)).toEqual(expected);
          },
        ),
        { numRuns: 300, seed: 39 },
      );
    });
  }
});

// v11/v13 (tekken) write a call's name, its id (v11) and the tool result as raw text between
// markers ([TOOL_CALLS] NAME [CALL_ID] ID [ARGS] ARGS; [TOOL_RESULTS] ID [TOOL_CONTENT] RESULT),
// and the reasoning between [THINK] and [/THINK]: on the small tekken files of mistral-common's
// tests (every special token of the table is reserved).
function namedRequest(v: {
  id: string;
  callId: string;
  fn: string;
  args: string;
  result: string;
  reasoning: string;
  content: string;
}): ChatRequest {
  return {
    messages: [
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: v.content,
        reasoning_content: v.reasoning,
        tool_calls: [{ id: v.id, type: "function", function: { name: v.fn, arguments: v.args } }],
      },
      { role: "tool", content: v.result, tool_call_id: v.callId },
    ],
  };
}

describe("Mistral v11/v13 caller fields never make a reserved ID", () => {
  for (const [version, think] of [
    ["v11", false],
    ["v13", true],
  ] as const) {
    it(`${version}: call name, id, arguments, tool_call_id, result, reasoning, content`, () => {
      const tok = fromFiles({ "tekken.json": syntheticTekken(version, think) });
      const markers = [...tok.registry.strings.keys()].filter((s) => !s.startsWith("<SP"));
      const benign = {
        id: "abcdefghi",
        callId: "abcdefghi",
        fn: "get_weather",
        args: "{}",
        result: "21",
        reasoning: "Hm.",
        content: "Let me see.",
      };
      const expected = reservedOf(tok, tok.encodeChat(namedRequest(benign)).ids);
      fc.assert(
        fc.property(
          fc.constantFrom("id", "callId", "fn", "args", "result", "reasoning", "content"),
          markerText(markers),
          (field, s) => {
            // Empty texts change the layout, not the markers' origin: an empty id is not written
            // (v11) or refused (v13), an empty name refused, empty reasoning or content left out.
            fc.pre(s.trim().length > 0 && s !== "null");
            const req = namedRequest({ ...benign, [field]: s });
            expect(reservedOf(tok, tok.encodeChat(req).ids)).toEqual(expected);
          },
        ),
        { numRuns: 300, seed: 1339 },
      );
    });
  }
});
