// jinja2's built-in filters and tests as real chat templates use them, with Python semantics and
// provenance (trim = Python str.strip, so U+FEFF stays and U+0085/U+001C-U+001F go; `string` of a
// list is Python's str(); tojson is transformers' json.dumps). Unknown names are typed errors.
import type { Interpreter } from "./interpreter.ts";
import { ITEM_COST, tooLong, VALUE_COST } from "./limits.ts";
import { forceEscape, htmlEscapeValue, markSafe } from "./markup.ts";
import { attrOnly } from "./methods.ts";
import { percentFormat } from "./percent.ts";
import { concat, PStr } from "./pstr.ts";
import { jinjaTitle, pyCapitalize, pyIsLower, pyIsUpper, pyLower, pyUpper } from "./py-case.ts";
import { roundFilter } from "./py-round.ts";
import { pyIndex, pyPad, pyReplace, pyRsplit, pySlice, pyStrip, replaceCount } from "./py-str.ts";
import { toJson } from "./tojson.ts";
import {
  type CallArgs,
  Callable,
  compareKeys,
  equals,
  kwargKey,
  less,
  numOf,
  PDict,
  PList,
  PObject,
  PyFloat,
  PyUndefined,
  TemplateRuntimeError,
  truthy,
  typeName,
  type Value,
} from "./values.ts";

/** What jinja2's map/select/unique/items filters return (values.ts PList.lazy). */
const GENERATOR = "generator";

/** Python's type of reversed(v) (null: do_reverse falls back to a reversed list). */
function reversedType(v: Value): string | null {
  if (v instanceof PDict) return "dict_reversekeyiterator";
  if (!(v instanceof PList) || v.lazy !== null) return null;
  return v.tuple ? "reversed" : "list_reverseiterator";
}

function arg(a: CallArgs, i: number, name: string): Value | undefined {
  return i < a.args.length ? a.args[i] : a.kwargs.get(name);
}

/** str(v), charged `factor` times its length (what a case map or escape may make of it). */
function chargedStr(v: Value, it: Interpreter, factor: number): PStr {
  const s = it.str(v);
  it.charge(s.length * factor);
  return s;
}

/** Work units of sorting n items (n log2 n comparisons; each comparison also charges what it reads). */
export function sortCost(n: number): number {
  return n < 2 ? 0 : Math.ceil(n * Math.log2(n)) * ITEM_COST;
}

/** \w of Python's re on str: letters, digits and numerals, underscore. */
const WORD = /[\p{L}\p{N}_]/u;

/** A value's key in a Python set (unique): hashable values only. */
function hashKey(x: Value, caseSensitive: boolean, it: Interpreter): string | number {
  if (x instanceof PStr) {
    it.charge(x.length);
    return `s${caseSensitive ? x.text : x.text.toLowerCase()}`;
  }
  const k = PDict.keyOf(x);
  if (typeof k === "number") return k;
  if (x instanceof PyFloat) return `f${x.v}`;
  if (x === null) return "None";
  throw new TemplateRuntimeError(`unhashable type: '${typeName(x)}'`);
}

/** str.replace / the replace filter: the result's size checked and charged before it is made. */
export function replaced(s: PStr, old: PStr, repl: PStr, count: number, it: Interpreter): PStr {
  it.charge(s.length + old.length);
  const n = replaceCount(s, old.text, count);
  const size = s.length + n * (repl.length - old.length);
  if (size > it.limits.maxOutputChars) throw tooLong(it.limits.maxOutputChars);
  it.charge(n * VALUE_COST);
  return it.made(pyReplace(s, old.text, repl, count));
}

function attrPath(v: Value, path: string, it: Interpreter): Value {
  it.charge(path.length + ITEM_COST);
  let cur = v;
  for (const part of path.split(".")) {
    cur = /^\d+$/.test(part) ? it.item(cur, Number(part)) : it.item(cur, PStr.of(part));
  }
  return cur;
}

function lengthOf(v: Value): number {
  if (v instanceof PStr) return v.codePoints;
  if (v instanceof PList && v.lazy === null) return v.items.length;
  if (v instanceof PDict) return v.map.size;
  if (v instanceof PyUndefined) return 0;
  throw new TemplateRuntimeError(`object of type '${typeName(v)}' has no len()`);
}

/** select/reject/selectattr/rejectattr: the test named by the first argument (none: truthiness). */
function selectBy(it: Interpreter, v: Value, a: CallArgs, withAttr: boolean, keep: boolean): Value {
  // jinja2's _select_or_reject: `if seq:` first, so none (and any falsy value) selects nothing.
  const items = truthy(v) ? it.iterate(v) : [];
  const rest = withAttr ? a.args.slice(1) : a.args;
  const attr = withAttr ? arg(a, 0, "attribute") : undefined;
  if (withAttr && !(attr instanceof PStr))
    throw new TemplateRuntimeError("selectattr needs an attribute name");
  const testName = rest[0];
  const out: Value[] = [];
  it.charge(items.length * ITEM_COST);
  for (const x of items) {
    it.step();
    const target = attr instanceof PStr ? attrPath(x, attr.text, it) : x;
    const ok =
      testName === undefined
        ? truthy(target)
        : applyTest(testName instanceof PStr ? testName.text : String(testName), target, rest.slice(1), it);
    if (ok === keep) out.push(x);
  }
  return new PList(out, false, GENERATOR);
}

const KEY = PStr.of("key");
const COMMON = PStr.of("common");
const ROUND_METHODS: ReadonlySet<string> = new Set(["common", "ceil", "floor"]);

/** Python's sorted() order of two keys (`<` only, as sorted() asks it). */
function pyCompare(x: Value, y: Value, it: Interpreter): number {
  return less(x, y, it) ? -1 : less(y, x, it) ? 1 : 0;
}

/** jinja2's ignore_case: a str key lower-cased (unless case_sensitive), charged as a case map. */
function sortKey(k: Value, caseSensitive: boolean, it: Interpreter): Value {
  if (caseSensitive || !(k instanceof PStr)) return k;
  it.charge(k.length * 3);
  return pyLower(k);
}

/** An int argument (bool counts), else Python's TypeError. */
function intValue(v: Value, what: string): number {
  if (typeof v === "boolean") return Number(v);
  if (typeof v === "number" && Number.isInteger(v)) return v;
  throw new TemplateRuntimeError(`${what}: '${typeName(v)}' object cannot be interpreted as an integer`);
}

/** Python's `//` of ints. */
function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/**
 * jinja2's make_attrgetter: `attribute` (dotted, digit parts as indexes, or an int) read item
 * first, then attribute; a `default` that is not none replaces an undefined part.
 */
function attrGetter(attribute: Value, dflt: Value, it: Interpreter): (x: Value) => Value {
  const parts: Value[] =
    attribute instanceof PStr
      ? attribute.text.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : PStr.of(p)))
      : attribute === null
        ? []
        : [attribute];
  return (x) => {
    it.charge(ITEM_COST * (parts.length + 1));
    let cur = x;
    for (const p of parts) {
      cur = it.item(cur, p);
      if (dflt !== null && cur instanceof PyUndefined) cur = dflt;
    }
    return cur;
  };
}

/** jinja2's _GroupTuple(grouper, list): a tuple whose items are also its attributes. */
const GROUP_FIELDS: readonly string[] = ["grouper", "list"];

/**
 * do_groupby(value, attribute, default=None, case_sensitive=False): sorted by the attribute
 * (lower-cased unless case_sensitive), then itertools.groupby's runs of equal keys; each group's
 * grouper is its first item's attribute as written.
 */
function groupBy(v: Value, a: CallArgs, it: Interpreter): Value {
  const attribute = arg(a, 0, "attribute");
  if (attribute === undefined)
    throw new TemplateRuntimeError("groupby() missing required argument: 'attribute'");
  const dflt = arg(a, 1, "default") ?? null;
  const caseSensitive = truthy(arg(a, 2, "case_sensitive") ?? false);
  const get = attrGetter(attribute, dflt, it);
  const xs = it.iterate(v);
  it.charge(xs.length * VALUE_COST + sortCost(xs.length));
  const keys = xs.map((x) => sortKey(get(x), caseSensitive, it));
  const order = xs.map((_, i) => i);
  order.sort((i, j) => pyCompare(keys[i] as Value, keys[j] as Value, it));
  const groups: Value[] = [];
  let members: Value[] = [];
  let key: Value = null;
  const close = (): void => {
    const first = members[0] as Value;
    groups.push(new PList([caseSensitive ? key : get(first), new PList(members)], true, null, GROUP_FIELDS));
  };
  for (let n = 0; n < order.length; n++) {
    const i = order[n] as number;
    const k = keys[i] as Value;
    if (n > 0 && !equals(k, key, 0, it)) {
      close();
      members = [];
    }
    if (members.length === 0) key = k;
    members.push(xs[i] as Value);
  }
  if (members.length > 0) close();
  return new PList(groups);
}

/** do_batch(value, linecount, fill_with=None): lists of linecount items (a generator), the last one filled. */
function batch(v: Value, a: CallArgs, it: Interpreter): Value {
  const count = arg(a, 0, "linecount");
  if (count === undefined) throw new TemplateRuntimeError("batch() missing required argument: 'linecount'");
  const fill = arg(a, 1, "fill_with") ?? null;
  const xs = it.iterate(v);
  it.charge(xs.length * ITEM_COST);
  // `len(tmp) == linecount` with Python's ==: a float 2.0 batches by 2, a non-number never.
  const full = (n: number): boolean => equals(n, count);
  const out: Value[] = [];
  let tmp: Value[] = [];
  for (const x of xs) {
    if (full(tmp.length)) {
      it.charge(VALUE_COST);
      out.push(new PList(tmp));
      tmp = [];
    }
    tmp.push(x);
  }
  if (tmp.length > 0) {
    if (fill !== null && less(tmp.length, count, it)) {
      const n = intValue(count, "batch") - tmp.length;
      it.charge(n * ITEM_COST);
      for (let k = 0; k < n; k++) tmp.push(fill);
    }
    it.charge(VALUE_COST);
    out.push(new PList(tmp));
  }
  return new PList(out, false, GENERATOR);
}

/** do_slice(value, slices, fill_with=None): `slices` columns (a generator), the short ones filled. */
function sliceInto(v: Value, a: CallArgs, it: Interpreter): Value {
  const given = arg(a, 0, "slices");
  if (given === undefined) throw new TemplateRuntimeError("slice() missing required argument: 'slices'");
  const slices = intValue(given, "slice");
  const fill = arg(a, 1, "fill_with") ?? null;
  const seq = it.iterate(v);
  it.charge(seq.length * ITEM_COST);
  if (slices === 0) throw new TemplateRuntimeError("integer division or modulo by zero");
  const length = seq.length;
  const perSlice = floorDiv(length, slices);
  const withExtra = length - slices * perSlice;
  const out: Value[] = [];
  let offset = 0;
  for (let k = 0; k < slices; k++) {
    it.charge(VALUE_COST);
    const start = offset + k * perSlice;
    if (k < withExtra) offset++;
    const end = offset + (k + 1) * perSlice;
    const tmp = seq.slice(Math.max(0, start), Math.max(0, Math.min(end, length)));
    if (fill !== null && k >= withExtra) tmp.push(fill);
    out.push(new PList(tmp));
  }
  return new PList(out, false, GENERATOR);
}

/** do_truncate(s, length=255, killwords=False, end="...", leeway=None -> 5). */
function truncate(v: Value, a: CallArgs, it: Interpreter): Value {
  const length = arg(a, 0, "length") ?? 255;
  const killwords = truthy(arg(a, 1, "killwords") ?? false);
  const end = arg(a, 2, "end") ?? ELLIPSIS;
  const leeway = arg(a, 3, "leeway") ?? null;
  const lw = leeway === null ? 5 : leeway;
  const endLen = lengthOf(end);
  if (less(length, endLen, it)) throw new TemplateRuntimeError(`expected length >= ${endLen}`);
  if (less(lw, 0, it)) throw new TemplateRuntimeError("expected leeway >= 0");
  if (!less(it.arith("+", length, lw), lengthOf(v), it)) return v;
  if (!(v instanceof PStr)) throw new TemplateRuntimeError(`cannot truncate a ${typeName(v)}`);
  if (!(end instanceof PStr))
    throw new TemplateRuntimeError(`can only concatenate str (not "${typeName(end)}") to str`);
  it.charge(v.length);
  const head = pySlice(v, null, intValue(length, "truncate") - endLen, null);
  if (killwords) return it.join([head, end]);
  return it.join([pyRsplit(head, " ", 1)[0] as PStr, end]);
}

const ELLIPSIS = PStr.of("...");

/**
 * Every filter applyFilter knows (its cases; a fitness test keeps the two equal), for the tests
 * that must cover all of them (the provenance property over the operation table).
 */
export const FILTER_NAMES: readonly string[] = [
  "trim",
  "tojson",
  "string",
  "safe",
  "e",
  "escape",
  "forceescape",
  "length",
  "count",
  "upper",
  "lower",
  "title",
  "capitalize",
  "replace",
  "default",
  "d",
  "join",
  "first",
  "last",
  "list",
  "reverse",
  "items",
  "dictsort",
  "int",
  "float",
  "abs",
  "unique",
  "sort",
  "map",
  "select",
  "reject",
  "selectattr",
  "rejectattr",
  "indent",
  "wordcount",
  "sum",
  "min",
  "max",
  "format",
  "attr",
  "round",
  "groupby",
  "batch",
  "slice",
  "truncate",
  "center",
];

export function applyFilter(name: string, v: Value, a: CallArgs, it: Interpreter): Value {
  switch (name) {
    case "trim": {
      const chars = arg(a, 0, "chars");
      const s = it.str(v);
      it.charge(s.length + (chars instanceof PStr ? chars.length : 0));
      return pyStrip(s, chars instanceof PStr ? chars.text : null, true, true);
    }
    case "tojson": {
      // transformers' tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False).
      const indent = arg(a, 1, "indent") ?? null;
      const seps = arg(a, 2, "separators") ?? null;
      let separators: [PStr, PStr] | null = null;
      if (seps !== null) {
        const [x, y] = seps instanceof PList ? seps.items : [];
        if (
          !(seps instanceof PList) ||
          seps.items.length !== 2 ||
          !(x instanceof PStr) ||
          !(y instanceof PStr)
        )
          throw new TemplateRuntimeError("tojson: separators must be two strings");
        separators = [x, y];
      }
      if (indent !== null && typeof indent !== "number" && !(indent instanceof PStr))
        throw new TemplateRuntimeError(`tojson: indent must be an int or a str, not ${typeName(indent)}`);
      return it.made(
        toJson(
          v,
          {
            indent,
            separators,
            sortKeys: truthy(arg(a, 3, "sort_keys") ?? false),
            ensureAscii: truthy(arg(a, 0, "ensure_ascii") ?? false),
          },
          it.limits.maxOutputChars,
          it,
        ),
      );
    }
    case "string":
      return it.made(it.str(v));
    case "safe":
      return it.made(markSafe(it.str(v)));
    case "e":
    case "escape":
      // An escaped string is at most 5 times as long (`'` -> `&#39;`): the input is charged that.
      return it.made(htmlEscapeValue(chargedStr(v, it, 5)));
    case "forceescape":
      return it.made(forceEscape(chargedStr(v, it, 5)));
    case "length":
    case "count":
      return lengthOf(v);
    case "upper":
      return it.made(pyUpper(chargedStr(v, it, 3)));
    case "lower":
      return it.made(pyLower(chargedStr(v, it, 3)));
    case "title":
      return it.made(jinjaTitle(chargedStr(v, it, 3)));
    case "capitalize":
      return it.made(pyCapitalize(chargedStr(v, it, 3)));
    case "replace": {
      const old = arg(a, 0, "old");
      const repl = arg(a, 1, "new");
      if (!(old instanceof PStr) || !(repl instanceof PStr))
        throw new TemplateRuntimeError("replace needs strings");
      const count = arg(a, 2, "count");
      return replaced(it.str(v), old, repl, typeof count === "number" ? count : -1, it);
    }
    case "default":
    case "d": {
      const given = arg(a, 0, "default_value");
      const dflt = given === undefined ? PStr.EMPTY : given;
      const boolean = truthy(arg(a, 1, "boolean") ?? false);
      return v instanceof PyUndefined || (boolean && !truthy(v)) ? dflt : v;
    }
    case "join": {
      const sep = arg(a, 0, "d");
      const attr = arg(a, 1, "attribute");
      const xs = it.iterate(v);
      it.charge(xs.length * ITEM_COST * 2);
      const parts: PStr[] = [];
      for (let i = 0; i < xs.length; i++) {
        const x = xs[i] as Value;
        if (i > 0 && sep instanceof PStr) parts.push(sep);
        parts.push(it.str(attr instanceof PStr ? attrPath(x, attr.text, it) : x));
      }
      return it.join(parts);
    }
    case "first":
    case "last": {
      // One item: a string's character is read in place (not every character made first).
      it.charge(ITEM_COST);
      if (v instanceof PStr) return pyIndex(v, name === "first" ? 0 : -1) ?? new PyUndefined(name);
      const xs = it.iterate(v);
      const x = name === "first" ? xs[0] : xs[xs.length - 1];
      return x === undefined ? new PyUndefined(name) : x;
    }
    case "list": {
      const xs = it.iterate(v);
      it.charge(xs.length * ITEM_COST);
      return new PList([...xs]);
    }
    case "reverse": {
      if (v instanceof PStr) {
        it.charge(v.length);
        return it.made(pySlice(v, null, null, -1));
      }
      // do_reverse: reversed(value) — a list_reverseiterator for a list (a str is sliced).
      const xs = it.iterate(v);
      it.charge(xs.length * ITEM_COST);
      return new PList([...xs].reverse(), false, reversedType(v));
    }
    case "items":
      if (v instanceof PyUndefined) return new PList([], false, GENERATOR);
      if (!(v instanceof PDict)) throw new TemplateRuntimeError("items filter needs a mapping");
      it.charge(v.map.size * VALUE_COST);
      return new PList(
        [...v.map.values()].map(([k, x]) => new PList([k, x], true)),
        false,
        GENERATOR,
      );
    case "dictsort": {
      // jinja2's do_dictsort(value, case_sensitive=False, by="key", reverse=False): sorted() of
      // the items by key or value, strings lower-cased unless case_sensitive (stable, also reversed).
      if (!(v instanceof PDict)) throw new TemplateRuntimeError("dictsort needs a mapping");
      const caseSensitive = truthy(arg(a, 0, "case_sensitive") ?? false);
      const by = arg(a, 1, "by") ?? KEY;
      const reverse = truthy(arg(a, 2, "reverse") ?? false);
      if (!(by instanceof PStr) || (by.text !== "key" && by.text !== "value"))
        throw new TemplateRuntimeError('You can only sort by either "key" or "value"');
      const entries = [...v.map.values()];
      it.charge(entries.length * VALUE_COST + sortCost(entries.length));
      const sign = reverse ? -1 : 1;
      if (by.text === "key") {
        entries.sort((x, y) => sign * compareKeys(x[0], y[0], !caseSensitive, it));
      } else {
        const keys = new Map(entries.map((e) => [e, sortKey(e[1], caseSensitive, it)] as const));
        entries.sort((x, y) => sign * pyCompare(keys.get(x) as Value, keys.get(y) as Value, it));
      }
      return new PList(entries.map(([k, x]) => new PList([k, x], true)));
    }
    case "int": {
      if (v instanceof PStr) it.charge(v.length);
      if (typeof v === "number") return v;
      if (v instanceof PyFloat) return Math.trunc(v.v);
      if (typeof v === "boolean") return Number(v);
      if (v instanceof PStr && /^\s*[+-]?\d+\s*$/.test(v.text)) return Number.parseInt(v.text, 10);
      return typeof arg(a, 0, "default") === "number" ? (arg(a, 0, "default") as number) : 0;
    }
    case "float": {
      if (v instanceof PStr) it.charge(v.length);
      const x = numOf(v);
      if (x !== undefined) return new PyFloat(x);
      if (v instanceof PStr && v.text.trim() !== "" && Number.isFinite(Number(v.text)))
        return new PyFloat(Number(v.text));
      return new PyFloat(0);
    }
    case "abs":
      if (v instanceof PyFloat) return new PyFloat(Math.abs(v.v));
      if (typeof v !== "number") throw new TemplateRuntimeError("abs needs a number");
      return Math.abs(v);
    case "unique": {
      // jinja2's do_unique(value, case_sensitive=False, attribute=None): a set of seen keys, so
      // one pass (strings compared case-folded unless case_sensitive; unhashable items refused).
      const caseSensitive = truthy(arg(a, 0, "case_sensitive") ?? false);
      const attr = arg(a, 1, "attribute");
      const xs = it.iterate(v);
      // A set entry per item (made and hashed): a value's cost, not a slot's.
      it.charge(xs.length * VALUE_COST);
      const seen = new Set<string | number>();
      const out: Value[] = [];
      for (const x of xs) {
        const k = hashKey(attr instanceof PStr ? attrPath(x, attr.text, it) : x, caseSensitive, it);
        if (seen.has(k)) continue;
        seen.add(k);
        out.push(x);
      }
      return new PList(out, false, GENERATOR);
    }
    case "sort": {
      // jinja2's do_sort(value, reverse=False, case_sensitive=False, attribute=None).
      const reverse = truthy(arg(a, 0, "reverse") ?? false);
      const caseSensitive = truthy(arg(a, 1, "case_sensitive") ?? false);
      const attr = arg(a, 2, "attribute");
      const xs = [...it.iterate(v)];
      // Each item's sort key is made once and kept (VALUE each), then n log n comparisons.
      it.charge(xs.length * VALUE_COST + sortCost(xs.length));
      const keys = new Map<Value, Value>();
      const key = (x: Value): Value => {
        let k = keys.get(x);
        if (k === undefined) {
          k = sortKey(attr instanceof PStr ? attrPath(x, attr.text, it) : x, caseSensitive, it);
          keys.set(x, k);
        }
        return k;
      };
      // sorted(reverse=True) keeps equal items in their order: the comparison is negated, the
      // sort stable (reversing the sorted list would swap them).
      const sign = reverse ? -1 : 1;
      xs.sort((x, y) => sign * pyCompare(key(x), key(y), it));
      return new PList(xs);
    }
    case "map": {
      // jinja2's do_map: `if seq:` first, so none maps to nothing.
      if (!truthy(v)) return new PList([], false, GENERATOR);
      const attr = a.kwargs.get("attribute");
      if (attr instanceof PStr) {
        it.charge(it.iterate(v).length * ITEM_COST);
        return new PList(
          it.iterate(v).map((x) => attrPath(x, attr.text, it)),
          false,
          GENERATOR,
        );
      }
      const f = a.args[0];
      if (!(f instanceof PStr)) throw new TemplateRuntimeError("map needs a filter name or attribute=");
      it.charge(it.iterate(v).length * ITEM_COST);
      const rest = { args: a.args.slice(1), kwargs: a.kwargs };
      return new PList(
        it.iterate(v).map((x) => applyFilter(f.text, x, rest, it)),
        false,
        GENERATOR,
      );
    }
    case "select":
      return selectBy(it, v, a, false, true);
    case "reject":
      return selectBy(it, v, a, false, false);
    case "selectattr":
      return selectBy(it, v, a, true, true);
    case "rejectattr":
      return selectBy(it, v, a, true, false);
    case "indent": {
      const width = arg(a, 0, "width") ?? 4;
      const first = truthy(arg(a, 1, "first") ?? false);
      const blank = truthy(arg(a, 2, "blank") ?? false);
      const s = it.str(v);
      const t = s.text;
      let newlines = 0;
      for (let i = t.indexOf("\n"); i >= 0; i = t.indexOf("\n", i + 1)) newlines++;
      // The result's size is known before any of it is made: each line's pad at most.
      const padLen =
        width instanceof PStr ? width.length : typeof width === "number" ? Math.max(0, width) : 4;
      const most = s.length + (newlines + 1) * padLen;
      if (most > it.limits.maxOutputChars) throw tooLong(it.limits.maxOutputChars);
      it.charge(most + (newlines + 1) * VALUE_COST);
      const pad = width instanceof PStr ? width : PStr.of(" ".repeat(padLen));
      const lines: PStr[] = [];
      let from = 0;
      for (let i = 0; i <= t.length; i++) {
        if (i === t.length || t[i] === "\n") {
          lines.push(s.slice(from, i));
          from = i + 1;
        }
      }
      const parts: PStr[] = [];
      lines.forEach((line, i) => {
        if (i > 0) parts.push(PStr.of("\n"));
        const indentIt = (i > 0 || first) && (blank || line.length > 0);
        if (indentIt) parts.push(pad);
        parts.push(line);
      });
      return it.made(concat(parts));
    }
    case "wordcount": {
      // jinja2's do_wordcount: len(re.findall(r"\w+", s)), counted in one pass.
      const t = it.str(v).text;
      it.charge(t.length);
      let n = 0;
      let inWord = false;
      for (const ch of t) {
        const w = WORD.test(ch);
        if (w && !inWord) n++;
        inWord = w;
      }
      return n;
    }
    case "sum": {
      let total = 0;
      let float = false;
      const xs = it.iterate(v);
      it.charge(xs.length * ITEM_COST);
      for (const x of xs) {
        const n = numOf(x);
        if (n === undefined) throw new TemplateRuntimeError("sum needs numbers");
        if (x instanceof PyFloat) float = true;
        total += n;
      }
      return float ? new PyFloat(total) : total;
    }
    case "min":
    case "max": {
      const xs = it.iterate(v);
      it.charge(xs.length * ITEM_COST);
      if (xs.length === 0) return new PyUndefined(name);
      return xs.reduce((m, x) => (name === "min" ? (less(x, m, it) ? x : m) : less(m, x, it) ? x : m));
    }
    case "format": {
      // jinja2's do_format: `soft_str(value) % (kwargs or args)`.
      let values: Value;
      if (a.kwargs.size > 0) {
        const d = new PDict();
        for (const [k, x] of a.kwargs) d.set(kwargKey(a, k), x);
        values = d;
      } else values = new PList([...a.args], true);
      const fmt = it.str(v);
      it.charge(fmt.length);
      return it.made(percentFormat(fmt, values, it.limits.maxOutputChars));
    }
    case "attr":
      // do_attr: the attribute only (a dict's `items` method, never its "items" key).
      return attrOnly(v, arg(a, 0, "name") ?? null);
    case "round": {
      // do_round(value, precision=0, method="common"): Python's round() (./py-round.ts).
      const method = arg(a, 1, "method") ?? COMMON;
      if (!(method instanceof PStr) || !ROUND_METHODS.has(method.text))
        throw new TemplateRuntimeError("method must be common, ceil or floor");
      it.charge(VALUE_COST);
      return roundFilter(v, arg(a, 0, "precision") ?? 0, method.text as "common" | "ceil" | "floor");
    }
    case "groupby":
      return groupBy(v, a, it);
    case "batch":
      return batch(v, a, it);
    case "slice":
      return sliceInto(v, a, it);
    case "truncate":
      return truncate(v, a, it);
    case "center": {
      // do_center(value, width=80): soft_str(value).center(width).
      const width = arg(a, 0, "width") ?? 80;
      if (typeof width !== "number" && typeof width !== "boolean")
        throw new TemplateRuntimeError(`'${typeName(width)}' object cannot be interpreted as an integer`);
      const w = Number(width);
      if (!Number.isInteger(w))
        throw new TemplateRuntimeError("'float' object cannot be interpreted as an integer");
      if (w > it.limits.maxOutputChars) throw tooLong(it.limits.maxOutputChars);
      return it.made(pyPad(it.str(v), w, PStr.of(" "), "center"));
    }
    default:
      throw new TemplateRuntimeError(`no filter named '${name}'`);
  }
}

/**
 * The tests that read only the value (no argument, no interpreter): the compiled code
 * (./compile.ts) resolves `x is defined`, `x is not none`, `x is string` to one of these once
 * instead of looking the name up per evaluation.
 */
const SIMPLE_TESTS: ReadonlyMap<string, (v: Value) => boolean> = new Map<string, (v: Value) => boolean>([
  ["defined", (v) => !(v instanceof PyUndefined)],
  ["undefined", (v) => v instanceof PyUndefined],
  ["none", (v) => v === null],
  ["string", (v) => v instanceof PStr],
  ["number", (v) => typeof v === "number" || typeof v === "boolean" || v instanceof PyFloat],
  ["integer", (v) => typeof v === "number"],
  ["float", (v) => v instanceof PyFloat],
  ["boolean", (v) => typeof v === "boolean"],
  ["true", (v) => v === true],
  ["false", (v) => v === false],
  ["mapping", (v) => v instanceof PDict],
]);

/** The test `name` when it reads only the value (see SIMPLE_TESTS), else undefined. */
export function simpleTest(name: string): ((v: Value) => boolean) | undefined {
  return SIMPLE_TESTS.get(name);
}

/**
 * The filter `name` applied without arguments, for the filters chat templates apply that way in
 * loops (`messages | length`, `tool | tojson`, `x | trim`, `x | string`): resolved once at compile
 * time (./compile.ts), the same code as applyFilter's cases. undefined: any other filter.
 */
export function plainFilter(name: string): ((v: Value, it: Interpreter) => Value) | undefined {
  switch (name) {
    case "length":
    case "count":
      return lengthOf;
    case "tojson":
      return (v, it) => it.made(toJson(v, PLAIN_JSON, it.limits.maxOutputChars, it));
    case "trim":
      return (v, it) => {
        const s = it.str(v);
        it.charge(s.length);
        return pyStrip(s, null, true, true);
      };
    case "string":
      return (v, it) => it.made(it.str(v));
    default:
      return undefined;
  }
}

/** tojson's options with no arguments (transformers' defaults). */
const PLAIN_JSON = { indent: null, separators: null, sortKeys: false, ensureAscii: false } as const;

/** Every test applyTest knows: SIMPLE_TESTS and its cases (kept equal by a fitness test). */
export const TEST_NAMES: readonly string[] = [
  ...SIMPLE_TESTS.keys(),
  "sequence",
  "iterable",
  "callable",
  "odd",
  "even",
  "lower",
  "upper",
  "eq",
  "equalto",
  "==",
  "ne",
  "!=",
  "in",
  "sameas",
  "divisibleby",
  "gt",
  "greaterthan",
  ">",
  "ge",
  ">=",
  "lt",
  "lessthan",
  "<",
  "le",
  "<=",
  "escaped",
];

export function applyTest(name: string, v: Value, args: readonly Value[], it: Interpreter): boolean {
  const simple = SIMPLE_TESTS.get(name);
  if (simple !== undefined) return simple(v);
  switch (name) {
    // jinja2's Undefined has __len__ and __iter__ (so `undefined is iterable` / `is sequence` hold:
    // Hermes 2 Pro's json_to_python_type(false) prints "Union[]"); the loop object iterates.
    case "sequence":
      return (
        (v instanceof PList && v.lazy === null) ||
        v instanceof PStr ||
        v instanceof PDict ||
        v instanceof PyUndefined
      );
    case "iterable":
      return (
        v instanceof PList ||
        v instanceof PStr ||
        v instanceof PDict ||
        v instanceof PyUndefined ||
        (v instanceof PObject && v.kind === "loop")
      );
    case "callable":
      return v instanceof Callable;
    // test_odd / test_even / test_divisibleby: `value % n == r` with Python's `%` (a str formats).
    case "odd":
      return equals(it.arith("%", v, 2), 1);
    case "even":
      return equals(it.arith("%", v, 2), 0);
    // test_lower / test_upper: str(value).islower() / .isupper().
    case "lower":
      return pyIsLower(chargedStr(v, it, 1).text);
    case "upper":
      return pyIsUpper(chargedStr(v, it, 1).text);
    case "eq":
    case "equalto":
    case "==":
      return equals(v, args[0] ?? null);
    case "ne":
    case "!=":
      return !equals(v, args[0] ?? null);
    case "in":
      return it.contains(args[0] ?? null, v);
    case "sameas":
      return v === args[0];
    case "divisibleby":
      return equals(it.arith("%", v, args[0] ?? null), 0);
    case "gt":
    case "greaterthan":
    case ">":
      return less(args[0] ?? null, v);
    case "ge":
    case ">=":
      return !less(v, args[0] ?? null);
    case "lt":
    case "lessthan":
    case "<":
      return less(v, args[0] ?? null);
    case "le":
    case "<=":
      return !less(args[0] ?? null, v);
    case "escaped":
      return false;
    default:
      if (v instanceof PObject && name === "namespace") return v.kind === "namespace";
      throw new TemplateRuntimeError(`no test named '${name}'`);
  }
}
