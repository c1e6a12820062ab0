// The origin table of one render: origin 0 is the template; origin k >= 1 names the caller
// field a string came from (message index or null, and a field path such as "content",
// "tool_calls[0].function.arguments", "tools[1].function.description"). Caller JSON becomes
// interpreter values here, every string (and dict key) tagged with its field's origin.
import { PStr, TEMPLATE } from "./pstr.ts";
import { PDict, PList, PyFloat, type Value } from "./values.ts";

export interface CallerField {
  readonly message: number | null;
  readonly field: string;
}

export class Origins {
  /** Per origin: message index, field path, and whether it names a dict key (" (key)" appended when read). */
  private readonly messages: (number | null)[] = [null];
  private readonly paths: string[] = ["template"];
  private readonly keys: boolean[] = [false];
  /**
   * get(origin), built on first use: most origins (dict keys above all) are never read. Kept
   * packed (a slot pushed per origin): writing index k past the end made the array holey, and
   * for large gaps dictionary-mode (a hash lookup per read).
   */
  private readonly refs: (CallerField | undefined)[] = [undefined];
  /** top(origin), computed on first use (a tools JSON emits one run per string, often per origin twice). */
  private readonly tops: (string | undefined)[] = [undefined];

  /** A new origin; `top` = what top() will answer, when the caller knows it (else computed on first use). */
  add(message: number | null, field: string, key = false, top?: string): number {
    this.messages.push(message);
    this.paths.push(field);
    this.keys.push(key);
    this.refs.push(undefined);
    this.tops.push(top);
    return this.paths.length - 1;
  }

  get(origin: number): CallerField {
    let r = this.refs[origin];
    if (r === undefined) {
      const path = this.paths[origin];
      if (path === undefined) return { message: null, field: "template" };
      r = {
        message: this.messages[origin] ?? null,
        field: this.keys[origin] === true ? `${path} (key)` : path,
      };
      this.refs[origin] = r;
    }
    return r;
  }

  /** The top-level field of an origin's path ("tool_calls[0].function.name" -> "tool_calls"; "" -> "content"). */
  top(origin: number): string {
    let top = this.tops[origin];
    if (top === undefined) {
      top = topOf(this.get(origin).field);
      this.tops[origin] = top;
    }
    return top;
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
    if (typeof v === "number") return Number.isInteger(v) ? v : new PyFloat(v);
    if (typeof v === "string")
      return PStr.of(v, v.length === 0 ? TEMPLATE : this.add(message, field, false, top));
    if (Array.isArray(v))
      // topOf(`${field}[${i}]`) = topOf(field), "content" for "" as for "[i]".
      return new PList(v.map((x, i) => this.value(x, message, `${field}[${i}]`, depth + 1, top)));
    const d = new PDict();
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      this.entry(d, k, x, message, field, depth, top);
    return d;
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
    const path = field === "" ? k : `${field}.${k}`;
    // topOf(path) and topOf(`${path} (key)`): below a non-empty field both are the field's top
    // (the path holds a "."); at the root they are read off the key.
    const valueTop = field === "" ? topOf(k) : top;
    const keyTop = field !== "" ? top : hasSeparator(k) ? topOf(k) : `${k} (key)`;
    d.set(
      PStr.of(k, this.add(message, path, true, keyTop)),
      this.value(x, message, path, depth + 1, valueTop),
    );
  }
}

function hasSeparator(field: string): boolean {
  for (let i = 0; i < field.length; i++) {
    const c = field.charCodeAt(i);
    if (c === 0x5b || c === 0x2e) return true; // "[" or "."
  }
  return false;
}

/** The path's first segment (up to "[" or "."); "" -> "content". */
function topOf(field: string): string {
  let cut = 0;
  for (; cut < field.length; cut++) {
    const c = field.charCodeAt(cut);
    if (c === 0x5b || c === 0x2e) break;
  }
  return cut === 0 ? "content" : field.slice(0, cut);
}
