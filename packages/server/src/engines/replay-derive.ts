// The replay script of a family without a hand-written one: what the family's own renderer writes
// for an assistant turn, so the IDs are placed by format code only (a model trained on the format
// would emit the same). Render [user] with the generation prompt and [user, assistant]; the
// script is what the second adds after the first, cut just after its first stop ID (or with the
// first EOS appended when the template writes none, e.g. DeepSeek V3 after a calls-only turn).
// The assistant turn carries a get_weather call when the family's template renders calls and
// the rendering keeps them; otherwise (Llama 3.0 renders no calls) plain content.
import { type ChatRequest, type ChatTokenizer, TokenizerError } from "@chatwire/tokenizer";

const USER = { role: "user", content: "What is the weather in Paris?" } as const;
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
const CALL = {
  role: "assistant",
  content: null,
  tool_calls: [
    {
      id: "call_0",
      type: "function",
      function: { name: "get_weather", arguments: '{"city": "Paris", "unit": "celsius"}' },
    },
  ],
} as const;
const ANSWER = { role: "assistant", content: "It is sunny in Paris, 21 °C." } as const;

/** The assistant turn's IDs for `assistant`, or undefined when the family cannot render it. */
function turnOf(tok: ChatTokenizer, assistant: object, tools: boolean): number[] | undefined {
  const base = tools ? { tools: TOOLS } : {};
  let prompt: readonly number[];
  let full: readonly number[];
  try {
    prompt = tok.encodeChat({ ...base, messages: [USER], add_generation_prompt: true } as ChatRequest).ids;
    full = tok.encodeChat({ ...base, messages: [USER, assistant] } as ChatRequest).ids;
  } catch (e) {
    if (TokenizerError.isInstance(e)) return undefined;
    throw e;
  }
  if (full.length <= prompt.length || prompt.some((id, i) => full[i] !== id)) return undefined;
  const turn = full.slice(prompt.length);
  const stops = new Set(tok.registry.eosIds);
  const end = turn.findIndex((id) => stops.has(id));
  if (end >= 0) return turn.slice(0, end + 1);
  const eos = tok.registry.eosIds[0];
  return eos === undefined ? turn : [...turn, eos];
}

/** A call turn when the rendering keeps the call's name, else a plain answer; [] if neither renders. */
export function derivedReplayScript(tok: ChatTokenizer): number[] {
  const call = turnOf(tok, CALL, true);
  if (call !== undefined && tok.decode(call).includes("get_weather")) return call;
  return turnOf(tok, ANSWER, false) ?? [];
}
