// Reasoning written between two reserved tokens (Qwen3 `<think>`…`</think>`, Seed-OSS
// `<seed:think>`…`</seed:think>`, Mistral `[THINK]`…`[/THINK]`, Command R7B
// `<|START_THINKING|>`…`<|END_THINKING|>`). Found by rendering an assistant turn with a
// reasoning needle: the reserved tokens right around it (only whitespace between) are the pair.
// A template that does not render the reasoning of the last turn is asked by name: a known
// pair whose two strings are reserved and which the template spells.
import { blockMarkers } from "../../../families/block-markers.ts";
import type { ProbeContext } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";

const NEEDLE = "probe reasoning needle";

/** Known pairs, for templates that drop the reasoning of every rendered turn. */
const KNOWN: ReadonlyArray<readonly [string, string]> = [
  ["<think>", "</think>"],
  ["<seed:think>", "</seed:think>"],
  ["[THINK]", "[/THINK]"],
  ["<|START_THINKING|>", "<|END_THINKING|>"],
];

const blank = (s: string): boolean => /^\s*$/u.test(s);

/** The reserved strings right before and after the needle in a rendering (whitespace between). */
function around(ctx: ProbeContext): readonly [string, string] | null {
  const g = ctx.assistant({ reasoning: NEEDLE, content: "probe answer" });
  if (g === null) return null;
  const at = g.pieces.findIndex((p) => "text" in p && p.text.includes(NEEDLE));
  if (at < 0) return null;
  const piece = g.pieces[at];
  if (piece === undefined || !("text" in piece)) return null;
  const [before, after] = piece.text.split(NEEDLE) as [string, string];
  const open = blank(before) ? g.pieces[at - 1] : undefined;
  const close = blank(after) ? g.pieces[at + 1] : undefined;
  if (open === undefined || close === undefined || !("reserved" in open) || !("reserved" in close))
    return null;
  return open.reserved === close.reserved ? null : [open.reserved, close.reserved];
}

function part(open: string, close: string, evidence: string): FormatPart {
  return {
    name: `reasoning ${open}…${close}`,
    markers: {
      ...blockMarkers(open, close, "think"),
    },
    blocks: [{ name: "think", emits: "reasoning" }],
    startBlock: "think",
    evidence: [evidence],
  };
}

export const reasoningPair: Recognizer = {
  name: "reasoning-pair",
  recognize(ctx) {
    const found = around(ctx);
    if (found !== null)
      return part(found[0], found[1], `the template writes reasoning between ${found[0]} and ${found[1]}`);
    for (const [open, close] of KNOWN)
      if (
        ctx.id(open) !== undefined &&
        ctx.id(close) !== undefined &&
        (ctx.source.includes(open) || ctx.source.includes(close))
      )
        return part(open, close, `${open} and ${close} are reserved and spelled by the template`);
    return null;
  },
};
