// A replay script from the format itself: what the format's own renderer (a native family's, or
// the model's chat template) writes for an assistant turn, so every ID is placed by format code
// (a model trained on the format would emit the same). Render [user] with the generation prompt
// and [user, assistant] without it; the script is what the second adds after the first, cut
// just after its first stop ID, or with the format's end of turn appended when the rendering
// writes none (ChatGLM3, whose turns end with the next role marker; DeepSeek V3 after a
// calls-only turn).
import { type ChatRequest, TokenizerError } from "@chatwire/tokenizer";
import type { ServedTokenizer } from "../served-tokenizer.ts";

/** The assistant turn's IDs for `assistant` after `user`, or undefined when the format cannot render it. */
export function assistantTurn(
  served: ServedTokenizer,
  user: object,
  assistant: object,
  tools: readonly object[] | undefined,
): number[] | undefined {
  const tok = served.tokenizer;
  const base = tools === undefined ? {} : { tools };
  let prompt: readonly number[];
  let full: readonly number[];
  try {
    prompt = tok.encodeChat({ ...base, messages: [user], add_generation_prompt: true } as ChatRequest).ids;
    full = tok.encodeChat({
      ...base,
      messages: [user, assistant],
      add_generation_prompt: false,
    } as ChatRequest).ids;
  } catch (e) {
    if (TokenizerError.isInstance(e)) return undefined;
    throw e;
  }
  if (full.length <= prompt.length || prompt.some((id, i) => full[i] !== id)) return undefined;
  const turn = full.slice(prompt.length);
  const stops = new Set(served.stopIds);
  const end = turn.findIndex((id) => stops.has(id));
  if (end >= 0) return turn.slice(0, end + 1);
  const eos = served.turnEndId;
  return eos === undefined ? turn : [...turn, eos];
}
