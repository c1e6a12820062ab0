// Attribute access and the Python methods a sandboxed template may call: str methods (by
// Python's rules, ./py-str.ts), dict.get/items/keys/values, namespace and loop attributes.
// jinja2's getattr: an attribute first, then the item; missing = Undefined; any attribute of
// Undefined is an error (UndefinedError). Mutating methods (list.append, dict.update) are what
// ImmutableSandboxedEnvironment refuses: a typed error here too.
import { replaced } from "./filters.ts";
import type { Interpreter } from "./interpreter.ts";
import { ITEM_COST, VALUE_COST } from "./limits.ts";
import { PStr } from "./pstr.ts";
import {
  pyCapitalize,
  pyCount,
  pyFind,
  pyLower,
  pyRsplit,
  pySplit,
  pySplitlines,
  pyStrip,
  pyTitle,
  pyUpper,
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
  return new PyUndefined(name);
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
  throw new TemplateRuntimeError(`'${typeName(v)}' object cannot be interpreted as an integer`);
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
      return /\p{Lu}/u.test(s.text) && !/\p{Ll}/u.test(s.text);
    default:
      return /\p{Ll}/u.test(s.text) && !/\p{Lu}/u.test(s.text);
  }
}

function strMethod(s: PStr, name: string, a: CallArgs, it: Interpreter): Value {
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
    case "capitalize": {
      // A case map can make up to 3 characters of one (U+0390 upper-cased).
      it.charge(s.length * 3);
      const f =
        name === "upper" ? pyUpper : name === "lower" ? pyLower : name === "title" ? pyTitle : pyCapitalize;
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
    case "count": {
      const sub = arg(a, 0, "sub");
      if (!(sub instanceof PStr)) throw new TemplateRuntimeError(`${name}() argument must be str`);
      it.audit(s, name, sub);
      return name === "count" ? pyCount(s.text, sub.text) : pyFind(s.text, sub.text, name === "rfind");
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
