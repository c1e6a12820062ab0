// Attribute access and the Python methods a sandboxed template may call: str methods (by
// Python's rules, ./py-str.ts), dict.get/items/keys/values, namespace and loop attributes.
// jinja2's getattr: an attribute first, then the item; missing = Undefined; any attribute of
// Undefined is an error (UndefinedError). Mutating methods (list.append, dict.update) are what
// ImmutableSandboxedEnvironment refuses: a typed error here too.
import { replaced } from "./filters.ts";
import type { Interpreter } from "./interpreter.ts";
import { ITEM_COST, tooLong, VALUE_COST } from "./limits.ts";
import { PStr } from "./pstr.ts";
import { pyCapitalize, pyIsLower, pyIsUpper, pyLower, pySwapcase, pyTitle, pyUpper } from "./py-case.ts";
import {
  expandedLength,
  pyCountIn,
  pyExpandtabs,
  pyFind,
  pyPad,
  pyPartition,
  pyRsplit,
  pySplit,
  pySplitlines,
  pyStrip,
  pyZfill,
} from "./py-str.ts";
import {
  type CallArgs,
  Callable,
  PDict,
  PList,
  PObject,
  PyUndefined,
  TemplateRuntimeError,
  typeName,
  type Value,
} from "./values.ts";

/** The str methods a template may call (./py-str.ts semantics). */
export const STR_METHODS: ReadonlySet<string> = new Set([
  "strip",
  "lstrip",
  "rstrip",
  "split",
  "rsplit",
  "startswith",
  "endswith",
  "upper",
  "lower",
  "replace",
  "title",
  "capitalize",
  "find",
  "rfind",
  "count",
  "join",
  "splitlines",
  "isdigit",
  "isalpha",
  "isspace",
  "isupper",
  "islower",
  "removeprefix",
  "removesuffix",
  "index",
  "rindex",
  "partition",
  "rpartition",
  "swapcase",
  "zfill",
  "center",
  "ljust",
  "rjust",
  "expandtabs",
]);
/** The dict methods a template may call. */
export const DICT_METHODS: ReadonlySet<string> = new Set(["get", "items", "keys", "values"]);
const MUTATING = new Set([
  "append",
  "extend",
  "insert",
  "pop",
  "remove",
  "clear",
  "update",
  "setdefault",
  "sort",
  "reverse",
  "popitem",
  "add",
]);

function orUndefined(v: Value | undefined, name: string): Value {
  return v === undefined ? new PyUndefined(name) : v;
}

export function getAttr(obj: Value, name: string): Value {
  if (obj instanceof PyUndefined) throw new TemplateRuntimeError(`'${obj.name}' is undefined`);
  if (obj instanceof PObject) return orUndefined(obj.attrs.get(name), name);
  if (obj instanceof PDict) {
    if (DICT_METHODS.has(name)) return bound(obj, name);
    return orUndefined(obj.get(name), name);
  }
  if (obj instanceof PStr && STR_METHODS.has(name)) return bound(obj, name);
  if (obj instanceof PList && obj.fields !== null) return orUndefined(obj.field(name), name);
  return new PyUndefined(name);
}

/**
 * jinja2's `attr` filter (do_attr): the attribute `name` only, never an item: a dict's methods
 * (not its keys), a str's methods, a namespace's or loop's attributes, a named tuple's fields;
 * anything else undefined (a list's mutating methods too: unsafe in the immutable sandbox).
 */
export function attrOnly(obj: Value, name: Value): Value {
  if (!(name instanceof PStr)) throw new TemplateRuntimeError("attribute name must be string");
  if (obj instanceof PyUndefined) throw new TemplateRuntimeError(`'${obj.name}' is undefined`);
  const n = name.text;
  if (obj instanceof PDict) return DICT_METHODS.has(n) ? bound(obj, n) : new PyUndefined(n);
  return getAttr(obj, n);
}

/**
 * getAttr(obj, name) for one attribute name, with the name's lookups in the method tables done
 * once (the compiled `x.name` of ./compile.ts: message.role, message.content, ns.flag, ...).
 */
export function attrReader(name: string): (obj: Value) => Value {
  const dictMethod = DICT_METHODS.has(name);
  const strMethod = STR_METHODS.has(name);
  return (obj) => {
    if (obj instanceof PDict) {
      if (dictMethod) return bound(obj, name);
      return orUndefined(obj.get(name), name);
    }
    if (obj instanceof PObject) return orUndefined(obj.attrs.get(name), name);
    if (obj instanceof PyUndefined) throw new TemplateRuntimeError(`'${obj.name}' is undefined`);
    if (obj instanceof PStr && strMethod) return bound(obj, name);
    if (obj instanceof PList && obj.fields !== null) return orUndefined(obj.field(name), name);
    return new PyUndefined(name);
  };
}

function bound(_obj: Value, name: string): Callable {
  return new Callable(name, () => {
    throw new TemplateRuntimeError(`calling a stored method ${name} is not supported`);
  });
}

function strArg(v: Value | undefined, what: string): string | null {
  if (v === undefined || v === null) return null;
  if (v instanceof PStr) return v.text;
  throw new TemplateRuntimeError(`${what} arg must be None or str, not ${typeName(v)}`);
}

function intArg(v: Value | undefined, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "boolean") return Number(v);
  throw new TemplateRuntimeError(`'${typeName(v)}' object cannot be interpreted as an integer`);
}

/** A start / end argument of find, index or count: None or an int (Python's slice index). */
function indexArg(v: Value | undefined): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return Number(v);
  if (typeof v === "number" && Number.isInteger(v)) return v;
  throw new TemplateRuntimeError("slice indices must be integers or None or have an __index__ method");
}

/** The fill character of center / ljust / rjust: one code point (its origin kept). */
function fillArg(v: Value | undefined): PStr {
  if (v === undefined) return PStr.of(" ");
  if (!(v instanceof PStr))
    throw new TemplateRuntimeError(`The fill character must be a unicode character, not ${typeName(v)}`);
  if (v.codePoints !== 1)
    throw new TemplateRuntimeError("The fill character must be exactly one character long");
  return v;
}

/** A width that makes a string of `width` code points (at most): refused past maxOutputChars before it is made. */
function widthArg(v: Value | undefined, it: Interpreter): number {
  if (v === undefined) throw new TemplateRuntimeError("a width argument is required");
  const w = intArg(v, 0);
  // A code point is at most 2 units: the longest result is 2 * width units.
  if (w > it.limits.maxOutputChars) throw tooLong(it.limits.maxOutputChars);
  return w;
}

/** The positional-or-keyword argument `i` / `name`. */
function arg(a: CallArgs, i: number, name: string): Value | undefined {
  return i < a.args.length ? a.args[i] : a.kwargs.get(name);
}

export function callMethod(obj: Value, name: string, a: CallArgs, it: Interpreter): Value {
  if (obj instanceof PyUndefined) throw new TemplateRuntimeError(`'${obj.name}' is undefined`);
  if (obj instanceof PStr) return strMethod(obj, name, a, it);
  if (obj instanceof PDict) {
    switch (name) {
      case "get": {
        const k = arg(a, 0, "key");
        const key = k === undefined ? undefined : PDict.keyOf(k);
        const v = key === undefined ? undefined : obj.get(key);
        if (v !== undefined) return v;
        const d = arg(a, 1, "default");
        return d === undefined ? null : d;
      }
      case "items":
        it.charge(obj.map.size * VALUE_COST);
        return new PList([...obj.map.values()].map(([k, v]) => new PList([k, v], true)));
      case "keys":
        it.charge(obj.map.size * ITEM_COST);
        return new PList([...obj.map.values()].map(([k]) => k));
      case "values":
        it.charge(obj.map.size * ITEM_COST);
        return new PList([...obj.map.values()].map(([, v]) => v));
    }
    const v = obj.get(name);
    if (v instanceof Callable) return v.call(a);
  }
  if (obj instanceof PList && !obj.tuple && name === "pop") {
    it.charge(obj.items.length * ITEM_COST);
    return listPop(obj, a);
  }
  if (MUTATING.has(name) && (obj instanceof PList || obj instanceof PDict))
    throw new TemplateRuntimeError(`access to ${typeName(obj)}.${name} is unsafe (immutable sandbox)`);
  const f = getAttr(obj, name);
  if (f instanceof Callable) return f.call(a);
  throw new TemplateRuntimeError(`'${typeName(obj)}' object has no callable attribute '${name}'`);
}

/**
 * list.pop([i]): jinja2's ImmutableSandboxedEnvironment blocks append/extend/insert/remove/sort/
 * reverse on lists (its _mutable_spec) but not pop, so templates may pop (dict.pop is blocked).
 */
function listPop(list: PList, a: CallArgs): Value {
  const n = list.items.length;
  if (n === 0) throw new TemplateRuntimeError("pop from empty list");
  const raw = intArg(arg(a, 0, "index"), -1);
  const i = raw < 0 ? raw + n : raw;
  if (i < 0 || i >= n) throw new TemplateRuntimeError("pop index out of range");
  return list.items.splice(i, 1)[0] as Value;
}

function strTest(s: PStr, name: string): boolean {
  switch (name) {
    case "isdigit":
      return s.length > 0 && /^\p{Nd}+$/u.test(s.text);
    case "isalpha":
      return s.length > 0 && /^\p{L}+$/u.test(s.text);
    case "isspace":
      return s.length > 0 && pyStrip(s, null, true, false).length === 0;
    case "isupper":
      return pyIsUpper(s.text);
    default:
      return pyIsLower(s.text);
  }
}

/** The str methods whose parameters are positional only (Python: "takes no keyword arguments"). */
const POSITIONAL_ONLY: ReadonlySet<string> = new Set([
  "find",
  "rfind",
  "index",
  "rindex",
  "count",
  "partition",
  "rpartition",
  "zfill",
  "center",
  "ljust",
  "rjust",
]);

function strMethod(s: PStr, name: string, a: CallArgs, it: Interpreter): Value {
  if (a.kwargs.size > 0 && POSITIONAL_ONLY.has(name))
    throw new TemplateRuntimeError(`${name}() takes no keyword arguments`);
  switch (name) {
    case "strip":
    case "lstrip":
    case "rstrip": {
      const chars = strArg(arg(a, 0, "chars"), name);
      it.charge(s.length + (chars === null ? 0 : chars.length));
      return pyStrip(s, chars, name !== "rstrip", name !== "lstrip");
    }
    case "split":
    case "rsplit": {
      const sep = strArg(arg(a, 0, "sep"), name);
      const max = intArg(arg(a, 1, "maxsplit"), -1);
      it.audit(s, name, sep === null ? null : PStr.of(sep));
      if (sep === "") throw new TemplateRuntimeError("empty separator");
      // Each part is charged before it is made (a one-character separator can cut a long string into millions).
      const part = (): void => {
        it.charge(VALUE_COST);
      };
      return new PList(name === "split" ? pySplit(s, sep, max, part) : pyRsplit(s, sep, max, part));
    }
    case "startswith":
    case "endswith": {
      const p = arg(a, 0, "prefix");
      const cands = p instanceof PList ? p.items : [p];
      let hit = false;
      for (const c of cands) {
        if (!(c instanceof PStr))
          throw new TemplateRuntimeError(`${name} first arg must be str or a tuple of str`);
        it.audit(s, name, c);
        if (name === "startswith" ? s.text.startsWith(c.text) : s.text.endsWith(c.text)) hit = true;
      }
      return hit;
    }
    case "upper":
    case "lower":
    case "title":
    case "capitalize":
    case "swapcase": {
      // A case map can make up to 3 characters of one (U+0390 upper-cased).
      it.charge(s.length * 3);
      const f =
        name === "upper"
          ? pyUpper
          : name === "lower"
            ? pyLower
            : name === "title"
              ? pyTitle
              : name === "capitalize"
                ? pyCapitalize
                : pySwapcase;
      return it.made(f(s));
    }
    case "replace": {
      const old = arg(a, 0, "old");
      const repl = arg(a, 1, "new");
      if (!(old instanceof PStr) || !(repl instanceof PStr))
        throw new TemplateRuntimeError("replace() arguments must be str");
      return replaced(s, old, repl, intArg(arg(a, 2, "count"), -1), it);
    }
    case "find":
    case "rfind":
    case "index":
    case "rindex":
    case "count": {
      const sub = a.args[0];
      if (!(sub instanceof PStr)) throw new TemplateRuntimeError(`${name}() argument must be str`);
      const start = indexArg(a.args[1]);
      const end = indexArg(a.args[2]);
      it.audit(s, name, sub);
      if (name === "count") return pyCountIn(s, sub.text, start, end);
      const k = pyFind(s, sub.text, start, end, name === "rfind" || name === "rindex");
      if (k < 0 && (name === "index" || name === "rindex"))
        throw new TemplateRuntimeError("substring not found");
      return k;
    }
    case "partition":
    case "rpartition": {
      const sep = a.args[0];
      if (!(sep instanceof PStr)) throw new TemplateRuntimeError(`must be str, not ${typeName(sep ?? null)}`);
      if (sep.length === 0) throw new TemplateRuntimeError("empty separator");
      it.audit(s, name, sep);
      it.charge(3 * VALUE_COST);
      return new PList(pyPartition(s, sep, name === "rpartition"), true);
    }
    case "zfill": {
      const w = widthArg(a.args[0], it);
      it.charge(s.length);
      return it.made(pyZfill(s, w));
    }
    case "center":
    case "ljust":
    case "rjust": {
      const w = widthArg(a.args[0], it);
      const fill = fillArg(a.args[1]);
      it.charge(s.length);
      return it.made(pyPad(s, w, fill, name));
    }
    case "expandtabs": {
      const size = intArg(arg(a, 0, "tabsize"), 8);
      it.charge(s.length);
      if (expandedLength(s.text, size) > it.limits.maxOutputChars) throw tooLong(it.limits.maxOutputChars);
      return it.made(pyExpandtabs(s, size));
    }
    case "join": {
      const xs = it.iterate(arg(a, 0, "iterable") ?? null);
      it.charge(xs.length * ITEM_COST * 2);
      const parts: PStr[] = [];
      xs.forEach((x, i) => {
        if (!(x instanceof PStr))
          throw new TemplateRuntimeError(`sequence item ${i}: expected str instance, ${typeName(x)} found`);
        if (i > 0) parts.push(s);
        parts.push(x);
      });
      return it.join(parts);
    }
    case "splitlines":
      it.charge(s.length);
      return new PList(
        pySplitlines(s, () => {
          it.charge(VALUE_COST);
        }),
      );
    case "isdigit":
    case "isalpha":
    case "isspace":
    case "isupper":
    case "islower":
      it.charge(s.length);
      return strTest(s, name);
    case "removeprefix":
    case "removesuffix": {
      const p = arg(a, 0, name === "removeprefix" ? "prefix" : "suffix");
      if (!(p instanceof PStr)) throw new TemplateRuntimeError(`${name}() argument must be str`);
      it.audit(s, name, p);
      if (name === "removeprefix") return s.text.startsWith(p.text) ? s.slice(p.length) : s;
      return p.length > 0 && s.text.endsWith(p.text) ? s.slice(0, s.length - p.length) : s;
    }
    default:
      throw new TemplateRuntimeError(`'str' object has no attribute '${name}'`);
  }
}
