// JSON text of a decoded value in Python's json.dumps(value, ensure_ascii=False) spelling (", " and
// ": " separators, non-ASCII kept, only '"', '\\' and U+0000..U+001F escaped), which is how vLLM
// writes the arguments of an xml-call tool call. Numbers are written from their double value: an
// integral one as its exact integer digits (what Python's int(float) prints), any other in
// Python's repr(float) (0.1, 1e-05, 1.5e+300). So JSON.parse of the text gives back the value.
// The value is depth-bounded by its producers (MAX_NESTING_DEPTH): the recursion is bounded.
import { pyFloatRepr, pyJsonString } from "@chatwire/tokenizer";
import type { JsonValue } from "../python-literal.ts";

/** A JSON string literal (json.dumps with ensure_ascii=False). */
export const jsonString: (s: string) => string = pyJsonString;

/** A finite double as JSON number text (see the file comment). */
export function jsonNumber(x: number): string {
  return Number.isInteger(x) ? BigInt(x).toString() : pyFloatRepr(x);
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
