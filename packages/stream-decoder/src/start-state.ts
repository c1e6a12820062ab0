// Where decoding starts, read from the prompt: a generation prompt that leaves the grammar's
// startBlock open (a thinking-only template's trailing `<think>\n`, a hybrid template's
// `enable_thinking` branch) makes the model's first token reasoning. Decided from the spec's
// classes alone (no family named): the last open/close marker of the start block in the
// prompt's last turn wins; a message start/end or role marker begins a new turn.
//
//   ‹message-start›assistant\n‹block-open›\n|        -> true  (decoding starts inside the block)
//   ‹message-start›assistant\n‹block-open›\n\n‹block-close›\n\n|  -> false
import { Cls, classOf, type DecoderSpec } from "./spec.ts";

/**
 * Whether `promptIds` (the rendered prompt, or its generation-prompt tail) ends inside the
 * spec's startBlock. Linear in the prompt; IDs outside the spec's tables are text. Pass the
 * result as DecoderSpecOptions.startInReasoning.
 */
export function promptOpensStartBlock(spec: DecoderSpec, promptIds: ArrayLike<number>): boolean {
  const start = spec.grammar.startBlock;
  if (start < 0) return false;
  const classes = spec.classes;
  let open = false;
  for (let i = 0; i < promptIds.length; i++) {
    const id = promptIds[i] as number;
    if (!(id >= 0 && id < classes.length)) continue;
    const c = classes[id] as number;
    if (c === Cls.BlockOpen || c === Cls.BlockClose) {
      if (spec.markerArg.get(id) === start) open = c === Cls.BlockOpen;
    } else if (c === Cls.MsgStart || c === Cls.MsgEnd || c === Cls.Role) open = false;
  }
  return open || endsWithText(spec, promptIds, spec.grammar.startText);
}

/**
 * Whether the prompt's last IDs decode to text ending with `text` (a grammar's startText, the
 * generation prompt's words that open the block: Apriel's `Here are my reasoning steps:\n`).
 * Reads back only as many IDs as that text needs; a reserved or byte piece ends the search.
 */
function endsWithText(spec: DecoderSpec, promptIds: ArrayLike<number>, text: string): boolean {
  if (text === "") return false;
  let tail = "";
  for (let i = promptIds.length - 1; i >= 0 && tail.length < text.length; i--) {
    const id = promptIds[i] as number;
    if (!(id >= 0 && id < spec.classes.length)) return false;
    const c = classOf(spec, id);
    if (c !== Cls.Text && c !== Cls.TextNl) return false;
    tail = (spec.text[id] ?? "") + tail;
  }
  return tail.endsWith(text);
}
