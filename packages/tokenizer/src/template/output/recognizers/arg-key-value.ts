// GLM 4.5 / 4.6 / 4.7 calls: `‹open›NAME‹k›KEY‹/k›‹v›VALUE‹/v›…‹close›`, where the four key/value
// tags are reserved tokens (`<arg_key>` `</arg_key>` `<arg_value>` `</arg_value>` in GLM's
// vocabulary). Found by rendering a one-call turn: a reserved token, the probe's name as text,
// then four distinct reserved tokens around the probe's key and value (only whitespace between
// the second and third), then a reserved close. The four become separator markers of the call
// block in that order (body syntax "arg-key-value"); a two-call turn must wrap each call.
import { blockMarkers } from "../../../families/block-markers.ts";
import type { Generated, Piece } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";
import { callLayout, layoutEvidence } from "./call-layout.ts";

const NAME = "probe_fn";
const OTHER = "probe_other";
const KEY = "probe_key";
const VALUE = "probe value";
const BLOCK = "tool_call";

const isText = (p: Piece | undefined, want?: string): p is { readonly text: string } =>
  p !== undefined && "text" in p && (want === undefined || p.text.trim() === want);
const reservedOf = (p: Piece | undefined): string | undefined =>
  p !== undefined && "reserved" in p ? p.reserved : undefined;

/** [open, k, /k, v, /v, close] read from a one-call rendering, or null. */
function tags(g: Generated): readonly string[] | null {
  const ps = g.pieces.filter((p) => !("text" in p) || p.text.trim() !== "");
  const at = ps.findIndex((p) => isText(p, NAME));
  if (at < 1) return null;
  const open = reservedOf(ps[at - 1]);
  const k = reservedOf(ps[at + 1]);
  const kc = reservedOf(ps[at + 3]);
  const v = reservedOf(ps[at + 4]);
  const vc = reservedOf(ps[at + 6]);
  const close = reservedOf(ps[at + 7]);
  if (!isText(ps[at + 2], KEY) || !isText(ps[at + 5], VALUE)) return null;
  const all = [open, k, kc, v, vc, close];
  if (all.some((s) => s === undefined)) return null;
  return new Set(all).size === all.length ? (all as string[]) : null;
}

export const argKeyValue: Recognizer = {
  name: "arg-key-value",
  recognize(ctx): FormatPart | null {
    const one = ctx.assistant({ calls: [{ name: NAME, arguments: { [KEY]: VALUE } }] });
    if (one === null) return null;
    const t = tags(one);
    if (t === null) return null;
    const [open, k, kc, v, vc, close] = t as [string, string, string, string, string, string];
    const two = ctx.assistant({
      calls: [
        { name: NAME, arguments: { [KEY]: VALUE } },
        { name: OTHER, arguments: { [KEY]: VALUE } },
      ],
    });
    if (two === null || two.pieces.filter((p) => reservedOf(p) === open).length !== 2) return null;
    const sep = { move: "separator", block: BLOCK } as const;
    const newlines = callLayout(ctx, { name: NAME, arguments: { [KEY]: VALUE } }, open, close);
    return {
      name: `${open} key/value tags`,
      markers: {
        ...blockMarkers(open, close, BLOCK),
        [k]: sep,
        [kc]: sep,
        [v]: sep,
        [vc]: sep,
      },
      blocks: [
        {
          name: BLOCK,
          emits: "action",
          body: "arg-key-value",
          ...(newlines !== undefined ? { newlines } : {}),
        },
      ],
      evidence: [
        `a one-call turn renders ${open}NAME${k}KEY${kc}${v}VALUE${vc}${close}, all six reserved`,
        "a two-call turn wraps each call",
        ...layoutEvidence(newlines, open, close),
      ],
    };
  },
};
