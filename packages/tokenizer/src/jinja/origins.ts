// The origin table of one render: origin 0 is the template; origin k >= 1 names the caller
// field a string came from (message index or null, and a field path such as "content",
// "tool_calls[0].function.arguments", "tools[1].function.description"). Caller JSON becomes
// interpreter values here, every string (and dict key) tagged with its field's origin.
import { isJsonInteger } from "../py/json.ts";
import type { PyValue } from "../py/value.ts";
import { PStr, TEMPLATE } from "./pstr.ts";
import { PDict, PList, PyFloat, type Value } from "./values.ts";

export interface CallerField {
  readonly message: number | null;
  readonly field: string;
}

const TEMPLATE_FIELD: CallerField = { message: null, field: "template" };

/**
 * Caller JSON text already read as Python's json.loads reads it (py/value.ts parsePyJson): its
 * key order, `1.0` a float. Origins.value makes it the dict Python would hand the template.
 */
export class ParsedJson {
  constructor(readonly value: PyValue) {}
}

export class Origins {
  /**
   * Per origin: its caller field (message index, field path, " (key)" appended for a dict key)
   * and the path's top-level field, both known when the origin is made. One record and one
   * string per origin (five parallel arrays, two of them filled lazily, cost more per origin:
   * a request makes one per caller string and dict key).
   */
  private readonly refs: CallerField[] = [TEMPLATE_FIELD];
  private readonly tops: string[] = ["template"];

  /** A new origin; `top` = what top() will answer (when not given: topOf of the field as get() names it). */
  add(message: number | null, field: string, key = false, top?: string): number {
    const name = key ? `${field} (key)` : field;
    return this.addField(message, name, top ?? topOf(name));
  }

  get(origin: number): CallerField {
    return this.refs[origin] ?? TEMPLATE_FIELD;
  }

  /** The top-level field of an origin's path ("tool_calls[0].function.name" -> "tool_calls"; "" -> "content"). */
  top(origin: number): string {
    return this.tops[origin] ?? "template";
  }

  /**
   * Caller JSON -> values; strings get the origin of (message, field path). `top` is
   * topOf(field), handed down from the parent so that no built path string is read (the first
   * read of a concatenated path flattened it: ~3% of a tools request); a child's top is its
   * parent's, except below the root (field ""), where it is the key's.
   */
  value(v: unknown, message: number | null, field: string, depth = 0, top: string = topOf(field)): Value {
    if (depth > 128) throw new RangeError("caller value nested too deeply");
    if (v === null || v === undefined) return null;
    if (typeof v === "boolean") return v;
    // As json.loads reads what JSON.stringify writes: integral below 1e21 an int, else a float.
    if (typeof v === "number") return isJsonInteger(v) ? v : new PyFloat(v);
    if (typeof v === "string")
      return PStr.of(v, v.length === 0 ? TEMPLATE : this.add(message, field, false, top));
    if (v instanceof ParsedJson) return this.pyValue(v.value, message, field, depth, top);
    if (Array.isArray(v)) {
      // topOf(`${field}[${i}]`) = topOf(field), "content" for "" as for "[i]".
      const items = new Array<Value>(v.length);
      for (let i = 0; i < v.length; i++)
        items[i] = this.value(v[i], message, `${field}[${i}]`, depth + 1, top);
      return new PList(items);
    }
    const d = new PDict();
    const o = v as Record<string, unknown>;
    // Object.keys + a read per key: what Object.entries gives, without a pair array per key.
    for (const k of Object.keys(o)) this.entry(d, k, o[k], message, field, depth, top);
    return d;
  }

  /** A ParsedJson's value at `field` (not ""), its strings and keys tagged as value() tags them. */
  private pyValue(v: PyValue, message: number | null, field: string, depth: number, top: string): Value {
    if (depth > 128) throw new RangeError("caller value nested too deeply");
    if (v === null || typeof v === "boolean") return v;
    if (typeof v === "string")
      return v.length === 0 ? PStr.EMPTY : PStr.of(v, this.addField(message, field, top));
    if (Array.isArray(v)) {
      const items = new Array<Value>(v.length);
      for (let i = 0; i < v.length; i++)
        items[i] = this.pyValue(v[i], message, `${field}[${i}]`, depth + 1, top);
      return new PList(items);
    }
    if (v instanceof Map) {
      const d = new PDict();
      for (const [k, x] of v as ReadonlyMap<string, PyValue>) {
        const path = `${field}.${k}`;
        d.set(
          PStr.of(k, this.addField(message, `${path} (key)`, top)),
          this.pyValue(x, message, path, depth + 1, top),
        );
      }
      return d;
    }
    // An int past 2^53 loses digits here (an interpreter int is a JS number).
    if ("int" in v) return Number(v.int);
    return new PyFloat((v as { readonly float: number }).float);
  }

  /** d[k] = x, the entry of a caller dict at `field` (key origin first, then the value's). */
  entry(
    d: PDict,
    k: string,
    x: unknown,
    message: number | null,
    field: string,
    depth: number,
    top: string = topOf(field),
  ): void {
    if (x === undefined) return;
    if (field === "") {
      d.set(this.rootKey(message, k), this.rootValue(message, k, x, depth));
      return;
    }
    // Below a non-empty field the key's and the value's top are the field's (the path holds a ".").
    const path = `${field}.${k}`;
    d.set(
      PStr.of(k, this.addField(message, `${path} (key)`, top)),
      this.fieldValue(x, message, path, depth, top),
    );
  }

  /** The key `k` of a message's own field (its origin: field "k (key)"). */
  rootKey(message: number | null, k: string): PStr {
    const keyField = `${k} (key)`;
    // topOf(keyField): read off the key; a key holding no "[" / "." is its own top, " (key)" included.
    const cut = separatorAt(k);
    const keyTop = cut === k.length ? keyField : cut === 0 ? "content" : k.slice(0, cut);
    return PStr.of(k, this.addField(message, keyField, keyTop));
  }

  /** The value `x` (not undefined) of a message's own field `k`. */
  rootValue(message: number | null, k: string, x: unknown, depth = 0): Value {
    const cut = separatorAt(k);
    return this.fieldValue(
      x,
      message,
      k,
      depth,
      cut === 0 ? "content" : cut === k.length ? k : k.slice(0, cut),
    );
  }

  /** value(x, message, path, depth + 1, top), a string value (most fields) made directly. */
  private fieldValue(x: unknown, message: number | null, path: string, depth: number, top: string): Value {
    // value() would refuse a string only nested too deeply.
    if (typeof x === "string" && depth < 128)
      return x.length === 0 ? PStr.EMPTY : PStr.of(x, this.addField(message, path, top));
    return this.value(x, message, path, depth + 1, top);
  }

  /** add() with the field exactly as get() names it. */
  private addField(message: number | null, field: string, top: string): number {
    this.refs.push({ message, field });
    this.tops.push(top);
    return this.tops.length - 1;
  }
}

/** The index of the first "[" or "." in `field`, or its length. */
function separatorAt(field: string): number {
  let cut = 0;
  for (; cut < field.length; cut++) {
    const c = field.charCodeAt(cut);
    if (c === 0x5b || c === 0x2e) break;
  }
  return cut;
}

/** The path's first segment (up to "[" or "."); "" -> "content". */
function topOf(field: string): string {
  const cut = separatorAt(field);
  return cut === 0 ? "content" : field.slice(0, cut);
}
