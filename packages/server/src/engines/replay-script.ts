// The built-in scripted generations of `chatwire serve --engine replay`, derived from the
// format itself (./replay-derive.ts: the family's renderer, or the model's chat template,
// writes the assistant turn), so every format gets one and no format is named here.
//   builtinReplayScript  a weather question answered with the richest turn the format renders
//                        with all its calls kept: reasoning (where the format writes it), content
//                        and two parallel get_weather calls (Paris, Tokyo); else one call and no
//                        content (formats that write one call per turn, or drop content next to
//                        calls); else a plain answer (formats whose template renders no calls)
//   plainReplayScript    "Hello! How can I help you today?": no reasoning, no call
import type { AnyTokenizer } from "@chatwire/tokenizer";
import { servedTokenizer } from "../served-tokenizer.ts";
import { assistantTurn } from "./replay-derive.ts";

const USER = { role: "user", content: "What is the weather in Paris and Tokyo?" } as const;
const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather",
      parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string" } } },
    },
  },
] as const;
const call = (id: string, city: string) => ({
  id,
  type: "function",
  function: { name: "get_weather", arguments: `{"city": "${city}", "unit": "celsius"}` },
});
const TWO_CALLS = {
  role: "assistant",
  reasoning_content: "The user asks about the weather in two cities; I will call the tool twice.",
  content: "Let me check the weather in Paris and Tokyo — one moment.",
  tool_calls: [call("call_0", "Paris"), call("call_1", "Tokyo")],
} as const;
const ONE_CALL = { role: "assistant", content: null, tool_calls: [call("call_0", "Paris")] } as const;
const ANSWER = { role: "assistant", content: "It is sunny in Paris, 21 °C." } as const;
const HELLO = { role: "assistant", content: "Hello! How can I help you today?" } as const;

/** How often `s` occurs in `text`. */
const count = (text: string, s: string): number => text.split(s).length - 1;

export function builtinReplayScript(tokenizer: AnyTokenizer): number[] {
  const tok = servedTokenizer(tokenizer);
  const text = (ids: readonly number[]) => tok.tokenizer.decode(ids);
  // A rung is taken when the script (cut at its first stop) still holds what it was asked for.
  const two = assistantTurn(tok, USER, TWO_CALLS, TOOLS);
  if (two !== undefined) {
    const t = text(two);
    if (count(t, "get_weather") === 2 && t.includes(TWO_CALLS.content)) return two;
  }
  const one = assistantTurn(tok, USER, ONE_CALL, TOOLS);
  if (one !== undefined && text(one).includes("get_weather")) return one;
  return assistantTurn(tok, USER, ANSWER, undefined) ?? [];
}

/** A plain answer, no reasoning and no tool call: "Hello! How can I help you today?" + the end of turn. */
export function plainReplayScript(tokenizer: AnyTokenizer): number[] {
  return assistantTurn(servedTokenizer(tokenizer), { role: "user", content: "Hi!" }, HELLO, undefined) ?? [];
}
