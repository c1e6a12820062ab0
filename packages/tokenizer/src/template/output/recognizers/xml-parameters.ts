// Calls whose arguments are one XML tag per parameter (families/xml-spellings.ts): Qwen3-Coder /
// Qwen3.5 / Seed-OSS `<function=N>` `<parameter=K>`, MiniMax-M2 `<invoke name="N">` `<parameter
// name="K">`, DeepSeek V3.2 `<｜DSML｜invoke name="N">` `<｜DSML｜parameter name="K" string="…">`.
// Found by rendering a one-call turn: the spelling whose call and parameter tags surround the
// probe's name, key and value is the body syntax; what wraps the call is read from the same
// rendering: the reserved tokens right around it (only whitespace between: `<tool_call>`,
// `<seed:tool_call>`, `<minimax:tool_call>`), else the literal tags the template writes there
// (`<｜DSML｜function_calls>`), which become text markers. A two-call turn tells whether the
// wrapper holds one call or all of them; a spelling that reads one call per body cannot take the
// latter, and the template is then not recognized.
import { blockMarkers } from "../../../families/block-markers.ts";
import { XML_SPELLINGS, type XmlSpelling, type XmlSyntax } from "../../../families/xml-spellings.ts";
import type { Generated, Piece, ProbeContext } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";
import { callLayout, layoutEvidence } from "./call-layout.ts";

const NAME = "probe_fn";
const OTHER = "probe_other";
const KEY = "probe_key";
const VALUE = "probe value";
const BLOCK = "tool_call";

const blank = (s: string): boolean => /^\s*$/u.test(s);

/** The parameter tag the spelling writes for KEY holding a string. */
function paramTag(sp: XmlSpelling): string {
  if (!sp.quoted) return `${sp.paramOpen}${KEY}>`;
  const attr = sp.stringAttribute === undefined ? "" : ` ${sp.stringAttribute}="true"`;
  return `${sp.paramOpen}${KEY}"${attr}>`;
}

interface Found {
  readonly syntax: XmlSyntax;
  readonly sp: XmlSpelling;
  /** Offsets of the call in the rendering's text: [callOpen, end of callClose). */
  readonly from: number;
  readonly to: number;
}

function findCall(g: Generated): Found | null {
  for (const [syntax, sp] of Object.entries(XML_SPELLINGS) as [XmlSyntax, XmlSpelling][]) {
    const from = g.text.indexOf(`${sp.callOpen}${NAME}${sp.quoted ? '">' : ">"}`);
    if (from < 0) continue;
    const p = g.text.indexOf(paramTag(sp), from);
    if (p < 0) continue;
    const v = g.text.indexOf(VALUE, p);
    const close = g.text.indexOf(sp.paramClose, p);
    const end = g.text.indexOf(sp.callClose, p);
    if (v < 0 || close < v || end < close) continue;
    return { syntax, sp, from, to: end + sp.callClose.length };
  }
  return null;
}

/** The reserved tokens right around [from, to) with only whitespace between, or null. */
function reservedAround(g: Generated, from: number, to: number): readonly [string, string] | null {
  let start = 0;
  for (let k = 0; k < g.pieces.length; k++) {
    const piece = g.pieces[k] as Piece;
    const length = "text" in piece ? piece.text.length : piece.reserved.length;
    if ("text" in piece && start <= from && from < start + length) {
      // The call must lie in this one text piece, only whitespace beside it.
      if (to > start + length) return null;
      if (!blank(piece.text.slice(0, from - start)) || !blank(piece.text.slice(to - start))) return null;
      const open = g.pieces[k - 1];
      const close = g.pieces[k + 1];
      if (open === undefined || close === undefined || !("reserved" in open) || !("reserved" in close))
        return null;
      return open.reserved === close.reserved ? null : [open.reserved, close.reserved];
    }
    start += length;
  }
  return null;
}

/** Literal tags right around [from, to) (`<X>` … `</X>`, whitespace between), or null. */
function textAround(g: Generated, from: number, to: number): readonly [string, string] | null {
  const before = g.text.slice(0, from).trimEnd();
  if (!before.endsWith(">")) return null;
  const lt = before.lastIndexOf("<");
  if (lt < 0) return null;
  const open = before.slice(lt);
  if (!/^<[^<>/\s]+>$/u.test(open)) return null;
  const close = `</${open.slice(1)}`;
  return g.text.slice(to).trimStart().startsWith(close) ? [open, close] : null;
}

function count(g: Generated, marker: string, reserved: boolean): number {
  if (reserved) return g.pieces.filter((p) => "reserved" in p && p.reserved === marker).length;
  return g.text.split(marker).length - 1;
}

function part(ctx: ProbeContext): FormatPart | null {
  const one = ctx.assistant({ calls: [{ name: NAME, arguments: { [KEY]: VALUE } }] });
  if (one === null) return null;
  const found = findCall(one);
  if (found === null) return null;
  const reserved = reservedAround(one, found.from, found.to);
  const wrap = reserved ?? textAround(one, found.from, found.to);
  if (wrap === null) return null;
  const [open, close] = wrap;
  const two = ctx.assistant({
    calls: [
      { name: NAME, arguments: { [KEY]: VALUE } },
      { name: OTHER, arguments: { [KEY]: VALUE } },
    ],
  });
  const wrappers = two === null ? 1 : count(two, open, reserved !== null);
  if (wrappers < 2 && !found.sp.multiple) return null;
  const moves = blockMarkers(open, close, BLOCK);
  const newlines = callLayout(ctx, { name: NAME, arguments: { [KEY]: VALUE } }, open, close);
  const how = reserved !== null ? "reserved tokens" : "literal tags (text markers)";
  return {
    name: `${open} XML parameters (${found.syntax})`,
    markers: reserved !== null ? moves : {},
    ...(reserved === null ? { textMarkers: moves } : {}),
    blocks: [
      { name: BLOCK, emits: "action", body: found.syntax, ...(newlines !== undefined ? { newlines } : {}) },
    ],
    evidence: [
      `a one-call turn renders ${found.sp.callOpen}NAME… ${paramTag(found.sp).replace(KEY, "KEY")}VALUE${found.sp.paramClose} … ${found.sp.callClose}`,
      `the call is wrapped by the ${how} ${open} … ${close}`,
      wrappers < 2 ? "a two-call turn writes both calls in one wrapper" : "a two-call turn wraps each call",
      ...layoutEvidence(newlines, open, close),
    ],
  };
}

export const xmlParameters: Recognizer = {
  name: "xml-parameters",
  recognize: part,
};
