// The sample generation the decode panel streams: the IDs a model would produce after the
// generation prompt for the sample's user turn — the encoded assistant turn minus the prompt,
// through the first end-of-message ID (as the CLI demo builds it).
import { CHATGLM3_IDS, type ChatTokenizer } from "@chatwire/tokenizer";
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
  // ChatGLM3 messages carry no end marker: after a tool call the model emits <|observation|>.
  return tok.format === "chatglm3" ? [...gen, CHATGLM3_IDS.observation] : gen;
}
