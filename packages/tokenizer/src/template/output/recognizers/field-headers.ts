// gpt-oss's harmony messages, read from its chat template: every message of the turn is
// `‹start›ROLE[ to=R]‹channel›CHANNEL[ TYPE]‹message›CONTENT‹end›`, reasoning on the "analysis"
// channel, a call addressed `to=functions.NAME` and ended by its own marker. The same grammar as
// the native gpt-oss family (header syntax "harmony"), so a template-only harmony model decodes
// like the native one; the generation prompt ends after `‹start›assistant`, in the header.
//
// Derived from renderings: a turn with reasoning and content gives the channel marker (before
// the channel name), the header end (before the content), the message end (after the reasoning)
// and the message start (before the next message's role); a one-call turn gives the call's
// recipient ` to=functions.NAME` and its end marker; the generation prompt must be the message
// start and the role. The constrain marker (`<|constrain|>json`), which the template may not
// write, is harmony's formatting token: taken when reserved.
import type { MarkerMove } from "../../../families/grammar.ts";
import type { Piece } from "../context.ts";
import type { Recognizer } from "../part.ts";

const NEEDLE = "probe reasoning needle";
const ANSWER = "probe answer";
const CONSTRAIN = "<|constrain|>";

type Reserved = { readonly reserved: string; readonly id: number };
const res = (p: Piece | undefined): string | null => (p !== undefined && "reserved" in p ? p.reserved : null);
const txt = (p: Piece | undefined): string | null => (p !== undefined && "text" in p ? p.text : null);
const isReserved = (p: Piece | undefined): p is Reserved => res(p) !== null;

export const fieldHeaders: Recognizer = {
  name: "field-headers",
  recognize(ctx) {
    const g = ctx.assistant({ reasoning: NEEDLE, content: ANSWER });
    const prompt = ctx.prompt();
    const call = ctx.assistant({ calls: [{ name: "probe_alpha", arguments: { k: "v" } }] });
    if (g === null || prompt === null || call === null) return null;
    // ‹channel›analysis‹message›NEEDLE‹end›‹start›assistant‹channel›final‹message›ANSWER
    const p = g.pieces.filter((x) => txt(x) !== "");
    const [ch, analysis, msg, needle, end, start, role, ch2, , msg2, answer] = p;
    if (!isReserved(ch) || !isReserved(msg) || !isReserved(end) || !isReserved(start)) return null;
    if (txt(analysis)?.trim() !== "analysis" || txt(needle) !== NEEDLE || txt(role) !== "assistant")
      return null;
    if (res(ch2) !== ch.reserved || res(msg2) !== msg.reserved || txt(answer) !== ANSWER) return null;
    if (new Set([ch.reserved, msg.reserved, end.reserved, start.reserved]).size !== 4) return null;
    // The generation prompt: ‹start›assistant (decoding starts in the header).
    const [pStart, pRole] = prompt.pieces;
    if (res(pStart) !== start.reserved || txt(pRole)?.trim() !== "assistant" || prompt.pieces.length !== 2)
      return null;
    // A call:  to=functions.probe_alpha‹channel›commentary json‹message›{"k": "v"}‹call›
    const c = call.pieces;
    const last = c[c.length - 1];
    if (!(txt(c[0]) ?? "").includes("to=functions.probe_alpha") || !isReserved(last)) return null;
    if (!c.some((x) => res(x) === ch.reserved) || !c.some((x) => res(x) === msg.reserved)) return null;
    const markers: Record<string, MarkerMove> = {
      [start.reserved]: { move: "message-start" },
      [msg.reserved]: { move: "header-end" },
      [ch.reserved]: { move: "header-field", field: "channel" },
      [end.reserved]: { move: "message-end" },
      [last.reserved]: { move: "message-end" },
    };
    const evidence = [
      `messages render as ${start.reserved}ROLE${ch.reserved}CHANNEL${msg.reserved}CONTENT${end.reserved}; reasoning on "analysis"`,
      `a call is a message to=functions.NAME ended by ${last.reserved}`,
    ];
    if (ctx.id(CONSTRAIN) !== undefined) {
      markers[CONSTRAIN] = { move: "header-field", field: "constrain" };
      evidence.push(`${CONSTRAIN} is reserved: harmony's content-type field`);
    }
    return {
      name: "messages with channel headers",
      markers,
      header: { syntax: "harmony" },
      // A message to functions.NAME is a "tool_call" action whose content is the JSON arguments.
      blocks: [{ name: "tool_call", emits: "action", body: "json-call" }],
      evidence,
    };
  },
};
