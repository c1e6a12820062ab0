// A replay script from the format itself: what the family's own renderer writes for an
// assistant turn, so every ID is placed by format code (a model trained on the format would
// emit the same). Render [user] with the generation prompt and [user, assistant] without it;
// the script is what the second adds after the first, cut just after its first stop ID, or with
// the format's end of turn appended when the rendering writes none (ChatGLM3, whose turns end
// with the next role marker; DeepSeek V3 after a calls-only turn).
import { type ChatRequest, type ChatTokenizer, TokenizerError } from "@chatwire/tokenizer";

/** The assistant turn's IDs for `assistant` after `user`, or undefined when the family cannot render it. */
export function assistantTurn(
  tok: ChatTokenizer,
  user: object,
  assistant: object,
  tools: readonly object[] | undefined,
): number[] | undefined {
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
  const stops = new Set(tok.registry.eosIds);
  const end = turn.findIndex((id) => stops.has(id));
  if (end >= 0) return turn.slice(0, end + 1);
  const eos = turnEndId(tok);
  return eos === undefined ? turn : [...turn, eos];
}

/**
 * The stop ID a model writes to end its turn: the first EOS ID the grammar reads as the end of
 * a message (a message-end marker, or a role marker that starts the next turn), else the first
 * EOS ID.
 */
export function turnEndId(tok: ChatTokenizer): number | undefined {
  const moves = new Map<number, string>();
  for (const [key, m] of Object.entries(tok.family.grammar.markers)) {
    const id = tok.tokenIds[key];
    if (m !== undefined && id !== undefined) moves.set(id, m.move);
  }
  const eos = tok.registry.eosIds;
  return eos.find((id) => moves.get(id) === "message-end" || moves.get(id) === "role") ?? eos[0];
}
