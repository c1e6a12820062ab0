// Reasoning with no reserved marker: opened by the generation prompt, closed by literal text
// (Apriel 1.6: the prompt ends `‹<|begin_assistant|>›\nHere are my reasoning steps:\n`; a turn's
// reasoning renders `‹<|begin_assistant|>›\n` REASONING `\n[BEGIN FINAL RESPONSE]\n` CONTENT).
// Derived from renderings:
//
//   close       the text between a reasoning needle and the content, trimmed: a literal the
//               template spells, absent from a turn without reasoning (a text marker)
//   start text  where a rendered turn writes its reasoning, the generation prompt writes text of
//               its own: that text is the start of the reasoning (Grammar.startText), so decoding
//               starts in the block, and the "\n" around the close are its newline rules
//
// The reasoning of such a turn is the prompt's start text followed by what the model writes:
// rendered back as the last turn's reasoning it gives the IDs the model saw, as llama.cpp's
// test-chat.cpp expects for Apriel 1.6 ("Here are my reasoning steps:\nI'm\nthinking").
// Only tried after the recognizers of reserved reasoning markers.
import type { NewlineRules } from "../../../families/grammar.ts";
import type { Generated, ProbeContext } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";

const NEEDLE = "probe reasoning needle";
const ANSWER = "probe answer";

/** The text of `g` after its last reserved piece (the turn's text), or null. */
function tailText(g: Generated): string | null {
  const last = g.pieces[g.pieces.length - 1];
  return last !== undefined && "text" in last ? last.text : null;
}

function recognize(ctx: ProbeContext): FormatPart | null {
  const g = ctx.assistant({ reasoning: NEEDLE, content: ANSWER });
  // One text piece: the reasoning, the close and the content, no reserved token among them.
  if (g === null || g.pieces.length !== 1) return null;
  const text = tailText(g);
  if (text === null) return null;
  const at = text.indexOf(NEEDLE);
  const end = text.indexOf(ANSWER);
  if (at < 0 || end < 0) return null;
  const between = text.slice(at + NEEDLE.length, end);
  const close = between.trim();
  if (close === "" || /\n/u.test(close) || !ctx.source.includes(close)) return null;
  // Without reasoning the close is not written: it belongs to the reasoning.
  const plain = ctx.assistant({ content: ANSWER });
  if (plain === null || plain.text.includes(close)) return null;
  // The generation prompt's text after its last reserved token, where a rendered turn writes
  // (after the whitespace both share) its reasoning: the prompt's own text there is the start
  // text (the renderings were cut where their IDs part, right before the needle).
  const p = ctx.prompt();
  const promptTail = p === null ? null : tailText(p);
  if (promptTail === null) return null;
  const startText = promptTail.trimStart();
  if (startText === "" || text.slice(0, at).trim() !== "" || startText.includes(close)) return null;
  const newlines: NewlineRules = {
    ...(between.startsWith("\n") ? { beforeClose: "one" as const } : {}),
    ...(between.endsWith("\n") ? { afterClose: "one" as const } : {}),
  };
  return {
    name: `reasoning …${JSON.stringify(close)} (opened by the generation prompt)`,
    markers: {},
    textMarkers: { [close]: { move: "block-close", block: "think" } },
    blocks: [
      { name: "think", emits: "reasoning", ...(Object.keys(newlines).length > 0 ? { newlines } : {}) },
    ],
    startBlock: "think",
    startText,
    evidence: [
      `the template writes reasoning before the text ${JSON.stringify(close)}, with no reserved marker`,
      `the generation prompt writes ${JSON.stringify(startText)} where a turn writes its reasoning: the reasoning's start`,
    ],
  };
}

export const reasoningPromptText: Recognizer = { name: "reasoning-prompt-text", recognize };
