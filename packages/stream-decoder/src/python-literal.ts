// ChatGLM3 tool calls are Python source, "tool_call(location=\"beijing\", days=3)", which the
// vendor runs through eval() (never acceptable on model output). Here a hand-written scanner + recursive-descent
// parser accepts ONLY literals (str incl. every quote/escape form and r/u prefixes, int,
// float, True/False/None, list, tuple, dict, unary +/-) as keyword arguments of one call.
// Anything else (names, calls, operators, f-strings, bytes, sets, positional arguments) is a
// PythonLiteralError; nothing is ever evaluated.
//
// Linear in the input and depth-bounded (model output is untrusted): each unit is looked at a
// bounded number of times (a parenthesized value is parsed ONCE and then turns out to be a
// grouping or a tuple), brackets nest at most MAX_NESTING_DEPTH deep (a PythonLiteralError of type
// "too-deep" beyond), and a run of unary signs is a loop, not recursion.
import { MAX_NESTING_DEPTH } from "./limits.ts";
import { PythonLiteralError } from "./python-literal-error.ts";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** At most 40 characters of the input in a message. */
function quote40(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

export const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

function isIdStart(c: string): boolean {
  const u = c.charCodeAt(0);
  return (u >= 97 && u <= 122) || (u >= 65 && u <= 90) || u === 95;
}
function isIdPart(c: string): boolean {
  const u = c.charCodeAt(0);
  return (u >= 97 && u <= 122) || (u >= 65 && u <= 90) || (u >= 48 && u <= 57) || u === 95;
}
function isStrPrefix(c: string): boolean {
  return c === "r" || c === "R" || c === "u" || c === "U";
}
function isHex(c: string): boolean {
  const u = c.charCodeAt(0);
  return (u >= 48 && u <= 57) || (u >= 97 && u <= 102) || (u >= 65 && u <= 70);
}

/** A Python number spelling, tried at a position (sticky: no slice of the rest of the input). */
const NUMBER =
  /0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:[0-9](?:_?[0-9])*)?(?:\.(?:[0-9](?:_?[0-9])*)?)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?/y;

/** Sets a key without going through the prototype chain ("__proto__" is an ordinary key). */
function setKey(obj: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Dialects of the literal syntax (default: Python's own). LFM2's templates write a call's values
 * as `"` + text + `"` with nothing escaped and its dicts through `tojson` (JSON's true / null
 * inside a Python call), so its calls are read with both options on.
 */
export interface PythonLiteralOptions {
  /** Every string is raw (as if r-prefixed: a backslash is kept) and may span lines. */
  readonly rawStrings?: boolean;
  /** JSON's true / false / null are accepted beside True / False / None. */
  readonly jsonNames?: boolean;
}

class Parser {
  pos = 0;
  /** Open brackets around the current position. */
  depth = 0;
  readonly rawStrings: boolean;
  readonly jsonNames: boolean;
  constructor(
    readonly src: string,
    options: PythonLiteralOptions = {},
  ) {
    this.rawStrings = options.rawStrings === true;
    this.jsonNames = options.jsonNames === true;
  }

  /** A bracket opens at `pos`: one level deeper, or "too-deep". */
  enter(): void {
    if (++this.depth > MAX_NESTING_DEPTH)
      throw new PythonLiteralError(`brackets nested deeper than ${MAX_NESTING_DEPTH}`, this.pos, "too-deep");
    this.pos++;
  }

  fail(message: string, at = this.pos): never {
    throw new PythonLiteralError(message, at);
  }

  /** Whitespace (newlines allowed: we are always inside brackets), comments, line continuations. */
  skip(): void {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s[this.pos] as string;
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f") this.pos++;
      else if (c === "#") {
        while (this.pos < s.length && s[this.pos] !== "\n") this.pos++;
      } else if (c === "\\" && (s[this.pos + 1] === "\n" || s[this.pos + 1] === "\r")) this.pos += 2;
      else break;
    }
  }

  peek(): string {
    return this.src[this.pos] ?? "";
  }

  expect(ch: string): void {
    this.skip();
    if (this.peek() !== ch) this.fail(`expected ${JSON.stringify(ch)}`);
    this.pos++;
  }

  identifier(): string {
    const start = this.pos;
    if (!isIdStart(this.peek())) this.fail("expected a name");
    while (this.pos < this.src.length && isIdPart(this.peek())) this.pos++;
    return this.src.slice(start, this.pos);
  }

  value(): JsonValue {
    this.skip();
    let c = this.peek();
    if (c === "-" || c === "+") {
      // A run of signs in a loop (recursion per sign would overflow on "------...1").
      let negative = false;
      while (c === "-" || c === "+") {
        if (c === "-") negative = !negative;
        this.pos++;
        this.skip();
        c = this.peek();
      }
      const v = this.operand(c);
      if (typeof v !== "number") this.fail("unary sign on a non-number", this.pos);
      return negative ? -v : v;
    }
    return this.operand(c);
  }

  /** A value without leading signs, starting with `c` (whitespace skipped). */
  operand(c: string): JsonValue {
    if (c === "") this.fail("unexpected end of input");
    if (c === "[") return this.sequence("]");
    if (c === "(") return this.parenthesized();
    if (c === "{") return this.dict();
    if (c === '"' || c === "'") return this.strings();
    if (/[0-9.]/.test(c)) return this.number();
    if (isIdStart(c)) {
      const start = this.pos;
      const name = this.identifier();
      const q = this.peek();
      if ((q === '"' || q === "'") && name.length === 1 && isStrPrefix(name)) {
        this.pos = start;
        return this.strings();
      }
      if (name === "True" || (this.jsonNames && name === "true")) return true;
      if (name === "False" || (this.jsonNames && name === "false")) return false;
      if (name === "None" || (this.jsonNames && name === "null")) return null;
      if (q === '"' || q === "'") this.fail(`string prefix ${quote40(name)} is not allowed`, start);
      this.fail(`name ${quote40(name)} is not a literal`, start);
    }
    return this.fail(`unexpected ${JSON.stringify(c)}`);
  }

  /** "[" ... "]" */
  sequence(close: string): JsonValue[] {
    this.enter();
    return this.items(close, []);
  }

  /** The items of an open list / tuple after `out`, through its closing bracket. */
  items(close: string, out: JsonValue[]): JsonValue[] {
    for (;;) {
      this.skip();
      if (this.peek() === close) {
        this.pos++;
        this.depth--;
        return out;
      }
      out.push(this.value());
      this.skip();
      if (this.peek() === ",") this.pos++;
      else if (this.peek() !== close) this.fail(`expected "," or ${JSON.stringify(close)}`);
    }
  }

  /**
   * () empty tuple, (x) grouping, (x,) / (x, y) tuple -> array. The first value is parsed
   * once; what follows it decides (the tuple goes on from it, nothing is parsed again).
   */
  parenthesized(): JsonValue {
    this.enter();
    this.skip();
    if (this.peek() === ")") {
      this.pos++;
      this.depth--;
      return [];
    }
    const first = this.value();
    this.skip();
    if (this.peek() === ")") {
      this.pos++;
      this.depth--;
      return first;
    }
    if (this.peek() !== ",") this.fail('expected "," or ")"');
    this.pos++;
    return this.items(")", [first]);
  }

  dict(): JsonValue {
    this.enter();
    const out: { [key: string]: JsonValue } = {};
    for (;;) {
      this.skip();
      if (this.peek() === "}") {
        this.pos++;
        this.depth--;
        return out;
      }
      const keyAt = this.pos;
      const key = this.value();
      this.skip();
      if (this.peek() !== ":")
        this.fail(this.peek() === "," || this.peek() === "}" ? "sets are not JSON" : 'expected ":"');
      this.pos++;
      const v = this.value();
      setKey(out, jsonKey(key, keyAt), v);
      this.skip();
      if (this.peek() === ",") this.pos++;
      else if (this.peek() !== "}") this.fail('expected "," or "}"');
    }
  }

  /** Adjacent literals concatenate ("a" 'b'), as in Python. */
  strings(): string {
    let out = this.string();
    for (;;) {
      const save = this.pos;
      this.skip();
      const c = this.peek();
      const c2 = this.src[this.pos + 1] ?? "";
      if (c === '"' || c === "'" || (isStrPrefix(c) && (c2 === '"' || c2 === "'"))) out += this.string();
      else {
        this.pos = save;
        return out;
      }
    }
  }

  string(): string {
    const s = this.src;
    let raw = this.rawStrings;
    while (isStrPrefix(this.peek())) {
      if (this.peek() === "r" || this.peek() === "R") raw = true;
      this.pos++;
    }
    const q = this.peek();
    const start = this.pos;
    const triple = s.startsWith(q.repeat(3), this.pos);
    this.pos += triple ? 3 : 1;
    let out = "";
    for (;;) {
      if (this.pos >= s.length) this.fail("unterminated string", start);
      const c = s[this.pos] as string;
      if (c === q && (!triple || s.startsWith(q.repeat(3), this.pos))) {
        this.pos += triple ? 3 : 1;
        return out;
      }
      if (!triple && !this.rawStrings && (c === "\n" || c === "\r"))
        this.fail("newline in a single-quoted string", this.pos);
      if (c !== "\\") {
        // A run of plain units goes in as one slice: `out += c` per unit made one string per
        // character (ChatGLM3 tools 8k has a 30k-char string argument; profile, bench/).
        const qu = q.charCodeAt(0);
        let p = this.pos + 1;
        while (p < s.length) {
          const u = s.charCodeAt(p);
          if (u === qu || u === 92 || u === 10 || u === 13) break;
          p++;
        }
        out += s.slice(this.pos, p);
        this.pos = p;
        continue;
      }
      const e = s[this.pos + 1];
      if (e === undefined) this.fail("unterminated string", start);
      if (raw) {
        // A raw string keeps the backslash; it only stops the next char from ending the string.
        out += c + e;
        this.pos += 2;
        continue;
      }
      this.pos += 2;
      out += this.escape(e);
    }
  }

  escape(e: string): string {
    const s = this.src;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) return simple;
    if (e === "\n") return "";
    if (e === "\r") {
      if (s[this.pos] === "\n") this.pos++;
      return "";
    }
    if (/[0-7]/.test(e)) {
      let digits = e;
      while (digits.length < 3 && /[0-7]/.test(this.peek())) digits += s[this.pos++];
      return String.fromCodePoint(Number.parseInt(digits, 8));
    }
    const width = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
    if (width > 0) {
      const hex = s.slice(this.pos, this.pos + width);
      let ok = hex.length === width;
      for (let k = 0; ok && k < width; k++) ok = isHex(hex[k] as string);
      if (!ok) this.fail(`bad \\${e} escape`, this.pos - 2);
      const cp = Number.parseInt(hex, 16);
      if (cp > 0x10ffff) this.fail("escape out of Unicode range", this.pos - 2);
      this.pos += width;
      return String.fromCodePoint(cp);
    }
    if (e === "N") this.fail("\\N{...} escapes are not supported", this.pos - 2);
    return `\\${e}`; // Python keeps unknown escapes verbatim.
  }

  number(): number {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.src);
    const text = m?.[0] ?? "";
    if (text === "" || text === "." || !/[0-9]/.test(text)) this.fail("bad number");
    const at = this.pos;
    this.pos += text.length;
    if (/^[jJ]/.test(this.peek())) this.fail("complex numbers are not JSON", at);
    if (isIdPart(this.peek())) this.fail("bad number", at);
    const clean = text.replace(/_/g, "");
    if (/^0[xXoObB]/.test(clean)) return checkInt(Number(clean), at, this);
    if (/^[0-9]+$/.test(clean)) {
      if (/^0+[1-9]/.test(clean)) this.fail("leading zeros in a decimal integer", at);
      return checkInt(Number(clean), at, this);
    }
    const v = Number(clean.startsWith(".") ? `0${clean}` : clean.endsWith(".") ? `${clean}0` : clean);
    if (!Number.isFinite(v)) this.fail("float out of range", at);
    return v;
  }
}

function checkInt(v: number, at: number, p: Parser): number {
  if (!Number.isSafeInteger(v)) p.fail("integer does not fit a JSON number exactly", at);
  return v;
}

/** json.dumps key conversion: str as is; int/float/True/False/None to their JSON spelling. */
function jsonKey(key: JsonValue, at: number): string {
  if (typeof key === "string") return key;
  if (typeof key === "number") return String(key);
  if (key === true) return "true";
  if (key === false) return "false";
  if (key === null) return "null";
  throw new PythonLiteralError("dict key is not hashable as JSON", at);
}

/** One Python literal expression (the whole input). */
export function parsePythonLiteral(src: string, options?: PythonLiteralOptions): JsonValue {
  const p = new Parser(src, options);
  const v = p.value();
  p.skip();
  if (p.pos !== src.length) p.fail("unexpected text after the literal");
  return v;
}

export interface PythonCall {
  readonly name: string;
  readonly arguments: { [key: string]: JsonValue };
}

/** `NAME(k=literal, ...)` with keyword arguments only. */
export function parsePythonCall(src: string): PythonCall {
  const p = new Parser(src);
  p.skip();
  const name = p.identifier();
  p.expect("(");
  // The call's own parenthesis counts, as in CPython and as the JSON call object does.
  p.depth = 1;
  const args: { [key: string]: JsonValue } = {};
  const seen = new Set<string>();
  for (;;) {
    p.skip();
    if (p.peek() === ")") {
      p.pos++;
      break;
    }
    const at = p.pos;
    if (!isIdStart(p.peek())) p.fail("positional arguments are not allowed");
    const key = p.identifier();
    p.skip();
    if (p.peek() !== "=" || p.src[p.pos + 1] === "=") p.fail("positional arguments are not allowed", at);
    p.pos++;
    if (seen.has(key)) p.fail(`keyword argument ${quote40(key)} repeated`, at);
    seen.add(key);
    setKey(args, key, p.value());
    p.skip();
    if (p.peek() === ",") p.pos++;
    else if (p.peek() !== ")") p.fail('expected "," or ")"');
  }
  p.skip();
  if (p.pos !== src.length) p.fail("unexpected text after the call");
  return { name, arguments: args };
}
