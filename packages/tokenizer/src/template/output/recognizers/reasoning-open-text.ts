// Reasoning whose reserved open marker is followed by fixed text, and whose generation prompt
// holds an empty, closed reasoning block (Gemma 4: the prompt ends `<|channel>thought\n<channel|>`;
// a turn's reasoning renders `<|channel>thought\n` REASONING `\n<channel|>`). Derived from
// renderings: the reserved token right after a reasoning needle (only whitespace between) is the
// close; the generation prompt must end OPEN TEXT CLOSE with TEXT a fixed word: OPEN is the open
// marker and TEXT its open text (BlockGrammar.openText). The "\n" the template writes after the
// word and before the close are its newline rules (one each, when the renderings show them).
// Only tried after ./reasoning-pair.ts, for templates whose reasoning has no reserved open
// marker of its own in a turn's rendering.
import { blockMarkers } from "../../../families/block-markers.ts";
import type { NewlineRules } from "../../../families/grammar.ts";
import type { ProbeContext } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";

const NEEDLE = "probe reasoning needle";
/** Gemma 4 renders an assistant's reasoning only beside tool calls. */
const CALLS = [{ name: "probe_tool", arguments: { k: "v" } }];

/** The reserved token right after the needle, and whether a "\n" is between. */
function closeAfterNeedle(ctx: ProbeContext): { close: string; newline: boolean } | null {
  for (const calls of [undefined, CALLS]) {
    const g = ctx.assistant({ reasoning: NEEDLE, content: "probe answer", ...(calls ? { calls } : {}) });
    if (g === null) continue;
    const at = g.pieces.findIndex((p) => "text" in p && p.text.includes(NEEDLE));
    const piece = g.pieces[at];
    const next = g.pieces[at + 1];
    if (piece === undefined || !("text" in piece) || next === undefined || !("reserved" in next)) continue;
    const after = piece.text.slice(piece.text.indexOf(NEEDLE) + NEEDLE.length);
    if (!/^\s*$/u.test(after)) continue;
    return { close: next.reserved, newline: after === "\n" };
  }
  return null;
}

function recognize(ctx: ProbeContext): FormatPart | null {
  const found = closeAfterNeedle(ctx);
  if (found === null) return null;
  const { close } = found;
  const p = ctx.prompt()?.pieces ?? [];
  const [open, text, last] = p.slice(-3);
  if (open === undefined || text === undefined || last === undefined) return null;
  if (!("reserved" in open) || !("text" in text) || !("reserved" in last) || last.reserved !== close)
    return null;
  const m = /^([A-Za-z_]+)(\n?)$/u.exec(text.text);
  if (m === null || open.reserved === close) return null;
  const word = m[1] as string;
  const newlines: NewlineRules = {
    ...(m[2] === "\n" ? { afterOpen: "one" as const } : {}),
    ...(found.newline ? { beforeClose: "one" as const } : {}),
  };
  return {
    name: `reasoning ${open.reserved}${word}…${close}`,
    markers: {
      ...blockMarkers(open.reserved, close, "think"),
    },
    blocks: [
      {
        name: "think",
        emits: "reasoning",
        openText: word,
        ...(Object.keys(newlines).length > 0 ? { newlines } : {}),
      },
    ],
    startBlock: "think",
    evidence: [
      `the template writes reasoning before ${close}`,
      `the generation prompt ends with an empty reasoning block ${open.reserved}${JSON.stringify(text.text).slice(1, -1)}${close}`,
    ],
  };
}

export const reasoningOpenText: Recognizer = { name: "reasoning-open-text", recognize };
