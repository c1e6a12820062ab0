// The sample generation the decode panel streams: the IDs a model would produce after the
// generation prompt for the sample's user turn — the encoded assistant turn minus the prompt,
// through the first end-of-message ID (as the CLI demo builds it).
import type { ChatTokenizer } from "@chatwire/tokenizer";
import type { Sample } from "./samples.ts";

export function generationIds(tok: ChatTokenizer, sample: Sample): number[] {
  const prompt = tok.encodeChat({ ...sample.user, add_generation_prompt: true }).ids;
  const full = tok.encodeChat({
    messages: [...sample.user.messages, sample.assistant],
    add_generation_prompt: false,
  }).ids;
  for (let i = 0; i < prompt.length; i++) {
    if (prompt[i] !== full[i])
      throw new Error("the sample assistant turn does not extend the generation prompt");
  }
  const gen = full.slice(prompt.length);
  const eos = new Set(tok.registry.eosIds);
  const end = gen.findIndex((id) => eos.has(id));
  if (end !== -1) return gen.slice(0, end + 1);
  // A format whose messages carry no end marker (ChatGLM3: the next turn's role marker ends
  // one): the model ends its turn with a stop ID, the first the grammar reads as a turn's end.
  const stop = turnEndId(tok);
  return stop === undefined ? gen : [...gen, stop];
}

/** The first EOS ID whose grammar move ends a message (message-end, or a role marker), else the first EOS ID. */
function turnEndId(tok: ChatTokenizer): number | undefined {
  const ends = new Set<number>();
  for (const [key, m] of Object.entries(tok.family.grammar.markers)) {
    const id = tok.tokenIds[key];
    if (id !== undefined && (m?.move === "message-end" || m?.move === "role")) ends.add(id);
  }
  return tok.registry.eosIds.find((id) => ends.has(id)) ?? tok.registry.eosIds[0];
}
