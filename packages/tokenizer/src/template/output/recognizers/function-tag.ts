// Functionary v3.1: a call written as plain text, `<function=NAME>{json}</function>`, so its
// open and close are text markers (Grammar.textMarkers), and a call of `python` written after
// the reserved `<|python_tag|>` as code. Derived from renderings: a one-call turn must render as
// text OPEN `probe_tool>` ARGS CLOSE, where ARGS is the JSON of the probe's arguments and OPEN
// ends with "=" (the name is an attribute of the tag); two calls as the same shape twice in a
// row; a reserved token after the last call ends the message (`<|eom_id|>`). A call of
// `python` that renders after a reserved token opens a code block (body "raw": the call is
// {name: "python", arguments: {code}}), as Llama 3.1 writes its built-in tools.
import { blockMarkers } from "../../../families/block-markers.ts";
import type { BlockGrammar, MarkerMove } from "../../../families/grammar.ts";
import type { ProbeContext, ProbeTurn } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";
import { ONE, ONE_ARGS, TWO } from "./probe-turns.ts";

const CODE = "probe_code_line";
const PYTHON: ProbeTurn = {
  calls: [{ name: "python", arguments: { code: CODE } }],
  tools: [
    {
      type: "function",
      function: {
        name: "python",
        description: "probe python",
        parameters: { type: "object", properties: { code: { type: "string" } } },
      },
    },
  ],
};

/** `<function=probe_tool>{"k": "v"}</function>…`: the open and close texts, or null. */
function shape(ctx: ProbeContext): { open: string; close: string } | null {
  const g = ctx.assistant(ONE);
  const first = g?.pieces[0];
  if (first === undefined || !("text" in first)) return null;
  const t = first.text;
  const m = /^(<[A-Za-z_]+=)probe_tool>(\{[^{}]*\})(<\/[A-Za-z_]+>)/u.exec(t);
  if (m === null) return null;
  const [, open, json, close] = m as unknown as [string, string, string, string];
  try {
    const v = JSON.parse(json) as unknown;
    if (JSON.stringify(v) !== JSON.stringify(ONE_ARGS)) return null;
  } catch {
    return null;
  }
  return { open, close };
}

function python(ctx: ProbeContext): string | undefined {
  const g = ctx.assistant(PYTHON);
  const [tag, body] = g?.pieces ?? [];
  if (tag === undefined || body === undefined || !("reserved" in tag) || !("text" in body)) return undefined;
  return body.text.includes(CODE) ? tag.reserved : undefined;
}

function recognize(ctx: ProbeContext): FormatPart | null {
  const s = shape(ctx);
  if (s === null) return null;
  const two = ctx.assistant(TWO);
  const calls = `${s.open}probe_tool>`;
  if (two === null || !two.text.startsWith(calls)) return null;
  const second = two.text.indexOf(`${s.close}${s.open}other_tool>`);
  if (second < 0) return null;
  // A reserved token after the last call, where a content-only turn has its end of turn.
  const last = two.pieces.at(-1);
  const end = last !== undefined && "reserved" in last ? last.reserved : undefined;
  const textMarkers: Record<string, MarkerMove> = {
    ...blockMarkers(s.open, s.close, "function"),
  };
  const blocks: BlockGrammar[] = [
    { name: "function", emits: "action", kind: "tool_call", body: "tag-name-json" },
  ];
  const markers: Record<string, MarkerMove> = {};
  const evidence = [
    `a one-call turn renders as the text ${s.open}probe_tool>{"k": "v"}${s.close}`,
    "two calls render as two tags in a row",
  ];
  if (end !== undefined) {
    markers[end] = { move: "message-end" };
    evidence.push(`a call turn ends with ${end}`);
  }
  const tag = python(ctx);
  if (tag !== undefined) {
    markers[tag] = { move: "block-open", block: "python_tag" };
    blocks.push({ name: "python_tag", emits: "action", kind: "python", body: "raw" });
    evidence.push(`a call of python renders after ${tag}`);
  }
  return { name: `${s.open}…${s.close} call`, markers, textMarkers, blocks, evidence };
}

export const functionTag: Recognizer = { name: "function-tag", recognize };
