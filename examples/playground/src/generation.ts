// The sample generation the decode panel streams: the IDs a model would produce after the
// generation prompt for the sample's user turn — the encoded assistant turn minus the prompt,
// through the first stop ID (as the CLI demo builds it).
import type { PageTokenizer } from "./page-tokenizer.ts";
import type { Sample } from "./samples.ts";

export function generationIds(page: PageTokenizer, sample: Sample): number[] {
  const tok = page.tok;
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
  const stops = new Set(page.stopIds);
  const end = gen.findIndex((id) => stops.has(id));
  if (end !== -1) return gen.slice(0, end + 1);
  // A format whose messages carry no end marker (ChatGLM3: the next turn's role marker ends
  // one): the model ends its turn with a stop ID, the turn's end first.
  const stop = page.stopIds[0];
  return stop === undefined ? gen : [...gen, stop];
}
