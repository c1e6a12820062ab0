// Python's json.dumps(value, ensure_ascii=False[, indent=N]) byte for byte, as the vendors'
// references serialize tools (ChatGLM3: json.dumps(tools, indent=4, ensure_ascii=False);
// Qwen3's template: transformers' `tojson` = json.dumps(x, ensure_ascii=False)).
//
// - separators: ", " and ": " without indent; "," + newline/indent and ": " with indent;
// - key order as given (JS objects keep insertion order, except that JSON.parse puts
//   integer-like keys first; a caller needing those must not rely on their order);
// - strings: only \x00-\x1f, '"' and '\\' are escaped (\n \r \t \b \f, else \u00xx lowercase);
//   non-ASCII, U+2028/9 and lone surrogates are kept as they are (ensure_ascii=False);
// - numbers as a Python server sees the JSON a JS client sends (JSON.stringify): an integral
//   number below 1e21 is written as an integer (2**60 -> 1152921504606847000, the digits JSON.stringify writes; -0 -> 0), anything
//   else as Python's repr(float) (1e-05, 0.1, 1.5, 1e+21).
import { TokenizerError } from "../errors.ts";

/** JSON's two-character escapes by UTF-16 unit (json.dumps writes every other control unit as \\u00xx). */
export const JSON_ESCAPES: ReadonlyMap<number, string> = new Map([
  [8, "\\b"],
  [9, "\\t"],
  [10, "\\n"],
  [12, "\\f"],
  [13, "\\r"],
  [34, '\\"'],
  [92, "\\\\"],
]);

export function pyJsonString(s: string): string {
  // Pieces joined once: escape-dense strings stay linear (no long chain of concatenations).
  let parts: string[] | undefined;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 34 && c !== 92) continue;
    parts ??= ['"'];
    parts.push(s.slice(from, i), JSON_ESCAPES.get(c) ?? `\\u${c.toString(16).padStart(4, "0")}`);
    from = i + 1;
  }
  if (parts === undefined) return `"${s}"`;
  parts.push(s.slice(from), '"');
  return parts.join("");
}

/** Python repr() of a finite float. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  // toExponential() with no argument: the shortest digits that round-trip (same as Python's repr).
  const m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(x).toExponential());
  if (m === null) return String(x);
  const digits = (m[1] ?? "") + (m[2] ?? "");
  const exp = Number(m[3]);
  if (exp < -4 || exp >= 16) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, "0");
    return `${sign}${mant}e${exp < 0 ? "-" : "+"}${e}`;
  }
  const decpt = exp + 1;
  if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** JSON.stringify writes an integral number below 1e21 as digits, which Python reads as an int. */
export function isJsonInteger(x: number): boolean {
  return Number.isInteger(x) && Math.abs(x) < 1e21;
}

function num(x: number): string {
  return isJsonInteger(x) ? String(x) : pyFloatRepr(x);
}

/** json.dumps(value, ensure_ascii=False, indent=indent). Throws on values JSON cannot hold. */
export function pyJsonDumps(value: unknown, indent?: number): string {
  const parts: string[] = [];
  const seen = new Set<object>();
  const write = (v: unknown, depth: number): void => {
    if (v === null) parts.push("null");
    else if (v === true) parts.push("true");
    else if (v === false) parts.push("false");
    else if (typeof v === "string") parts.push(pyJsonString(v));
    else if (typeof v === "number") parts.push(num(v));
    else if (typeof v === "object") {
      if (seen.has(v)) throw new TokenizerError("invalid-argument", "a JSON value refers to itself");
      seen.add(v);
      const isArr = Array.isArray(v);
      const entries: Array<readonly [string | undefined, unknown]> = isArr
        ? (v as unknown[]).map((x) => [undefined, x] as const)
        : Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
      const [open, close] = isArr ? ["[", "]"] : ["{", "}"];
      if (entries.length === 0) parts.push(open + close);
      else {
        const inner = indent === undefined ? "" : `\n${" ".repeat(indent * (depth + 1))}`;
        const outer = indent === undefined ? "" : `\n${" ".repeat(indent * depth)}`;
        const sep = indent === undefined ? ", " : `,${inner}`;
        parts.push(open + inner);
        entries.forEach(([k, x], i) => {
          if (i > 0) parts.push(sep);
          if (k !== undefined) parts.push(`${pyJsonString(k)}: `);
          write(x, depth + 1);
        });
        parts.push(outer + close);
      }
      seen.delete(v);
    } else throw new TokenizerError("invalid-argument", `a ${typeof v} cannot be written as JSON`);
  };
  write(value, 0);
  return parts.join("");
}
