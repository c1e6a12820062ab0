// Gemma 4: each call between two reserved tokens as `call:NAME{key:value,...}`, strings quoted
// by a reserved token (`<|tool_call>call:get_time{city:<|"|>Paris<|"|>}<tool_call|>`), and a
// call turn that ends with a reserved token of its own (`<|tool_response>`, where the runtime
// puts the tool's answer) instead of the end of turn. Derived from renderings: a one-call turn
// must render as OPEN `call:probe_tool{k:` Q `v` Q `}` CLOSE, where Q is the one reserved token
// on both sides of the string; two calls as two such blocks in a row; values of every JSON
// type with bare keys (`n:-2`, `t:true`, `o:{a:1}`, `l:[1,...]`), which is the body syntax
// "marker-quoted-call" reads. A reserved token the rendering writes after the last call, where
// a content-only turn has its end of turn, ends the message.
import { blockMarkers } from "../../../families/block-markers.ts";
import type { MarkerMove } from "../../../families/grammar.ts";
import type { Piece, ProbeContext, ProbeTurn } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";
import { ONE, TWO } from "./probe-turns.ts";

const TYPES: ProbeTurn = {
  calls: [{ name: "probe_tool", arguments: { n: -2, t: true, o: { a: 1 }, l: [1, 2] } }],
};

const reserved = (p: Piece | undefined): string | undefined =>
  p !== undefined && "reserved" in p ? p.reserved : undefined;
const text = (p: Piece | undefined): string | undefined =>
  p !== undefined && "text" in p ? p.text : undefined;

interface Shape {
  readonly open: string;
  readonly close: string;
  readonly quote: string;
  readonly prefix: string;
  /** The reserved token after the last call's close, if any. */
  readonly end: string | undefined;
}

/** OPEN `PREFIXprobe_tool{k:` Q `v` Q `}` CLOSE [END] as the whole generated part, or null. */
function oneCall(ctx: ProbeContext): Shape | null {
  const g = ctx.assistant(ONE);
  if (g === null || g.pieces.length < 7 || g.pieces.length > 8) return null;
  const [p0, p1, p2, p3, p4, p5, p6, p7] = g.pieces;
  const open = reserved(p0);
  const quote = reserved(p2);
  const close = reserved(p6);
  const head = text(p1);
  if (open === undefined || quote === undefined || close === undefined || head === undefined) return null;
  const m = /^(\S*?)probe_tool\{k:$/u.exec(head);
  if (m === null || text(p3) !== "v" || reserved(p4) !== quote || text(p5) !== "}") return null;
  if (new Set([open, quote, close]).size !== 3) return null;
  const end = reserved(p7);
  if (p7 !== undefined && end === undefined) return null;
  return { open, close, quote, prefix: m[1] ?? "", end };
}

function recognize(ctx: ProbeContext): FormatPart | null {
  const s = oneCall(ctx);
  if (s === null || s.prefix !== "call:") return null;
  const q = s.quote;
  const two = ctx.assistant(TWO);
  const want = `${s.open}call:probe_tool{k:${q}v${q}}${s.close}${s.open}call:other_tool{n:1}${s.close}${s.end ?? ""}`;
  if (two === null || two.text !== want) return null;
  const types = ctx.assistant(TYPES);
  if (types === null || !types.text.includes("call:probe_tool{") || !/l:\[1,2\]/u.test(types.text))
    return null;
  for (const kv of ["n:-2", "t:true", "o:{a:1}"]) if (!types.text.includes(kv)) return null;
  const markers: Record<string, MarkerMove> = {
    ...blockMarkers(s.open, s.close, "tool_call"),
    [q]: { move: "separator", block: "tool_call" },
  };
  const evidence = [
    `a one-call turn renders as ${s.open}call:probe_tool{k:${q}v${q}}${s.close}`,
    "two calls render as two blocks in a row",
    `keys are bare, strings are quoted by ${q}, other values bare (n:-2, t:true, o:{a:1}, l:[1,2])`,
  ];
  if (s.end !== undefined && s.end !== s.open) {
    markers[s.end] = { move: "message-end" };
    evidence.push(`a call turn ends with ${s.end}`);
  }
  return {
    name: "marker-quoted call",
    markers,
    blocks: [{ name: "tool_call", emits: "action", kind: "tool_call", body: "marker-quoted-call" }],
    evidence,
  };
}

export const markerQuotedCall: Recognizer = { name: "marker-quoted-call", recognize };
