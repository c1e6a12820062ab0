// The per-spec string tables of the engine's fast paths, filled lazily (an ID's entry at its
// first sight) and shared by every decoder of the spec: what the checked path would emit for
// a plain-text ID mid-span, and the newline rules' joined / cut strings. Entries are flat
// sequential copies (flatText) so a consumer's loads on them see few string maps.
import type { DecoderSpec } from "./spec.ts";
import { undefinedTable } from "./text-table.ts";
import type { ByteSplit } from "./utf8-pending.ts";

const PLAIN_TEXT = new WeakMap<DecoderSpec, (string | undefined)[]>();

/**
 * The fast path's one table, per spec (shared by its decoders, made at the first one): per ID
 * the text the checked path emits for a class Text ID mid-span with nothing held, or
 * undefined. It starts all undefined and is filled lazily, the first time an ID reaches
 * textNlPush (an eager fill over the whole vocabulary would delay the first decoder), with a flat copy
 * of spec.text[id] (flatText). Only class Text IDs with non-empty text are ever filled.
 */
export function plainTextOf(spec: DecoderSpec): (string | undefined)[] {
  return specTable(PLAIN_TEXT, spec);
}

const NL_TEXT = new WeakMap<DecoderSpec, (string | undefined)[]>();

/**
 * The newline rules' joined strings, per spec, filled lazily like plainTextOf (flat copies):
 * for a class Text ID, "\n" + its text (the token right after ONE held "\n"). A class TextNl
 * ID's cuts live in nlCutOf / nlAllCutOf. Made at the first newline rule a decoder of the spec
 * applies.
 */
export function nlTextOf(spec: DecoderSpec): (string | undefined)[] {
  return specTable(NL_TEXT, spec);
}

const NL2_TEXT = new WeakMap<DecoderSpec, (string | undefined)[]>();

/** Like nlTextOf: for a class Text ID, "\n\n" + its text (the token after a held paragraph break). */
export function nl2TextOf(spec: DecoderSpec): (string | undefined)[] {
  return specTable(NL2_TEXT, spec);
}

/** `prefix` + t for ID `id` (text t), flat, from `table` (the entry made at the ID's first use). */
export function joinedText(table: (string | undefined)[], id: number, prefix: string, t: string): string {
  let s = table[id];
  if (s === undefined) {
    s = flatText(prefix + t);
    table[id] = s;
  }
  return s;
}

const NL_CUT = new WeakMap<DecoderSpec, (string | undefined)[]>();

/**
 * Per spec, filled lazily like nlTextOf: for a class TextNl ID (text ending in "\n"), its text
 * minus its last "\n" (flat; newlines only, or "", when the text is only newlines). Only class
 * TextNl IDs ever get an entry, so an entry alone tells pushOther() the ID's class.
 */
export function nlCutOf(spec: DecoderSpec): (string | undefined)[] {
  return specTable(NL_CUT, spec);
}

/** A class TextNl ID's text minus ALL its trailing "\n" (flat), and how many there are. */
export interface NlAllCut {
  readonly cut: (string | undefined)[];
  /** Per ID: the number of trailing "\n" (0 = no entry yet). */
  readonly count: Uint8Array;
}
const NL_ALL_CUT = new WeakMap<DecoderSpec, NlAllCut>();

/**
 * Per spec, filled lazily like nlCutOf, for the every-held-newline rule (NL_ALL: reasoning
 * stripped of its trailing "\n" by the template): entries only for class TextNl IDs whose
 * trailing run is at most 255 "\n" (longer ones take the generic path).
 */
export function nlAllCutOf(spec: DecoderSpec): NlAllCut {
  let t = NL_ALL_CUT.get(spec);
  if (t === undefined) {
    t = { cut: undefinedTable(spec.classes.length), count: new Uint8Array(spec.classes.length) };
    NL_ALL_CUT.set(spec, t);
  }
  return t;
}

/** The spec's table in `tables`, made (all undefined, one per ID) at the first ask. */
function specTable(
  tables: WeakMap<DecoderSpec, (string | undefined)[]>,
  spec: DecoderSpec,
): (string | undefined)[] {
  let out = tables.get(spec);
  if (out === undefined) {
    out = undefinedTable(spec.classes.length);
    tables.set(spec, out);
  }
  return out;
}

const BYTE_SPLITS = new WeakMap<DecoderSpec, (ByteSplit | null | undefined)[]>();

/**
 * Per spec, filled lazily at each byte piece's first sight (the checked path): its ByteSplit,
 * or null when its bytes are not valid UTF-8 in that shape (those always take the checked
 * path). Made at the first byte piece a decoder of the spec meets.
 */
export function byteSplitsOf(spec: DecoderSpec): (ByteSplit | null | undefined)[] {
  let out = BYTE_SPLITS.get(spec);
  if (out === undefined) {
    out = undefinedTable<ByteSplit | null>(spec.classes.length);
    BYTE_SPLITS.set(spec, out);
  }
  return out;
}

const JSON_PLAIN = new WeakMap<DecoderSpec, Uint8Array>();

/** jsonPlainOf entries: not looked at yet, JSON-plain, not. */
export const PLAIN_UNKNOWN = 0;
export const PLAIN_YES = 1;
export const PLAIN_NO = 2;

/**
 * Per spec, filled lazily at an ID's first sight in an action body whose parser reads JSON
 * (BodyParser.feedPlain): PLAIN_YES when the ID's text holds no quote, backslash or unit
 * below U+0020, so a JSON reader inside a string takes it whole instead of scanning it again
 * per token.
 */
export function jsonPlainOf(spec: DecoderSpec): Uint8Array {
  let out = JSON_PLAIN.get(spec);
  if (out === undefined) {
    out = new Uint8Array(spec.classes.length);
    JSON_PLAIN.set(spec, out);
  }
  return out;
}

/** PLAIN_YES or PLAIN_NO for text `t` (see jsonPlainOf). */
export function jsonPlainness(t: string): number {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 34 || c === 92 || c < 32) return PLAIN_NO;
  }
  return PLAIN_YES;
}

const CODES: number[] = [];
/** Longest piece copied by flatText (a longer one is kept as it is: rare, and still correct). */
const FLAT_MAX = 4096;

/**
 * A fresh flat copy of `s`, equal to it: the table's strings then share one representation, so
 * a consumer's property loads on the text stay fast. Copies are made in first-use order, so
 * frequent pieces sit close together.
 */
export function flatText(s: string): string {
  const n = s.length;
  if (n === 1) return String.fromCharCode(s.charCodeAt(0));
  // A piece is the model file's: one that long would pass too many arguments to apply().
  if (n > FLAT_MAX) return s;
  CODES.length = n;
  for (let i = 0; i < n; i++) CODES[i] = s.charCodeAt(i);
  return String.fromCharCode.apply(null, CODES);
}
