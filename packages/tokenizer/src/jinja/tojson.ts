// transformers' `tojson` filter: json.dumps(x, ensure_ascii=ensure_ascii (default False),
// indent=indent, separators=separators, sort_keys=sort_keys), with provenance: the quotes, brackets,
// default separators and indentation are template text (an indent or separator string the template
// was handed keeps its own origin, a caller's is caller text); every character of a caller string (key or
// value), escaped or not, keeps the caller's origin — so a caller's `"` written as `\"` is two
// caller characters and can never close a template-made structure at the token level.
import { isJsonInteger, JSON_ESCAPES, pyFloatRepr } from "../py/json.ts";
import { ITEM_COST, type Meter, tooLong } from "./limits.ts";
import { type PStr, PStrBuilder, PStr as PStrClass } from "./pstr.ts";
import {
  compareKeys,
  type DictKey,
  PDict,
  PList,
  PyFloat,
  TemplateRuntimeError,
  typeName,
  type Value,
} from "./values.ts";

export interface JsonOptions {
  /**
   * null: one line; a number of spaces or a string per level. A string keeps its origin: a
   * caller's indent is caller text wherever it is written.
   */
  readonly indent: number | PStr | null;
  /** (item separator, key separator), each with its origin. */
  readonly separators: readonly [PStr, PStr] | null;
  readonly sortKeys: boolean;
  /** json.dumps(ensure_ascii=True): every unit outside U+0020-U+007E as \\uXXXX (default false). */
  readonly ensureAscii?: boolean;
}

function jsonString(s: PStr, out: PStrBuilder, ascii: boolean): void {
  out.add('"');
  for (let r = 0; r < s.runs.length; r++) {
    const run = s.runs[r] as string;
    const origin = s.origins[r] as number;
    let from = 0;
    for (let i = 0; i < run.length; i++) {
      const c = run.charCodeAt(i);
      if (c >= 0x20 && c !== 34 && c !== 92 && (!ascii || c < 0x7f)) continue;
      out.add(run.slice(from, i), origin);
      out.add(JSON_ESCAPES.get(c) ?? `\\u${c.toString(16).padStart(4, "0")}`, origin);
      from = i + 1;
    }
    out.add(from === 0 ? run : run.slice(from), origin);
  }
  out.add('"');
}

/** An interpreter int (a JS number with an integral value) as Python writes it: digits below 1e21 (docs/formats.md). */
function num(x: number): string {
  return isJsonInteger(x) ? String(x) : pyFloatRepr(x);
}

const COMMA_SPACE = PStrClass.of(", ");
const COMMA = PStrClass.of(",");
const COLON_SPACE = PStrClass.of(": ");

/**
 * json.dumps(v) with provenance. `cap`: the longest output (TemplateLimitError beyond it, found
 * while writing: no indentation string is made ahead of the output).
 */
export function toJson(v: Value, o: JsonOptions, cap = Number.POSITIVE_INFINITY, m?: Meter): PStr {
  const out = new PStrBuilder(cap);
  let indent: PStr | null = null;
  if (typeof o.indent === "number") {
    // json.dumps: a number is that many spaces (none for 0 or less); checked before it is made.
    if (o.indent > cap) throw tooLong(cap);
    indent = PStrClass.of(" ".repeat(Math.max(0, o.indent)));
  } else if (o.indent !== null) indent = o.indent;
  const ascii = o.ensureAscii === true;
  const [itemSep, keySep] =
    o.separators ?? (indent === null ? [COMMA_SPACE, COLON_SPACE] : [COMMA, COLON_SPACE]);
  const newline = (level: number): void => {
    out.add("\n");
    for (let i = 0; i < level; i++) out.push(indent as PStr);
  };
  const write = (x: Value, level: number): void => {
    if (level > 64) throw new TemplateRuntimeError("tojson: value nested too deeply");
    if (x === null) out.add("null");
    else if (x === true) out.add("true");
    else if (x === false) out.add("false");
    else if (typeof x === "number") out.add(num(x));
    else if (x instanceof PyFloat) out.add(pyFloatRepr(x.v));
    else if (x instanceof PStrClass) jsonString(x, out, ascii);
    else if (x instanceof PList && x.lazy !== null)
      throw new TemplateRuntimeError(`Object of type ${x.lazy} is not JSON serializable`);
    else if (x instanceof PList) {
      if (x.items.length === 0) {
        out.add("[]");
        return;
      }
      out.add("[");
      for (let i = 0; i < x.items.length; i++) {
        if (i > 0) out.push(itemSep);
        if (indent !== null) newline(level + 1);
        write(x.items[i] as Value, level + 1);
      }
      if (indent !== null) newline(level);
      out.add("]");
    } else if (x instanceof PDict) {
      if (x.map.size === 0) {
        out.add("{}");
        return;
      }
      const entries: Iterable<readonly [DictKey, Value]> = o.sortKeys ? sortedEntries(x, m) : x.map.values();
      out.add("{");
      let i = 0;
      for (const [k, y] of entries) {
        if (i++ > 0) out.push(itemSep);
        if (indent !== null) newline(level + 1);
        // json.dumps writes an int key as its decimal string.
        if (k instanceof PStrClass) jsonString(k, out, ascii);
        else out.add(`"${k}"`);
        out.push(keySep);
        write(y, level + 1);
      }
      if (indent !== null) newline(level);
      out.add("}");
    } else throw new TemplateRuntimeError(`Object of type ${typeName(x)} is not JSON serializable`);
  };
  write(v, 0);
  return out.finish();
}

/** sort_keys: the entries by key, the sort charged to `m` (n log n comparisons, each its characters). */
function sortedEntries(x: PDict, m: Meter | undefined): (readonly [DictKey, Value])[] {
  const n = x.map.size;
  if (n > 1) m?.charge(Math.ceil(n * Math.log2(n)) * ITEM_COST);
  return [...x.map.values()].sort((a, b) => compareKeys(a[0], b[0], false, m));
}
