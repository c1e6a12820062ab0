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
  private readonly refs: CallerField[] = [{ message: null, field: "template" }];
  /** top(origin), computed on first use (a tools JSON emits one run per string, often per origin twice). */
  private readonly tops: (string | undefined)[] = [];

  add(message: number | null, field: string): number {
    this.refs.push({ message, field });
    return this.refs.length - 1;
  }

  get(origin: number): CallerField {
    return this.refs[origin] ?? { message: null, field: "template" };
  }

  /** The top-level field of an origin's path ("tool_calls[0].function.name" -> "tool_calls"; "" -> "content"). */
  top(origin: number): string {
    let top = this.tops[origin];
    if (top === undefined) {
      const { field } = this.get(origin);
      const cut = field.search(/[[.]/);
      top = cut < 0 ? field : field.slice(0, cut);
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
      d.set(PStr.of(k, this.add(message, `${path} (key)`)), this.value(x, message, path, depth + 1));
    }
    return d;
  }
}
