// Tool calls written after a reserved opening token as JSON, read from renderings of the
// template (one call, two calls, with and without a call id):
//
//   ‹TOOL_CALLS›[{"name": N, "arguments": {...}, "id": I}]          Mistral v3 (list, no close)
//   ‹TOOL_CALLS›N‹CALL_ID›I‹ARGS›{...}‹TOOL_CALLS›…                   Mistral v11+ (name-args)
//   ‹|START_ACTION|›[{"tool_call_id", "tool_name", "parameters"}]‹|END_ACTION|›   Command R7B
//   ‹TOOLCALL›[{"name", "arguments"}]‹/TOOLCALL›                      Nemotron Nano v2
//   ‹|tools_prefix|›[{"N": {...}}]‹|tools_suffix|›                    Apertus (named elements)
//   ‹|function_call|›{"name", "arguments"}                            GigaChat 3.1 (one object)
//
// The opening token is the first reserved token of a one-call turn (only whitespace before
// it); what follows it is either JSON text (a list of calls or one call object, then an
// optional reserved close) or the name as text followed by reserved separators (name-args).
// Where the name, the arguments and the id go is read from the JSON: the key whose value is
// the rendered name, the one holding the rendered arguments, a string key the template fills
// per call (the id). A two-call turn says whether each call repeats the opening token.
// A turn with no reserved token at all may open its calls with literal text (text markers):
// the text before a JSON list of calls opens them, the text after it closes them.
import type { BlockGrammar, MarkerMove } from "../../../families/grammar.ts";
import type { Generated, Piece, ProbeCall, ProbeContext } from "../context.ts";
import type { FormatPart, Recognizer } from "../part.ts";
import { parse, sameJson } from "./json-values.ts";

// Nine alphanumerics: Mistral's templates refuse any other call id.
const A: ProbeCall = { name: "probe_tool_a", arguments: { k: "v", n: 1 }, id: "probeida1" };
const B: ProbeCall = { name: "probe_tool_b", arguments: { m: [true, null] }, id: "probeidb2" };

const blank = (s: string): boolean => /^\s*$/u.test(s);
const isText = (p: Piece | undefined): p is { readonly text: string } => p !== undefined && "text" in p;
const isReserved = (p: Piece | undefined): p is { readonly reserved: string; readonly id: number } =>
  p !== undefined && "reserved" in p;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A one-call rendering (with a call id when the template takes one, else without). */
function renderOne(ctx: ProbeContext): { g: Generated; withId: boolean } | null {
  const withId = ctx.assistant({ calls: [A] });
  if (withId !== null) return { g: withId, withId: true };
  const { id: _, ...plain } = A;
  const g = ctx.assistant({ calls: [plain] });
  return g === null ? null : { g, withId: false };
}

/** The keys of a rendered call object, or null when it is not A's. */
function callKeys(
  o: Record<string, unknown>,
  call: ProbeCall,
): { name: string; args: "arguments" | "parameters"; id?: string } | null {
  const keys = Object.keys(o);
  const name = keys.find((k) => o[k] === call.name);
  const args = keys.find((k) => k !== name && sameJson(o[k], call.arguments));
  if (name === undefined || (args !== "arguments" && args !== "parameters")) return null;
  const strings = keys.filter((k) => k !== name && k !== args && typeof o[k] === "string");
  const id = strings.find((k) => o[k] === call.id) ?? strings[0];
  return id === undefined ? { name, args } : { name, args, id };
}

interface Shape {
  readonly name: string;
  readonly block: BlockGrammar;
  readonly seps: readonly string[];
  readonly close?: string;
  readonly evidence: readonly string[];
}

/** JSON text right after the opening token: a list of calls or one call object. */
function jsonShape(g: Generated, at: number, one: { withId: boolean }): Shape | null {
  const body = g.pieces[at + 1];
  if (!isText(body)) return null;
  const after = g.pieces[at + 2];
  return shapeOf(parse(body.text.trim()), isReserved(after) ? after.reserved : undefined, one);
}

/** A rendered JSON value as calls: a list of call objects, of {NAME: ARGS}, or one call object. */
function shapeOf(v: unknown, close: string | undefined, one: { withId: boolean }): Shape | null {
  const closeLine =
    close === undefined ? "no close marker: the calls run to the end of the turn" : `closed by ${close}`;
  const base = { name: "tool_calls", emits: "action", kind: "tool_call" } as const;
  if (Array.isArray(v) && v.length === 1 && isRecord(v[0])) {
    const e = v[0];
    const keys = Object.keys(e);
    if (keys.length === 1 && keys[0] === A.name && sameJson(e[A.name], A.arguments))
      return {
        name: "JSON list of {NAME: ARGS}",
        block: { ...base, body: "json-named-call-list" },
        seps: [],
        ...(close !== undefined ? { close } : {}),
        evidence: ["a call renders as a JSON list of objects keyed by the tool name", closeLine],
      };
    const k = callKeys(e, A);
    if (k === null) return null;
    const idKey = one.withId ? k.id : undefined;
    const custom = k.name !== "name" || (idKey !== undefined && idKey !== "id");
    return {
      name: `JSON list of calls (${k.name}, ${k.args}${idKey !== undefined ? `, ${idKey}` : ""})`,
      block: {
        ...base,
        body: "json-call-list",
        ...(k.args === "parameters" ? { argumentsKey: "parameters" } : {}),
        ...(custom ? { callKeys: { name: k.name, ...(idKey !== undefined ? { id: idKey } : {}) } } : {}),
      },
      seps: [],
      ...(close !== undefined ? { close } : {}),
      evidence: [
        `a call renders as a JSON list: name in "${k.name}", arguments in "${k.args}"${idKey !== undefined ? `, id in "${idKey}"` : ""}`,
        closeLine,
      ],
    };
  }
  if (isRecord(v)) {
    const k = callKeys(v, A);
    if (k === null || k.name !== "name") return null;
    return {
      name: "JSON call object",
      block: {
        ...base,
        body: "json-call",
        ...(k.args === "parameters" ? { argumentsKey: "parameters" } : {}),
      },
      seps: [],
      ...(close !== undefined ? { close } : {}),
      evidence: [`a call renders as one JSON object {"name", "${k.args}"}`, closeLine],
    };
  }
  return null;
}

/** NAME‹sep›[ID‹sep›]ARGS after the opening token (name-args). */
function nameArgsShape(g: Generated, at: number): Shape | null {
  const name = g.pieces[at + 1];
  if (!isText(name) || name.text !== A.name) return null;
  const seps: string[] = [];
  let k = at + 2;
  const first = g.pieces[k];
  if (!isReserved(first)) return null;
  seps.push(first.reserved);
  k++;
  const idText = g.pieces[k];
  const second = g.pieces[k + 1];
  if (isText(idText) && idText.text === A.id && isReserved(second)) {
    seps.push(second.reserved);
    k += 2;
  }
  const args = g.pieces[k];
  if (!isText(args) || !sameJson(parse(args.text), A.arguments)) return null;
  return {
    name: `NAME${seps.join("ID")}ARGS calls`,
    block: { name: "tool_calls", emits: "action", kind: "tool_call", body: "name-args" },
    seps,
    evidence: [`a call renders as its name, ${seps.join(", then the id and ")}, then its JSON arguments`],
  };
}

function count(g: Generated | null, reserved: string): number {
  return g === null ? 0 : g.pieces.filter((p) => isReserved(p) && p.reserved === reserved).length;
}

/** The end of the JSON container that opens at text[i] (strings skipped), or -1. */
function containerEnd(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '"') {
      for (j++; j < text.length && text[j] !== '"'; j++) if (text[j] === "\\") j++;
    } else if (c === "[" || c === "{") depth++;
    else if ((c === "]" || c === "}") && --depth === 0) return j + 1;
  }
  return -1;
}

/**
 * The longest end of `text` (whole words) that the template source spells, a newline also as
 * the two characters of a "\n" escape in a Jinja string (Command-R's '\nAction:\n```json'):
 * the marker is what the template writes, not the role header a turn may repeat before it.
 */
function spelled(source: string, text: string): string {
  for (let k = 0; k < text.length; k++) {
    if (k > 0 && !/\s/u.test(text[k - 1] ?? "")) continue;
    const t = text.slice(k);
    if (/^\s/u.test(t)) continue;
    if (source.includes(t) || source.includes(t.replaceAll("\n", "\\n"))) return t;
  }
  return "";
}

/** The longest start of `text` that the template source spells ("" when none). */
function spelledStart(source: string, text: string): string {
  for (let k = text.length; k > 0; k--) {
    const t = text.slice(0, k);
    if (source.includes(t) || source.includes(t.replaceAll("\n", "\\n"))) return t;
  }
  return "";
}

/**
 * Calls written after literal text, no reserved token (FireFunction ` functools[…]`, Apriel
 * `<tool_calls>[…]</tool_calls>`, Command-R `Action:\n```json\n[…]```): the text before the
 * first JSON list that reads as calls opens them, the text after it (if any) closes them.
 */
function textCalls(ctx: ProbeContext, g: Generated, one: { withId: boolean }): FormatPart | null {
  // The first text of the turn; reserved tokens before it must be the generation prompt's own
  // (a template that writes the role header again for a call turn: Command-R).
  const k = g.pieces.findIndex((p) => isText(p) && !blank(p.text));
  const piece = g.pieces[k];
  if (!isText(piece)) return null;
  const header = new Set((ctx.prompt()?.pieces ?? []).filter(isReserved).map((p) => p.reserved));
  if (!g.pieces.slice(0, k).every((p) => isText(p) || header.has(p.reserved))) return null;
  const text = piece.text;
  // Renderings are short; a long one is not a call rendering worth a quadratic search.
  if (text.length > 4096) return null;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "[") continue;
    const end = containerEnd(text, i);
    if (end < 0) continue;
    const open = spelled(ctx.source, text.slice(0, i).trim());
    const close = spelledStart(ctx.source, text.slice(end).trim());
    if (open === "" || /\s/u.test(close)) continue;
    const shape = shapeOf(parse(text.slice(i, end)), close === "" ? undefined : close, one);
    if (shape === null) continue;
    const calls = one.withId ? [A, B] : [A, B].map(({ id: _, ...c }) => c);
    const two = ctx.assistant({ calls });
    if (two === null || two.text.split(open).length !== 2) return null;
    const textMarkers: Record<string, MarkerMove> = { [open]: { move: "block-open", block: "tool_calls" } };
    if (close !== "") textMarkers[close] = { move: "block-close", block: "tool_calls" };
    return {
      name: `${JSON.stringify(open)} ${shape.name}`,
      markers: {},
      textMarkers,
      blocks: [shape.block],
      evidence: [
        `a call opens with the text ${JSON.stringify(open)}`,
        ...shape.evidence,
        "two calls share one opening",
      ],
    };
  }
  return null;
}

export const jsonCalls: Recognizer = {
  name: "json-calls",
  recognize(ctx) {
    const one = renderOne(ctx);
    if (one === null) return null;
    const { g } = one;
    const at = g.pieces.findIndex((p) => !(isText(p) && blank(p.text)));
    const open = g.pieces[at];
    if (!isReserved(open)) return textCalls(ctx, g, one);
    const shape = jsonShape(g, at, one) ?? nameArgsShape(g, at);
    if (shape === null) return textCalls(ctx, g, one);
    const calls = one.withId ? [A, B] : [A, B].map(({ id: _, ...c }) => c);
    const two = ctx.assistant({ calls });
    const perCall = count(two, open.reserved) >= 2;
    const list = shape.block.body === "json-call-list" || shape.block.body === "json-named-call-list";
    // A block without a close token whose opening token starts each call: the next opening
    // ends the call before it.
    const reopens = perCall && shape.close === undefined;
    if (perCall && list) return null; // one list per call: not a shape the decoder reads as one
    const markers: Record<string, MarkerMove> = {
      [open.reserved]: { move: "block-open", block: "tool_calls" },
    };
    if (shape.close !== undefined) markers[shape.close] = { move: "block-close", block: "tool_calls" };
    for (const s of shape.seps) markers[s] = { move: "separator", block: "tool_calls" };
    return {
      name: `${open.reserved} ${shape.name}`,
      markers,
      blocks: [{ ...shape.block, ...(reopens ? { reopens: true } : {}) }],
      evidence: [
        `a call opens with ${open.reserved}`,
        ...shape.evidence,
        perCall ? `each of two calls opens with ${open.reserved}` : "two calls share one opening",
      ],
    };
  },
};
