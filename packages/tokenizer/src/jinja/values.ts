// The interpreter's values, with Python semantics: None, bool, int (a JS number, always
// integral), float (PyFloat: prints as Python's repr, 2.0 not 2), str (PStr, with
// provenance), list/tuple, dict (insertion-ordered, keys keep their provenance), jinja2's
// Undefined, namespace()/loop objects, and callables (macros, globals, bound methods).
import { isJsonInteger, pyFloatRepr } from "../py/json.ts";
import { allocated, ITEM_COST, type Meter, TemplateLimitError } from "./limits.ts";
import { PStr, PStrBuilder, TEMPLATE } from "./pstr.ts";

/** jinja2's default Undefined: prints "", iterates empty, is falsy; attribute access on it fails. */
export class PyUndefined {
  constructor(readonly name: string) {}
}

/** A Python float (ints are plain integral numbers). */
export class PyFloat {
  constructor(readonly v: number) {}
}

/** The numeric value of a bool/int/float, or undefined. */
export function numOf(v: Value): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return Number(v);
  if (v instanceof PyFloat) return v.v;
  return undefined;
}

export class PList {
  constructor(
    readonly items: Value[],
    readonly tuple = false,
    /**
     * Python's type name when the value is a one-shot iterator in jinja2 (`map`, `select`,
     * `selectattr`, `unique`, `items` give a "generator", `reverse` of a list a
     * "list_reverseiterator"): always true, no len(), not JSON-serializable, printed as a
     * memory address (refused here). Iterating it twice is not modelled (it stays a list).
     */
    readonly lazy: string | null = null,
    /** A named tuple's field names (jinja2's groupby gives `_GroupTuple(grouper, list)`): item i is also attribute fields[i]. */
    readonly fields: readonly string[] | null = null,
  ) {
    allocated.items += items.length;
  }

  /** The named tuple field `name`, or undefined. */
  field(name: string): Value | undefined {
    const i = this.fields === null ? -1 : this.fields.indexOf(name);
    return i < 0 ? undefined : this.items[i];
  }
}

/** A dict key: a string (with provenance) or an int (a template's own `{0: 0, 512: 128}`). */
export type DictKey = PStr | number;

/** A dict's entries in insertion order: key text (or the int) -> [key, value]. */
export type DictEntries = Map<string | number, readonly [DictKey, Value]>;

/**
 * Where a lazy dict's entries come from (a caller message, ../template/chat.ts): single values on demand,
 * all entries (in order, keys with their provenance) when the dict is first read as a whole.
 * get(k) and entries().get(k) agree, and a value get() gave is the one entries() holds.
 */
export interface DictSource {
  get(key: string | number): Value | undefined;
  entries(): DictEntries;
}

export class PDict {
  private entriesMap: DictEntries | undefined;
  private source: DictSource | undefined;

  /** `source`: a lazy dict (read through it until the whole map is needed). */
  constructor(source?: DictSource) {
    if (source === undefined) this.entriesMap = new Map();
    else this.source = source;
  }

  /** key text (or the int) -> [key, value], in insertion order. */
  get map(): DictEntries {
    if (this.entriesMap === undefined) {
      this.entriesMap = (this.source as DictSource).entries();
      this.source = undefined;
    }
    return this.entriesMap;
  }

  get(key: string | number): Value | undefined {
    if (this.entriesMap === undefined) return (this.source as DictSource).get(key);
    return this.entriesMap.get(key)?.[1];
  }

  set(key: DictKey, value: Value): void {
    allocated.items++;
    this.map.set(key instanceof PStr ? key.text : key, [key, value]);
  }

  /** The map key a lookup value finds (Python hashing: True == 1, 2.0 == 2); undefined: none. */
  static keyOf(v: Value): string | number | undefined {
    if (v instanceof PStr) return v.text;
    if (typeof v === "number") return Number.isInteger(v) ? v : undefined;
    if (typeof v === "boolean") return Number(v);
    if (v instanceof PyFloat) return Number.isInteger(v.v) ? v.v : undefined;
    return undefined;
  }
}

/** Python's `<` between two dict keys (sorted() of keys: str with str, int with int); `m` is charged the work. */
export function compareKeys(a: DictKey, b: DictKey, fold = false, m?: Meter): number {
  if (typeof a === "number" && typeof b === "number") {
    m?.charge(ITEM_COST);
    return a - b;
  }
  if (a instanceof PStr && b instanceof PStr) {
    m?.charge(ITEM_COST + (fold ? a.length + b.length : Math.min(a.length, b.length)));
    return fold ? comparePy(a.text.toLowerCase(), b.text.toLowerCase()) : comparePy(a.text, b.text);
  }
  throw new TemplateRuntimeError("'<' not supported between instances of 'str' and 'int'");
}

/** An object's attributes: a Map (namespace, cycler) or the loop object's view (./loop.ts). */
export interface AttrMap extends Iterable<[string, Value]> {
  get(name: string): Value | undefined;
  set(name: string, v: Value): unknown;
}

/** namespace(...) (attributes assignable with {% set ns.x = ... %}) and the `loop` object. */
export class PObject {
  constructor(
    readonly kind: "namespace" | "loop" | "cycler",
    readonly attrs: AttrMap,
    /** A namespace's attribute names that came from caller text (namespace(d), namespace(**d)). */
    readonly keys?: Map<string, PStr>,
  ) {}
}

export interface CallArgs {
  readonly args: readonly Value[];
  readonly kwargs: ReadonlyMap<string, Value>;
  /**
   * The keyword names that came from a `**mapping` (a caller dict's keys), with their
   * provenance: whoever turns a keyword name into text (a macro's `kwargs`, `dict(**d)`,
   * `namespace(**d)`) takes the key from here, so a caller key stays caller text.
   */
  readonly keys?: ReadonlyMap<string, PStr>;
}

/** The keyword name `k` of a call as a string value: the caller's key when it came from `**d`. */
export function kwargKey(a: CallArgs, k: string): PStr {
  return a.keys?.get(k) ?? PStr.of(k);
}

export class Callable {
  constructor(
    readonly name: string,
    readonly call: (a: CallArgs) => Value,
  ) {}
}

export type Value =
  | null
  | boolean
  | number
  | PyFloat
  | PStr
  | PList
  | PDict
  | PObject
  | Callable
  | PyUndefined;

export class TemplateRuntimeError extends Error {}

export function isStr(v: Value): v is PStr {
  return v instanceof PStr;
}

export function truthy(v: Value): boolean {
  if (v === null || v instanceof PyUndefined) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (v instanceof PyFloat) return v.v !== 0;
  if (v instanceof PStr) return v.length > 0;
  if (v instanceof PList) return v.lazy !== null || v.items.length > 0;
  if (v instanceof PDict) return v.map.size > 0;
  return true;
}

export function typeName(v: Value): string {
  if (v === null) return "NoneType";
  if (v instanceof PyUndefined) return "Undefined";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (v instanceof PyFloat) return "float";
  if (v instanceof PStr) return "str";
  if (v instanceof PList) return v.lazy ?? (v.tuple ? "tuple" : "list");
  if (v instanceof PDict) return "dict";
  if (v instanceof Callable) return "function";
  return v.kind === "namespace" ? "Namespace" : "LoopContext";
}

function numStr(n: number): string {
  return isJsonInteger(n) ? String(n) : floatStr(n);
}

/** Python's str() of a float: its repr, with inf / -inf / nan (JSON writes Infinity / NaN). */
function floatStr(x: number): string {
  if (Number.isFinite(x)) return pyFloatRepr(x);
  return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
}

function escapeCodePoint(cp: number): string {
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\U${cp.toString(16).padStart(8, "0")}`;
}

/**
 * Where repr() may escape: backslash, \\n \\r \\t, quotes, and any unit outside printable ASCII
 * (a plain class, fast to scan); a non-ASCII candidate is escaped only when NON_PRINTABLE.
 */
const REPR_CANDIDATE = /[\\\n\r\t'"]|[^\x20-\x7e]/g;
/** Characters Python's str.isprintable() rejects (repr escapes them); space is printable. */
const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/**
 * Python repr() of a string: quotes are template, escaped characters keep their origin. One
 * regex scan per run finds the candidates; the text between is copied as one slice.
 */
export function reprStr(s: PStr, out: PStrBuilder): void {
  const text = s.text;
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  out.add(quote);
  s.forEachRun((run, origin) => {
    let from = 0;
    REPR_CANDIDATE.lastIndex = 0;
    for (let m = REPR_CANDIDATE.exec(run); m !== null; m = REPR_CANDIDATE.exec(run)) {
      let ch = m[0];
      let esc: string;
      if (ch === "\\") esc = "\\\\";
      else if (ch === "\n") esc = "\\n";
      else if (ch === "\r") esc = "\\r";
      else if (ch === "\t") esc = "\\t";
      else if (ch === "'" || ch === '"') {
        if (ch !== quote) continue;
        esc = `\\${quote}`;
      } else {
        // A whole code point (a surrogate pair is one character to Python).
        const cp = run.codePointAt(m.index) as number;
        ch = String.fromCodePoint(cp);
        if (cp > 0xffff && ch.length === 2) REPR_CANDIDATE.lastIndex = m.index + 2;
        if (!NON_PRINTABLE.test(ch)) continue;
        esc = escapeCodePoint(cp);
      }
      out.add(run.slice(from, m.index), origin);
      out.add(esc, origin);
      from = m.index + ch.length;
    }
    out.add(from === 0 ? run : run.slice(from), origin);
  });
  out.add(quote);
}

/** Python repr() (what str() of a list/dict shows for its members). */
export function repr(v: Value, out: PStrBuilder, depth = 0): void {
  if (depth > 64) throw new TemplateRuntimeError("value nested too deeply to print");
  if (v instanceof PStr) reprStr(v, out);
  else if (v instanceof PList && v.lazy !== null)
    throw new TemplateRuntimeError(`printing a ${v.lazy} (jinja2 prints its memory address)`);
  else if (v instanceof PList) {
    out.add(v.tuple ? "(" : "[");
    v.items.forEach((x, i) => {
      if (i > 0) out.add(", ");
      repr(x, out, depth + 1);
    });
    out.add(v.tuple ? (v.items.length === 1 ? ",)" : ")") : "]");
  } else if (v instanceof PDict) {
    out.add("{");
    let first = true;
    for (const [k, x] of v.map.values()) {
      if (!first) out.add(", ");
      first = false;
      if (k instanceof PStr) reprStr(k, out);
      else out.add(String(k));
      out.add(": ");
      repr(x, out, depth + 1);
    }
    out.add("}");
  } else out.push(str(v));
}

/**
 * Python str() (what {{ v }}, `~` and the `string` filter produce). `cap`: the longest printed
 * form of a list, dict or namespace (a longer one is TemplateLimitError, found while printing).
 */
export function str(v: Value, cap = Number.POSITIVE_INFINITY): PStr {
  if (v instanceof PStr) return v;
  if (v instanceof PyUndefined) return PStr.EMPTY;
  if (v === null) return PStr.of("None");
  if (v === true) return PStr.of("True");
  if (v === false) return PStr.of("False");
  if (typeof v === "number") return PStr.of(numStr(v));
  if (v instanceof PyFloat) return PStr.of(floatStr(v.v));
  if (v instanceof PList || v instanceof PDict) {
    const b = new PStrBuilder(cap);
    repr(v, b);
    return b.finish();
  }
  if (v instanceof Callable) return PStr.of(`<function ${v.name}>`);
  if (v.kind === "namespace") {
    const b = new PStrBuilder(cap);
    b.add("<Namespace {");
    let first = true;
    for (const [k, x] of v.attrs) {
      if (!first) b.add(", ");
      first = false;
      reprStr(v.keys?.get(k) ?? PStr.of(k), b);
      b.add(": ");
      repr(x, b);
    }
    b.add("}>");
    return b.finish();
  }
  return PStr.of(`<${typeName(v)}>`);
}

/** str(v).text when it is at most `cap` units long, else a placeholder (error messages, audit needles). */
export function shortText(v: Value, cap: number): string {
  try {
    return str(v, cap).text;
  } catch (e) {
    if (e instanceof TemplateLimitError) return `<${typeName(v)} too long to print>`;
    throw e;
  }
}

/** Python ==; `m` is charged the work (characters compared, items visited). */
export function equals(a: Value, b: Value, depth = 0, m?: Meter): boolean {
  if (depth > 64) throw new TemplateRuntimeError("value nested too deeply to compare");
  if (a instanceof PStr) {
    if (!(b instanceof PStr)) return false;
    m?.charge(ITEM_COST + Math.min(a.length, b.length));
    return a.length === b.length && a.text === b.text;
  }
  m?.charge(ITEM_COST);
  const x = numOf(a);
  if (x !== undefined) return numOf(b) === x;
  if (a instanceof PList) {
    if (a.lazy !== null || (b instanceof PList && b.lazy !== null)) return a === b;
    if (!(b instanceof PList) || a.tuple !== b.tuple || a.items.length !== b.items.length) return false;
    for (let i = 0; i < a.items.length; i++)
      if (!equals(a.items[i] as Value, b.items[i] as Value, depth + 1, m)) return false;
    return true;
  }
  if (a instanceof PDict) {
    if (!(b instanceof PDict) || a.map.size !== b.map.size) return false;
    for (const [k, [, x]] of a.map) {
      const y = b.map.get(k);
      if (y === undefined || !equals(x, y[1], depth + 1, m)) return false;
    }
    return true;
  }
  if (a === null) return b === null;
  if (a instanceof PyUndefined) return b instanceof PyUndefined;
  return a === b;
}

/** Python <, for numbers and strings (code point order); anything else is a TypeError. `m`: charged. */
export function less(a: Value, b: Value, m?: Meter): boolean {
  const x = numOf(a);
  const y = numOf(b);
  if (x !== undefined && y !== undefined) {
    m?.charge(ITEM_COST);
    return x < y;
  }
  if (a instanceof PStr && b instanceof PStr) {
    m?.charge(ITEM_COST + Math.min(a.length, b.length));
    return comparePy(a.text, b.text) < 0;
  }
  throw new TemplateRuntimeError(`'<' not supported between ${typeName(a)} and ${typeName(b)}`);
}

/**
 * Code point order (JS `<` compares UTF-16 units, which differs above U+FFFF): the first
 * differing unit decides, except that a surrogate (U+D800-U+DFFF, part of a code point above
 * U+FFFF) sorts after every unit from U+E000 up. No allocation: one pass over the common prefix.
 */
export function comparePy(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const p = a.charCodeAt(i);
    const q = b.charCodeAt(i);
    if (p === q) continue;
    const ps = p >= 0xd800 && p <= 0xdfff;
    const qs = q >= 0xd800 && q <= 0xdfff;
    if (ps && !qs && q >= 0xe000) return 1;
    if (qs && !ps && p >= 0xe000) return -1;
    return p - q;
  }
  return a.length - b.length;
}

/** A template-origin string value. */
export function tpl(s: string): PStr {
  return PStr.of(s, TEMPLATE);
}
