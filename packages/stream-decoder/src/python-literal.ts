// ChatGLM3 tool calls are Python source, "tool_call(location=\"beijing\", days=3)", which the
// vendor runs through eval() (pitfall B15). Here a hand-written scanner + recursive-descent
// parser accepts ONLY literals (str incl. every quote/escape form and r/u prefixes, int,
// float, True/False/None, list, tuple, dict, unary +/-) as keyword arguments of one call.
// Anything else (names, calls, operators, f-strings, bytes, sets, positional arguments) is a
// PythonLiteralError; nothing is ever evaluated.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export class PythonLiteralError extends Error {
  override readonly name = "PythonLiteralError";
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(`${message} at offset ${index}`);
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
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
  return /[A-Za-z_]/.test(c);
}
function isIdPart(c: string): boolean {
  return /[A-Za-z0-9_]/.test(c);
}

/** Sets a key without going through the prototype chain ("__proto__" is an ordinary key). */
function setKey(obj: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

class Parser {
  pos = 0;
  constructor(readonly src: string) {}

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
    const c = this.peek();
    if (c === "") this.fail("unexpected end of input");
    if (c === "-" || c === "+") {
      this.pos++;
      const v = this.value();
      if (typeof v !== "number" || typeof v === "boolean") this.fail("unary sign on a non-number", this.pos);
      return c === "-" ? -v : v;
    }
    if (c === "[") return this.sequence("]");
    if (c === "(") return this.parenthesized();
    if (c === "{") return this.dict();
    if (c === '"' || c === "'") return this.strings();
    if (/[0-9.]/.test(c)) return this.number();
    if (isIdStart(c)) {
      const start = this.pos;
      const name = this.identifier();
      const q = this.peek();
      if ((q === '"' || q === "'") && /^[rRuU]$/.test(name)) {
        this.pos = start;
        return this.strings();
      }
      if (name === "True") return true;
      if (name === "False") return false;
      if (name === "None") return null;
      if (q === '"' || q === "'") this.fail(`string prefix ${name} is not allowed`, start);
      this.fail(`name ${JSON.stringify(name)} is not a literal`, start);
    }
    return this.fail(`unexpected ${JSON.stringify(c)}`);
  }

  sequence(close: string): JsonValue[] {
    this.pos++; // [ or (
    const out: JsonValue[] = [];
    for (;;) {
      this.skip();
      if (this.peek() === close) {
        this.pos++;
        return out;
      }
      out.push(this.value());
      this.skip();
      if (this.peek() === ",") this.pos++;
      else if (this.peek() !== close) this.fail(`expected "," or ${JSON.stringify(close)}`);
    }
  }

  /** () empty tuple, (x) grouping, (x,) / (x, y) tuple -> array. */
  parenthesized(): JsonValue {
    const open = this.pos;
    this.pos++;
    this.skip();
    if (this.peek() === ")") {
      this.pos++;
      return [];
    }
    const first = this.value();
    this.skip();
    if (this.peek() === ")") {
      this.pos++;
      return first;
    }
    this.pos = open;
    return this.sequence(")");
  }

  dict(): JsonValue {
    this.pos++;
    const out: { [key: string]: JsonValue } = {};
    for (;;) {
      this.skip();
      if (this.peek() === "}") {
        this.pos++;
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
      if (c === '"' || c === "'" || (/^[rRuU]$/.test(c) && (c2 === '"' || c2 === "'"))) out += this.string();
      else {
        this.pos = save;
        return out;
      }
    }
  }

  string(): string {
    const s = this.src;
    let raw = false;
    while (/[rRuU]/.test(this.peek())) {
      if (/[rR]/.test(this.peek())) raw = true;
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
      if (!triple && (c === "\n" || c === "\r")) this.fail("newline in a single-quoted string", this.pos);
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
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) this.fail(`bad \\${e} escape`, this.pos - 2);
      const cp = Number.parseInt(hex, 16);
      if (cp > 0x10ffff) this.fail("escape out of Unicode range", this.pos - 2);
      this.pos += width;
      return String.fromCodePoint(cp);
    }
    if (e === "N") this.fail("\\N{...} escapes are not supported", this.pos - 2);
    return `\\${e}`; // Python keeps unknown escapes verbatim.
  }

  number(): number {
    const s = this.src;
    const m =
      /^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:[0-9](?:_?[0-9])*)?(?:\.(?:[0-9](?:_?[0-9])*)?)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?)/.exec(
        s.slice(this.pos),
      );
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
export function parsePythonLiteral(src: string): JsonValue {
  const p = new Parser(src);
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
    if (seen.has(key)) p.fail(`keyword argument ${key} repeated`, at);
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
