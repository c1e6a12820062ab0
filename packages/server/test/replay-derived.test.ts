// `chatwire serve --engine replay` on the families beyond the server suites' three
// (engines/replay-script.ts): the script comes from the family's own renderer, and a chat
// completion over it gives back what was rendered. The expected calls and text are written out
// here, not taken from the script, so a wrong derivation (an empty script, a turn cut before
// its call, a missing stop) fails. Families whose tokenizer package is not installed are skipped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyFixtures, missingOf } from "../../../test-support/family-fixtures.ts";
import { loadFixtureTokenizer } from "../../../test-support/family-tokenizer.ts";
import { builtinReplayScript, createReplayEngine } from "../src/index.ts";
import { fetchChat, type Running, start } from "./support.ts";

const CALL = [{ name: "get_weather", args: { city: "Paris", unit: "celsius" } }];
const TWO_CALLS = [...CALL, { name: "get_weather", args: { city: "Tokyo", unit: "celsius" } }];
const CONTENT = "Let me check the weather in Paris and Tokyo — one moment.";
const CASES = [
  // Llama 3.0's template renders no calls: the plain answer.
  { family: "llama3", content: "It is sunny in Paris, 21 °C.", calls: [], finish: "stop" },
  { family: "llama31", content: "", calls: CALL, finish: "tool_calls" },
  // V3's template drops the calls of a turn with content: one call, no content.
  { family: "deepseek-v3", content: "", calls: CALL, finish: "tool_calls" },
  // R1 and Qwen3-Coder drop the reasoning, keep content and both calls.
  { family: "deepseek-r1", content: CONTENT, calls: TWO_CALLS, finish: "tool_calls" },
  { family: "qwen3-coder", content: CONTENT, calls: TWO_CALLS, finish: "tool_calls" },
  // A call ends gpt-oss's turn (<|call|>): one call.
  { family: "gpt-oss", content: "", calls: CALL, finish: "tool_calls" },
] as const;
const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string" } } },
    },
  },
];

for (const c of CASES) {
  const entry = familyFixtures(c.family)?.tokenizers[0];
  const available = entry !== undefined && missingOf(entry).length === 0;
  describe.skipIf(!available)(`replay engine, derived script, ${c.family}`, () => {
    let srv: Running;
    let scriptLength = 0;
    beforeAll(async () => {
      const tok = loadFixtureTokenizer(entry!);
      const script = builtinReplayScript(tok);
      scriptLength = script.length;
      srv = await start(tok, createReplayEngine({ script: () => script }));
    });
    afterAll(async () => {
      await srv?.close();
    });

    it("the chat completion carries the rendered turn: content, calls, finish_reason", async () => {
      expect(scriptLength).toBeGreaterThan(0);
      const res = await fetchChat(srv.url, {
        model: "test-model",
        messages: [{ role: "user", content: "What is the weather in Paris?" }],
        tools: TOOLS,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        choices: {
          finish_reason: string;
          message: {
            content: string | null;
            tool_calls?: { function: { name: string; arguments: string } }[];
          };
        }[];
        usage: { completion_tokens: number };
      };
      const choice = body.choices[0]!;
      expect(choice.finish_reason).toBe(c.finish);
      expect((choice.message.content ?? "").trim()).toBe(c.content);
      expect(
        (choice.message.tool_calls ?? []).map((t) => ({
          name: t.function.name,
          args: JSON.parse(t.function.arguments) as unknown,
        })),
      ).toEqual(c.calls);
      expect(body.usage.completion_tokens).toBe(scriptLength);
    });
  });
}
