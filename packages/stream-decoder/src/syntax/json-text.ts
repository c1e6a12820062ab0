// JSON text of a decoded value in Python's json.dumps(value, ensure_ascii=False) spelling (", " and
// ": " separators, non-ASCII kept, only '"', '\\' and U+0000..U+001F escaped), which is how vLLM
// writes the arguments of an xml-call tool call. Numbers are written from their double value: an
// integral one as its exact integer digits (what Python's int(float) prints), any other in
// Python's repr(float) (0.1, 1e-05, 1.5e+300). So JSON.parse of the text gives back the value.
// The value is depth-bounded by its producers (MAX_NESTING_DEPTH): the recursion is bounded.
import type { JsonValue } from "../python-literal.ts";

const ESCAPES: ReadonlyMap<number, string> = new Map([
  [8, "\\b"],
  [9, "\\t"],
  [10, "\\n"],
  [12, "\\f"],
  [13, "\\r"],
  [34, '\\"'],
  [92, "\\\\"],
]);

/** A JSON string literal (json.dumps with ensure_ascii=False). */
export function jsonString(s: string): string {
  // Pieces joined once: an escape-dense string stays linear.
  let parts: string[] | undefined;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 34 && c !== 92) continue;
    parts ??= ['"'];
    parts.push(s.slice(from, i), ESCAPES.get(c) ?? `\\u${c.toString(16).padStart(4, "0")}`);
    from = i + 1;
  }
  if (parts === undefined) return `"${s}"`;
  parts.push(s.slice(from), '"');
  return parts.join("");
}

/** Python repr() of a finite, non-integral double. */
function floatRepr(x: number): string {
  const sign = x < 0 ? "-" : "";
  // toExponential(): the shortest digits that round-trip, as Python's repr.
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(x).toExponential());
  if (m === null) return String(x);
  const digits = (m[1] ?? "") + (m[2] ?? "");
  const exp = Number(m[3]);
  if (exp < -4 || exp >= 16) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  const point = exp + 1;
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A finite double as JSON number text (see the file comment). */
export function jsonNumber(x: number): string {
  return Number.isInteger(x) ? BigInt(x).toString() : floatRepr(x);
}

export function jsonText(v: JsonValue): string {
  const parts: string[] = [];
  const go = (x: JsonValue): void => {
    if (x === null) parts.push("null");
    else if (x === true) parts.push("true");
    else if (x === false) parts.push("false");
    else if (typeof x === "string") parts.push(jsonString(x));
    else if (typeof x === "number") parts.push(jsonNumber(x));
    else if (Array.isArray(x)) {
      parts.push("[");
      for (let k = 0; k < x.length; k++) {
        if (k > 0) parts.push(", ");
        go(x[k] as JsonValue);
      }
      parts.push("]");
    } else {
      parts.push("{");
      let k = 0;
      for (const key of Object.keys(x)) {
        if (k++ > 0) parts.push(", ");
        parts.push(jsonString(key), ": ");
        go(x[key] as JsonValue);
      }
      parts.push("}");
    }
  };
  go(v);
  return parts.join("");
}
