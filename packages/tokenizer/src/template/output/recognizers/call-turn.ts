// A tool call written as a turn of its own after the assistant's end of turn (GigaChat 3.0):
//
//   probe answer‹<|message_sep|>›\n\nfunction call‹<|role_sep|>›\n{"name": N, "arguments": {...}}‹<|message_sep|>›\n\n
//
// Read from renderings: the assistant turn up to its end of turn holds no call; after it the
// template writes text (the role name, "function call"), a reserved token that the generation
// prompt also writes after its role name (`assistant‹<|role_sep|>›\n`: a role header), then the
// call as one JSON object {"name", "arguments"} and the end of turn again. The decoder reads that
// text and token after a message end as the opening of the call (Grammar.callTurn), so the end of
// turn cannot be a stop of such a model (./probe.ts leaves it out of the EOS IDs). A two-call
// rendering says whether each call gets its own turn.
import type { Generated, Piece, ProbeContext } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";
import { parse, sameJson } from "./json-values.ts";

const A = { name: "probe_tool_a", arguments: { k: "v", n: 1 } };
const B = { name: "probe_tool_b", arguments: { m: [true, null] } };
const CONTENT = "probe answer";

const isText = (p: Piece | undefined): p is { readonly text: string } => p !== undefined && "text" in p;
const isReserved = (p: Piece | undefined): p is { readonly reserved: string; readonly id: number } =>
  p !== undefined && "reserved" in p;

/** The call turns after the first end of turn: [role text, header token, JSON text] each. */
function callTurns(g: Generated, end: number): Array<[string, string, string]> | null {
  const first = g.pieces.findIndex((p) => isReserved(p) && p.id === end);
  if (first < 0) return null;
  const out: Array<[string, string, string]> = [];
  let k = first + 1;
  while (k < g.pieces.length) {
    const [role, header, body, close] = g.pieces.slice(k, k + 4);
    if (!isText(role) || !isReserved(header) || !isText(body) || !isReserved(close) || close.id !== end)
      break;
    out.push([role.text, header.reserved, body.text]);
    k += 4;
  }
  return out;
}

function recognize(ctx: ProbeContext): FormatPart | null {
  const end = ctx.endOfTurn;
  if (end === null) return null;
  // The turn itself, up to its end of turn, does not hold the call.
  const cut = ctx.assistant({ content: CONTENT, calls: [A] });
  if (cut === null || cut.text.includes(A.name)) return null;
  const whole = ctx.wholeTurn({ content: CONTENT, calls: [A] });
  const turns = whole === null ? null : callTurns(whole, end);
  const call = turns?.[0];
  if (turns === undefined || turns === null || turns.length !== 1 || call === undefined) return null;
  const [text, header, body] = call;
  const v = parse(body.trim());
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (Object.keys(o).length !== 2 || o.name !== A.name || !sameJson(o.arguments, A.arguments)) return null;
  // A role header: a name the template spells, before the token the generation prompt also
  // writes after the assistant's role name.
  const role = text.trim();
  if (role === "" || /\n/u.test(role) || !ctx.source.includes(role)) return null;
  const prompt = ctx.prompt()?.pieces ?? [];
  const at = prompt.findIndex((p) => isReserved(p) && p.reserved === header);
  if (at < 1 || !isText(prompt[at - 1])) return null;
  const two = ctx.wholeTurn({ content: CONTENT, calls: [A, B] });
  const perCall = (two === null ? null : callTurns(two, end))?.length === 2;
  return {
    name: `call turn ${JSON.stringify(role)}: JSON call object`,
    markers: { [header]: { move: "misplaced" } },
    blocks: [{ name: "tool_calls", emits: "action", kind: "tool_call", body: "json-call" }],
    callTurn: { text, marker: header, block: "tool_calls" },
    evidence: [
      `a call is a turn of its own after the end of turn: ${JSON.stringify(text)} then ${header}, as the generation prompt writes its role`,
      'the call turn holds one JSON object {"name", "arguments"} and ends with the end of turn',
      perCall ? "each of two calls gets its own turn" : "of two calls the template writes the first only",
    ],
  };
}

export const callTurn: Recognizer = { name: "call-turn", recognize };
