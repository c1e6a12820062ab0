// Calls delimited by reserved tokens, with a reserved separator between the call's name (or its
// call id) and its JSON arguments, optionally inside a reserved tool section:
//
//   DeepSeek V3.1  ‹calls▁begin›‹call▁begin›NAME‹sep›{json}‹call▁end›…‹calls▁end›
//   Kimi K2        ‹section_begin›‹call_begin›functions.NAME:0‹argument_begin›{json}‹call_end›…‹section_end›
//
// Derived from renderings: a turn with no call and turns with one and two calls (other names,
// other arguments) are rendered; what the call turns add to the no-call turn is cut into
// [section open] (call open, TEXT, separator, JSON, call close)+ [section close], all markers
// reserved. TEXT is the name (body "name-args") or a call id naming it, `PREFIX.NAME:INDEX`
// with the index counting the calls of the turn (body "call-id-args"). JSON must be the call's
// arguments. Anything else (DeepSeek V3's `function‹sep›NAME` + fenced JSON) is not this shape.
import type { BlockGrammar, MarkerMove } from "../../../families/grammar.ts";
import type { Generated, Piece, ProbeContext } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";

const A = { name: "probe_alpha", arguments: { city: "Paris", n: 1 }, id: "probe_id_a" };
const B = { name: "probe_beta", arguments: { flag: true, list: [1, "two"], none: null }, id: "probe_id_b" };

type Reserved = { readonly reserved: string; readonly id: number };
const isReserved = (p: Piece | undefined): p is Reserved => p !== undefined && "reserved" in p;
const textOf = (p: Piece | undefined): string | null => (p !== undefined && "text" in p ? p.text : null);
const samePiece = (a: Piece | undefined, b: Piece | undefined): boolean =>
  a !== undefined &&
  b !== undefined &&
  (isReserved(a) ? isReserved(b) && a.id === b.id : textOf(a) === textOf(b));

/** The pieces the call turn adds to the no-call turn (common leading and trailing pieces cut). */
function added(base: Generated, calls: Generated): readonly Piece[] {
  const a = base.pieces;
  const b = calls.pieces;
  let i = 0;
  while (i < a.length && i < b.length && samePiece(a[i], b[i])) i++;
  let j = 0;
  while (j < a.length - i && j < b.length - i && samePiece(a[a.length - 1 - j], b[b.length - 1 - j])) j++;
  return b.slice(i, b.length - j);
}

interface Shape {
  readonly sectionOpen?: string;
  readonly sectionClose?: string;
  readonly callOpen: string;
  readonly sep: string;
  readonly callClose: string;
  /** The TEXT of each call, in order. */
  readonly heads: readonly string[];
}

const blank = (s: string | null): boolean => s !== null && /^\s*$/u.test(s);

function sameJson(text: string, want: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(want);
  } catch {
    return false;
  }
}

/** Cuts the added pieces into the shape, checking each call's arguments; null when they are not that shape. */
function cut(pieces: readonly Piece[], args: readonly unknown[]): Shape | null {
  let k = 0;
  // Whitespace-only text between markers is layout the template writes.
  const rest = pieces.filter((p) => !blank(textOf(p)));
  let sectionOpen: string | undefined;
  if (isReserved(rest[0]) && isReserved(rest[1])) {
    sectionOpen = rest[0].reserved;
    k = 1;
  }
  let callOpen = "";
  let sep = "";
  let callClose = "";
  const heads: string[] = [];
  for (const want of args) {
    const [o, head, s, json, c] = [rest[k], rest[k + 1], rest[k + 2], rest[k + 3], rest[k + 4]];
    const h = textOf(head);
    const j = textOf(json);
    if (!isReserved(o) || h === null || !isReserved(s) || j === null || !isReserved(c)) return null;
    if (!sameJson(j.trim(), want)) return null;
    if (heads.length > 0 && (o.reserved !== callOpen || s.reserved !== sep || c.reserved !== callClose))
      return null;
    callOpen = o.reserved;
    sep = s.reserved;
    callClose = c.reserved;
    heads.push(h.trim());
    k += 5;
  }
  let sectionClose: string | undefined;
  if (k < rest.length) {
    const last = rest[k];
    if (!isReserved(last) || k + 1 !== rest.length || sectionOpen === undefined) return null;
    sectionClose = last.reserved;
  }
  if (
    new Set([callOpen, sep, callClose, sectionOpen, sectionClose]).size !==
    (sectionOpen === undefined ? 3 : 5)
  )
    return null;
  return {
    ...(sectionOpen !== undefined ? { sectionOpen } : {}),
    ...(sectionClose !== undefined ? { sectionClose } : {}),
    callOpen,
    sep,
    callClose,
    heads,
  };
}

type Body = "name-args" | "call-id-args";
type Head = Body | "caller-id";

/**
 * How TEXT names the call: the name itself, a call id `PREFIX.NAME:INDEX` (the same PREFIX each
 * time), or the request's call id as given ("caller-id": the template does not say how the
 * model's own ids name the call).
 */
function headSyntax(heads: readonly string[], names: readonly string[], ids: readonly string[]): Head | null {
  if (heads.every((h, i) => h === names[i])) return "name-args";
  if (heads.every((h, i) => h === ids[i])) return "caller-id";
  let prefix: string | null = null;
  for (const [i, h] of heads.entries()) {
    const tail = `.${names[i]}:${i}`;
    if (!h.endsWith(tail)) return null;
    const p = h.slice(0, h.length - tail.length);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/u.test(p) || (prefix !== null && p !== prefix)) return null;
    prefix = p;
  }
  return "call-id-args";
}

/** The shape of the renderings; "refused" when the template refused a call turn. */
function shapeOf(ctx: ProbeContext): { shape: Shape; body: Head } | "refused" | null {
  const tools = [A, B];
  const toolDefs = tools.map((t) => ({
    type: "function" as const,
    function: { name: t.name, description: `probe ${t.name}`, parameters: { type: "object" } },
  }));
  const base = ctx.assistant({ tools: toolDefs });
  const one = ctx.assistant({ calls: [A], tools: toolDefs });
  const two = ctx.assistant({ calls: [A, B], tools: toolDefs });
  const other = ctx.assistant({ calls: [B], tools: toolDefs });
  if (base === null || one === null || two === null || other === null) return "refused";
  const s1 = cut(added(base, one), [A.arguments]);
  const s2 = cut(added(base, two), [A.arguments, B.arguments]);
  const s3 = cut(added(base, other), [B.arguments]);
  if (s1 === null || s2 === null || s3 === null) return null;
  for (const s of [s2, s3])
    if (
      s.callOpen !== s1.callOpen ||
      s.sep !== s1.sep ||
      s.callClose !== s1.callClose ||
      s.sectionOpen !== s1.sectionOpen ||
      s.sectionClose !== s1.sectionClose
    )
      return null;
  const body = headSyntax(s2.heads, [A.name, B.name], [A.id, B.id]);
  if (
    body === null ||
    headSyntax(s1.heads, [A.name], [A.id]) !== body ||
    headSyntax(s3.heads, [B.name], [B.id]) !== body
  )
    return null;
  return { shape: s2, body };
}

/**
 * Known shapes, asked by name only when the template refuses to render a call turn (Kimi K2's
 * templates append to a list, which an immutable sandbox refuses, as transformers' does): all
 * five strings reserved and the call's three spelled by the template.
 */
const KNOWN: ReadonlyArray<Shape & { readonly body: Body }> = [
  {
    sectionOpen: "<|tool_calls_section_begin|>",
    sectionClose: "<|tool_calls_section_end|>",
    callOpen: "<|tool_call_begin|>",
    sep: "<|tool_call_argument_begin|>",
    callClose: "<|tool_call_end|>",
    heads: [],
    body: "call-id-args",
  },
];

function known(ctx: ProbeContext): { shape: Shape; body: Body } | null {
  for (const k of KNOWN) {
    const all = [k.sectionOpen, k.sectionClose, k.callOpen, k.sep, k.callClose];
    if (!all.every((s) => s !== undefined && ctx.id(s) !== undefined)) continue;
    if ([k.callOpen, k.sep, k.callClose].every((s) => ctx.source.includes(s)))
      return { shape: k, body: k.body };
  }
  return null;
}

function part(s: Shape, body: Body, evidence: string[]): FormatPart {
  // A call id naming the call is Moonshot's format (Kimi K2), whose peers' parsers also read a
  // call begun while thinking (it ends the thinking: vLLM's kimi_k2 reasoning parser), a call
  // without its section, and a call begin while a call is open (the next call).
  const lenient = body === "call-id-args";
  const markers: Record<string, MarkerMove> = {
    [s.callOpen]: { move: "block-open", block: "tool_call" },
    [s.sep]: { move: "separator", block: "tool_call" },
    [s.callClose]: { move: "block-close", block: "tool_call" },
  };
  const call: BlockGrammar = {
    name: "tool_call",
    emits: "action",
    kind: "tool_call",
    body,
    ...(lenient ? { reopens: true, endsReasoning: true } : {}),
  };
  const blocks: BlockGrammar[] = [];
  if (s.sectionOpen !== undefined && s.sectionClose !== undefined) {
    markers[s.sectionOpen] = { move: "block-open", block: "tool_calls" };
    markers[s.sectionClose] = { move: "block-close", block: "tool_calls" };
    blocks.push(
      { ...call, ...(lenient ? { alsoTopLevel: true } : {}) },
      {
        name: "tool_calls",
        emits: "container",
        children: ["tool_call"],
        ...(lenient ? { endsReasoning: true } : {}),
      },
    );
  } else blocks.push(call);
  if (lenient)
    evidence.push(
      "Kimi K2 rules of its peers' parsers: a call may start while thinking, outside its section, or without closing the previous call",
    );
  return {
    name: body === "name-args" ? "separated calls NAME{json}" : "separated calls ID{json} (call ids)",
    markers,
    blocks,
    evidence,
  };
}

export const separatedCall: Recognizer = {
  name: "separated-call",
  recognize(ctx) {
    const found = shapeOf(ctx);
    if (found === null) return null;
    if (found === "refused") {
      const k = known(ctx);
      if (k === null) return null;
      return part(k.shape, k.body, [
        `the template refuses to render a call; ${k.shape.callOpen}, ${k.shape.sep} and ${k.shape.callClose} are reserved and spelled by it`,
      ]);
    }
    const { shape: s, body: head } = found;
    if (head === "caller-id") {
      // The template writes the request's call id: the model's own ids are the known shape's.
      const k = KNOWN.find(
        (x) =>
          x.callOpen === s.callOpen &&
          x.sep === s.sep &&
          x.callClose === s.callClose &&
          x.sectionOpen === s.sectionOpen &&
          x.sectionClose === s.sectionClose,
      );
      if (k === undefined) return null;
      return part(k, k.body, [
        `a call renders as ${s.callOpen}CALL_ID${s.sep}{json}${s.callClose} inside ${s.sectionOpen}…${s.sectionClose}`,
        "the template writes the request's call id; the model's own ids are functions.NAME:IDX (Kimi K2), naming the call",
      ]);
    }
    const body = head;
    const evidence = [
      `a call renders as ${s.callOpen}${body === "name-args" ? "NAME" : "PREFIX.NAME:INDEX"}${s.sep}{json}${s.callClose}`,
    ];
    if (s.sectionOpen !== undefined)
      evidence.push(`the calls of a turn are inside ${s.sectionOpen}…${s.sectionClose}`);
    if (body === "call-id-args")
      evidence.push("the text before the separator is the call id, naming the call");
    return part(s, body, evidence);
  },
};
