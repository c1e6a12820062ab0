// JSON as Python sees it, for the vendors that re-serialize tool-call arguments:
// lmdeploy (InternLM2) does json.loads(arguments) then json.dumps(...); ChatGLM3 writes them as
// Python keyword arguments. A JS object cannot carry what Python keeps (1.0 vs 1, integers past
// 2^53, key order of integer-like keys), so the JSON text is parsed into PyValue, which does.
//
// parsePyJson is one linear pass over the text, depth-bounded (MAX_JSON_DEPTH), and answers
// malformed input with a typed error, never a throw of its own. Python json.loads differences
// kept on purpose: NaN / Infinity literals are refused (not JSON).
import { TokenizerError } from "../errors.ts";
import { MAX_JSON_DEPTH } from "../request/request.ts";
import { isJsonInteger, pyFloatRepr, pyJsonString } from "./json.ts";

export type PyValue =
  | null
  | boolean
  | string
  | { readonly int: string }
  | { readonly float: number }
  | readonly PyValue[]
  | ReadonlyMap<string, PyValue>;

export class PyJsonError extends Error {}

/** json.loads(text) with Python's number/key semantics; throws PyJsonError (the caller names the field). */
export function parsePyJson(text: string): PyValue {
  let i = 0;
  const n = text.length;
  const ws = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  const fail = (what: string): never => {
    throw new PyJsonError(`${what} at offset ${i}`);
  };
  const str = (): string => {
    // at the opening quote
    i++;
    const parts: string[] = [];
    let from = i;
    for (;;) {
      if (i >= n) fail("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail("control character in string");
      if (c !== 0x5c) {
        i++;
        continue;
      }
      parts.push(text.slice(from, i));
      const e = text[i + 1];
      const simple = e === undefined ? undefined : SIMPLE_ESCAPES.get(e);
      if (simple !== undefined) {
        parts.push(simple);
        i += 2;
      } else if (e === "u") {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
        parts.push(String.fromCharCode(Number.parseInt(hex, 16)));
        i += 6;
      } else fail("bad escape");
      from = i;
    }
    parts.push(text.slice(from, i));
    i++;
    return parts.length === 1 ? (parts[0] as string) : parts.join("");
  };
  const num = (): PyValue => {
    const m = matchNumber(text, i);
    if (m === null) return fail("unexpected character");
    i += m.length;
    if (/[.eE]/.test(m)) return { float: Number(m) };
    return { int: m === "-0" ? "0" : m };
  };
  /** Right after a container's opening bracket: true (consumed) when `close` follows at once. */
  const empty = (close: "}" | "]"): boolean => {
    ws();
    if (text[i] !== close) return false;
    i++;
    return true;
  };
  /** After a member: true (consumed) at the container's `close`, false (consumed) at ",". */
  const endOf = (close: "}" | "]"): boolean => {
    ws();
    if (text[i] === ",") {
      i++;
      return false;
    }
    if (text[i] !== close) fail(`expected ',' or '${close}'`);
    i++;
    return true;
  };
  const value = (depth: number): PyValue => {
    if (depth > MAX_JSON_DEPTH) fail(`nested deeper than ${MAX_JSON_DEPTH}`);
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const map = new Map<string, PyValue>();
      if (empty("}")) return map;
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key");
        const k = str();
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        map.set(k, value(depth + 1)); // a repeated key keeps its first position, last value (as Python)
        if (endOf("}")) return map;
      }
    }
    if (c === "[") {
      i++;
      const arr: PyValue[] = [];
      if (empty("]")) return arr;
      for (;;) {
        arr.push(value(depth + 1));
        if (endOf("]")) return arr;
      }
    }
    if (c === '"') return str();
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    return num();
  };
  const v = value(1);
  ws();
  if (i !== n) fail("extra data");
  return v;
}

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ["\\", "\\"],
  ["/", "/"],
  ["b", "\b"],
  ["f", "\f"],
  ["n", "\n"],
  ["r", "\r"],
  ["t", "\t"],
]);
const NUMBER_AT = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

function matchNumber(text: string, at: number): string | null {
  NUMBER_AT.lastIndex = at;
  const m = NUMBER_AT.exec(text);
  return m === null ? null : m[0];
}

/** A JS value already checked by checkJsonValue, as Python would hold it after json.loads. */
export function pyFromJs(v: unknown): PyValue {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") return isJsonInteger(v) ? { int: String(v) } : { float: v };
  if (Array.isArray(v)) return v.map(pyFromJs);
  const map = new Map<string, PyValue>();
  for (const k of Object.keys(v as object)) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) map.set(k, pyFromJs(x));
  }
  return map;
}

function isMap(v: PyValue): v is ReadonlyMap<string, PyValue> {
  return v instanceof Map;
}

/** How a PyValue is written: the three literals, strings (keys too) and floats. */
export interface PyWriteStyle {
  readonly none: string;
  readonly true: string;
  readonly false: string;
  readonly str: (s: string) => string;
  readonly float: (f: number) => string;
}

const JSON_STYLE: PyWriteStyle = {
  none: "null",
  true: "true",
  false: "false",
  str: pyJsonString,
  float: pyFloatRepr,
};

const LITERAL_STYLE: PyWriteStyle = {
  none: "None",
  true: "True",
  false: "False",
  str: pyJsonString,
  float: (f) => {
    if (!Number.isFinite(f))
      throw new TokenizerError("invalid-conversation", "a non-finite number has no Python literal");
    return pyFloatRepr(f);
  },
};

/** json.dumps(v, ensure_ascii=False) (default separators). */
export function pyValueJson(v: PyValue): string {
  return pyWrite(v, JSON_STYLE);
}

/** Python repr()-style literal with double-quoted strings (see chatglm3.ts for why). */
export function pyValueLiteral(v: PyValue): string {
  return pyWrite(v, LITERAL_STYLE);
}

/** `v` with ", " between items and ": " after keys, literals, strings and floats as `style` writes them. */
export function pyWrite(v: PyValue, style: PyWriteStyle): string {
  const parts: string[] = [];
  const go = (x: PyValue): void => {
    if (x === null) parts.push(style.none);
    else if (x === true) parts.push(style.true);
    else if (x === false) parts.push(style.false);
    else if (typeof x === "string") parts.push(style.str(x));
    else if (Array.isArray(x)) {
      parts.push("[");
      x.forEach((y, k) => {
        if (k > 0) parts.push(", ");
        go(y);
      });
      parts.push("]");
    } else if (isMap(x as PyValue)) {
      parts.push("{");
      let k = 0;
      for (const [key, y] of x as ReadonlyMap<string, PyValue>) {
        if (k++ > 0) parts.push(", ");
        parts.push(style.str(key), ": ");
        go(y);
      }
      parts.push("}");
    } else if ("int" in (x as object)) parts.push((x as { int: string }).int);
    else parts.push(style.float((x as { float: number }).float));
  };
  go(v);
  return parts.join("");
}
