// LFM2 / LFM2.5: the calls of a turn as one Python list between two reserved tokens,
// `<|tool_call_start|>[get_time(city="Paris"), f(n=1)]<|tool_call_end|>`. Derived from
// renderings: a one-call turn must render as OPEN `[probe_tool(k=…)]` CLOSE (two reserved tokens
// around a Python call of the probe's name), a two-call turn as both calls in ONE list, and the
// values of each JSON type in Python spelling (True / None), which is the body syntax
// "python-call-list" reads. Some LFM2 templates drop an assistant's tool calls from every
// rendering (only the content is written); for those, the format is known only by name: the
// vocabulary reserves LFM2's two call markers and the template writes LFM2's "List of tools"
// system line, and the evidence says so.
import { blockMarkers } from "../../../families/block-markers.ts";
import type { ProbeContext, ProbeTurn } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";
import { ONE, TWO } from "./probe-turns.ts";

const START = "<|tool_call_start|>";
const END = "<|tool_call_end|>";
/** LFM2's templates put the request's tools in the system turn after this text. */
const TOOL_LIST_LINE = "List of tools";

const TYPES: ProbeTurn = {
  calls: [{ name: "probe_tool", arguments: { t: true, f: false, z: null, n: -2 } }],
};

/** A quoted "v" in either quote. */
const ONE_CALL = /^\s*\[\s*probe_tool\(\s*k\s*=\s*(?:"v"|'v')\s*\)\s*\]\s*$/u;
const TWO_CALLS =
  /^\s*\[\s*probe_tool\(\s*k\s*=\s*(?:"v"|'v')\s*\)\s*,\s*other_tool\(\s*n\s*=\s*1\s*\)\s*\]\s*$/u;

/** The reserved strings around the only text piece of a rendering, and that text, or null. */
function wrapped(ctx: ProbeContext, turn: ProbeTurn): readonly [string, string, string] | null {
  const g = ctx.assistant(turn);
  if (g === null) return null;
  const at = g.pieces.findIndex((p) => "text" in p && p.text.includes("probe_tool("));
  const open = g.pieces[at - 1];
  const body = g.pieces[at];
  const close = g.pieces[at + 1];
  if (open === undefined || body === undefined || close === undefined) return null;
  if (!("reserved" in open) || !("text" in body) || !("reserved" in close)) return null;
  return [open.reserved, body.text, close.reserved];
}

function part(open: string, close: string, evidence: readonly string[]): FormatPart {
  return {
    name: "Python call list",
    markers: {
      ...blockMarkers(open, close, "tool_calls"),
    },
    blocks: [{ name: "tool_calls", emits: "action", kind: "tool_call", body: "python-call-list" }],
    evidence,
  };
}

function derived(ctx: ProbeContext): FormatPart | null {
  const one = wrapped(ctx, ONE);
  if (one === null || !ONE_CALL.test(one[1])) return null;
  const [open, , close] = one;
  const two = wrapped(ctx, TWO);
  if (two === null || two[0] !== open || two[2] !== close || !TWO_CALLS.test(two[1])) return null;
  const types = wrapped(ctx, TYPES);
  if (types === null || !/t=True\b/u.test(types[1]) || !/z=None\b/u.test(types[1])) return null;
  return part(open, close, [
    `a one-call turn renders as ${open}[probe_tool(k='v')]${close}`,
    "two calls render as one Python list, separated by ', '",
    "values are Python literals (True, None)",
  ]);
}

function byName(ctx: ProbeContext): FormatPart | null {
  if (ctx.id(START) === undefined || ctx.id(END) === undefined) return null;
  if (!ctx.source.includes(TOOL_LIST_LINE)) return null;
  const g = ctx.assistant(ONE);
  if (g === null || g.text.includes("probe_tool")) return null; // the template writes calls: derived() decides
  return part(START, END, [
    "the template drops an assistant's tool calls from its renderings",
    `${START} and ${END} are reserved and the template writes LFM2's "${TOOL_LIST_LINE}" line`,
  ]);
}

export const pythonCallList: Recognizer = {
  name: "python-call-list",
  recognize(ctx) {
    return derived(ctx) ?? byName(ctx);
  },
};
