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

  add(message: number | null, field: string, key = false): number {
    this.messages.push(message);
    this.paths.push(field);
    this.keys.push(key);
    this.refs.push(undefined);
    this.tops.push(undefined);
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
      const { field } = this.get(origin);
      let cut = 0;
      for (; cut < field.length; cut++) {
        const c = field.charCodeAt(cut);
        if (c === 0x5b || c === 0x2e) break; // "[" or "."
      }
      top = field.slice(0, cut);
      if (top === "") top = "content";
      this.tops[origin] = top;
    }
    return top;
  }

  /** Caller JSON -> values; strings get the origin of (message, field path). */
  value(v: unknown, message: number | null, field: string, depth = 0): Value {
    if (depth > 128) throw new RangeError("caller value nested too deeply");
    if (v === null || v === undefined) return null;
    if (typeof v === "boolean") return v;
    if (typeof v === "number") return Number.isInteger(v) ? v : new PyFloat(v);
    if (typeof v === "string") return PStr.of(v, v.length === 0 ? TEMPLATE : this.add(message, field));
    if (Array.isArray(v))
      return new PList(v.map((x, i) => this.value(x, message, `${field}[${i}]`, depth + 1)));
    const d = new PDict();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x === undefined) continue;
      const path = field === "" ? k : `${field}.${k}`;
      d.set(PStr.of(k, this.add(message, path, true)), this.value(x, message, path, depth + 1));
    }
    return d;
  }
}
