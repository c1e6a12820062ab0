// Python's printf-style string formatting, `fmt % values`, as jinja2 evaluates `'%s' % x` and the
// `format` filter (`soft_str(value) % (kwargs or args)`), with provenance: the format's literal
// text keeps its origin, a converted argument keeps its own (`%s` of a caller string is caller
// text, `%r` its repr with template quotes), padding is template text.
//
// Python's rules (Objects/unicodeobject.c PyUnicode_Format): a tuple is the argument list; any
// other value is one argument, and a dict (or list: Python's mapping check) also serves
// `%(key)s`; arguments left over are a TypeError unless the value is such a mapping.
// Conversions: s r d i u x X o c f F e E %, flags `-+ 0#`, width and precision (`*` from the
// arguments). `%g`/`%G`/`%a` are refused (a typed error, not a guess).
//
// Rounding: `%f`/`%e` use JavaScript's toFixed/toExponential, which round the exact binary value
// as Python does except on an exact decimal tie, where Python rounds half to even; a tie is
// detected on the value's longer expansion and rounded to even here (a re-implementation of
// CPython's float formatting for these cases, checked against it by the jinja-percent goldens).
import { tooLong } from "./limits.ts";
import { PStr, PStrBuilder } from "./pstr.ts";
import { pySlice } from "./py-str.ts";
import {
  numOf,
  PDict,
  PList,
  PyFloat,
  PyUndefined,
  repr,
  str,
  TemplateRuntimeError,
  typeName,
  type Value,
} from "./values.ts";

const FLAGS = "-+ 0#";

function typeError(msg: string): TemplateRuntimeError {
  return new TemplateRuntimeError(msg);
}

/** `fmt % values` with Python's semantics; `cap`: the longest result. */
export function percentFormat(fmt: PStr, values: Value, cap: number): PStr {
  const args: readonly Value[] = values instanceof PList && values.tuple ? values.items : [values];
  const mapping =
    !(values instanceof PList && values.tuple) && (values instanceof PDict || values instanceof PList);
  const out = new PStrBuilder(cap);
  const t = fmt.text;
  let next = 0;
  let usedKey = false;
  const take = (): Value => {
    if (next >= args.length) throw typeError("not enough arguments for format string");
    return args[next++] as Value;
  };
  let from = 0;
  let i = 0;
  while (i < t.length) {
    if (t.charCodeAt(i) !== 37) {
      i++;
      continue;
    }
    out.push(fmt.slice(from, i));
    i++;
    let arg: Value | undefined;
    if (t[i] === "(") {
      // %(key)s: the key up to the matching parenthesis (nested ones counted, as CPython does).
      if (!(values instanceof PDict)) throw typeError("format requires a mapping");
      let depth = 1;
      const start = ++i;
      while (i < t.length && depth > 0) {
        if (t[i] === "(") depth++;
        else if (t[i] === ")") depth--;
        i++;
      }
      if (depth > 0) throw new TemplateRuntimeError("incomplete format key");
      const key = t.slice(start, i - 1);
      const v = values.get(key);
      if (v === undefined) throw new TemplateRuntimeError(`KeyError: '${key.slice(0, 40)}'`);
      arg = v;
      usedKey = true;
    }
    let flags = "";
    while (i < t.length && FLAGS.includes(t[i] as string)) flags += t[i++];
    let width = -1;
    if (t[i] === "*") {
      width = intArg(arg === undefined ? take() : arg, "* wants int");
      i++;
      if (width < 0) {
        flags += "-";
        width = -width;
      }
    } else width = digits();
    let precision = -1;
    if (t[i] === ".") {
      i++;
      if (t[i] === "*") {
        precision = Math.max(0, intArg(take(), "* wants int"));
        i++;
      } else precision = Math.max(0, digits());
    }
    // Length modifiers (h, l, L) are accepted and ignored, as in Python.
    while (t[i] === "h" || t[i] === "l" || t[i] === "L") i++;
    if (i >= t.length) throw new TemplateRuntimeError("incomplete format");
    const c = t[i] as string;
    i++;
    from = i;
    if (c === "%") {
      out.add("%");
      continue;
    }
    const x = arg ?? take();
    if (width > cap || precision > cap) throw tooLong(cap);
    pad(out, convert(c, x, flags, precision, cap), width, flags);
  }
  out.push(fmt.slice(from));
  if (next < args.length && !mapping && !usedKey)
    throw typeError("not all arguments converted during string formatting");
  return out.finish();

  function digits(): number {
    let n = -1;
    while (i < t.length && t.charCodeAt(i) >= 48 && t.charCodeAt(i) <= 57) {
      n = Math.max(n, 0) * 10 + (t.charCodeAt(i) - 48);
      // A width past the output bound can never be written.
      if (n > cap) throw tooLong(cap);
      i++;
    }
    return n;
  }
}

function intArg(v: Value, msg: string): number {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "boolean") return Number(v);
  throw typeError(msg);
}

/** A conversion's text: its sign and digits (numbers) or the converted string. */
interface Converted {
  readonly body: PStr;
  /** "-" / "+" / " " / "" ahead of the digits (zero padding goes between). */
  readonly sign: string;
  readonly numeric: boolean;
}

function convert(c: string, x: Value, flags: string, precision: number, cap: number): Converted {
  switch (c) {
    case "s":
    case "r": {
      let s: PStr;
      if (c === "s") s = str(x, cap);
      else {
        const b = new PStrBuilder(cap);
        repr(x, b);
        s = b.finish();
      }
      return { body: precision >= 0 ? pySlice(s, 0, precision, 1) : s, sign: "", numeric: false };
    }
    case "d":
    case "i":
    case "u": {
      const n = realNumber(c, x);
      if (!Number.isFinite(n)) throw typeError("cannot convert float infinity or NaN to integer");
      const k = Math.trunc(n);
      let ds = BigInt(k < 0 ? -k : k).toString();
      if (precision > ds.length) ds = ds.padStart(precision, "0");
      return numeric(ds, k < 0, flags);
    }
    case "x":
    case "X":
    case "o": {
      if (!(typeof x === "number" && Number.isInteger(x)) && typeof x !== "boolean")
        throw typeError(`%${c} format: an integer is required, not ${typeName(x)}`);
      const k = Number(x);
      let ds = BigInt(Math.abs(k)).toString(c === "o" ? 8 : 16);
      if (c === "X") ds = ds.toUpperCase();
      if (precision > ds.length) ds = ds.padStart(precision, "0");
      if (flags.includes("#")) ds = (c === "o" ? "0o" : c === "x" ? "0x" : "0X") + ds;
      return numeric(ds, k < 0, flags);
    }
    case "f":
    case "F":
    case "e":
    case "E": {
      const n = realNumber(c, x);
      const p = precision < 0 ? 6 : precision;
      let ds: string;
      if (Number.isNaN(n)) ds = "nan";
      else if (!Number.isFinite(n)) ds = "inf";
      else if (c === "f" || c === "F") ds = fixed(Math.abs(n), p);
      else ds = exponential(Math.abs(n), p);
      if (c === "F" || c === "E") ds = ds.toUpperCase();
      return numeric(ds, n < 0 || Object.is(n, -0), flags);
    }
    case "c": {
      if (x instanceof PStr) {
        if (x.codePoints !== 1) throw typeError("%c requires an int or a unicode character");
        return { body: x, sign: "", numeric: false };
      }
      if (typeof x !== "number" || !Number.isInteger(x) || x < 0 || x > 0x10ffff)
        throw typeError("%c arg not in range(0x110000)");
      return { body: PStr.of(String.fromCodePoint(x)), sign: "", numeric: false };
    }
    default:
      throw new TemplateRuntimeError(`unsupported format character '${c}'`);
  }
}

function realNumber(c: string, x: Value): number {
  const n = x instanceof PyUndefined ? undefined : numOf(x);
  if (n === undefined) throw typeError(`%${c} format: a real number is required, not ${typeName(x)}`);
  return x instanceof PyFloat ? x.v : n;
}

function numeric(ds: string, negative: boolean, flags: string): Converted {
  const sign = negative ? "-" : flags.includes("+") ? "+" : flags.includes(" ") ? " " : "";
  return { body: PStr.of(ds), sign, numeric: true };
}

/** The conversion padded to `width` code points: left (`-`), zeros after the sign (`0`, numbers), else spaces. */
function pad(out: PStrBuilder, v: Converted, width: number, flags: string): void {
  // Code points are counted only for a width (counting a long astral string allocates).
  const fill = width <= 0 ? 0 : Math.max(0, width - v.sign.length - v.body.codePoints);
  if (flags.includes("-")) {
    out.add(v.sign);
    out.push(v.body);
    out.add(" ".repeat(fill));
    return;
  }
  // Zero padding: numbers only, and not inf / nan (Python pads those with spaces).
  if (flags.includes("0") && v.numeric && !/^(inf|nan)$/i.test(v.body.text)) {
    out.add(v.sign);
    out.add("0".repeat(fill));
    out.push(v.body);
    return;
  }
  out.add(" ".repeat(fill));
  out.add(v.sign);
  out.push(v.body);
}

/** Python '%.{p}f' of a non-negative finite number. */
function fixed(x: number, p: number): string {
  if (x >= 1e21) {
    // toFixed switches to exponent form here; the integer part is exact as a BigInt.
    const whole = BigInt(x).toString();
    return p > 0 ? `${whole}.${"0".repeat(p)}` : whole;
  }
  const s = x.toFixed(p);
  if (p >= 100) return s;
  // An exact decimal tie (the digit after the last kept one is 5 and nothing follows) rounds to
  // even in Python; toFixed rounds it up.
  const longer = x.toFixed(Math.min(100, p + 25));
  const dot = longer.indexOf(".");
  const kept = p === 0 ? longer.slice(0, dot) : longer.slice(0, dot + 1 + p);
  const rest = longer.slice(dot + 1 + p);
  if (!/^50*$/.test(rest)) return s;
  const last = kept.charCodeAt(kept.length - 1) - 48;
  return last % 2 === 0 ? kept : s;
}

/** Python '%.{p}e' of a non-negative finite number (exponent of at least two digits). */
function exponential(x: number, p: number): string {
  const s = x.toExponential(Math.min(p, 100));
  const m = /^(.*)e([+-])(\d+)$/.exec(s);
  if (m === null) return s;
  return `${m[1]}e${m[2]}${(m[3] as string).padStart(2, "0")}`;
}
