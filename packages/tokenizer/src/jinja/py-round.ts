// jinja2's `round` filter (do_round): Python's round(value, precision) for method "common",
// else math.ceil / math.floor of value * 10**precision, divided back by 10**precision.
//
// Python rounds a float to a number of decimals on its exact binary value, ties to even
// (round(2.675, 2) is 2.67: the double is just below 2.675; round(2.5) is 2), then reads the
// decimal result back correctly rounded. Here the exact value is a BigInt fraction, and the
// result is read back by Number() of the decimal string, which is correctly rounded too.
import { PyFloat, TemplateRuntimeError, typeName, type Value } from "./values.ts";

/** A double as sign, integer mantissa and binary exponent: x = sign * m * 2^e. */
function decompose(x: number): { sign: number; m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  const sign = hi >>> 31 === 1 ? -1 : 1;
  if (biased === 0) return { sign, m: frac, e: -1074 };
  return { sign, m: frac | (1n << 52n), e: biased - 1075 };
}

/** Python's round(x, ndigits) of a float (CPython's double_round). */
function roundFloat(x: number, ndigits: number): number {
  // CPython: beyond these, the value is kept / becomes a signed zero; inf and nan are kept.
  if (ndigits > 323 || !Number.isFinite(x) || x === 0) return x;
  if (ndigits < -308) return 0 * x;
  const { sign, m, e } = decompose(x);
  let num = m;
  let den = 1n;
  if (e >= 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  if (ndigits >= 0) num *= 10n ** BigInt(ndigits);
  else den *= 10n ** BigInt(-ndigits);
  let q = num / den;
  const twice = 2n * (num % den);
  if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n;
  const y = Number(`${sign < 0 ? "-" : ""}${q}e${-ndigits}`);
  if (!Number.isFinite(y)) throw new TemplateRuntimeError("rounded value too large to represent");
  return y;
}

/** Python's round(n, ndigits) of an int: n itself for ndigits >= 0, else ties to even at 10**-ndigits. */
function roundInt(n: number, ndigits: number): number {
  if (ndigits >= 0) return n;
  // |n| < 2^1024 < 10^309: a coarser power of ten rounds every int to 0.
  if (ndigits < -309) return 0;
  const pow = 10n ** BigInt(-ndigits);
  const v = BigInt(n);
  let q = v / pow;
  let r = v % pow;
  // BigInt division truncates: make it floor division, as Python's divmod.
  if (r < 0n) {
    q -= 1n;
    r += pow;
  }
  const twice = 2n * r;
  if (twice > pow || (twice === pow && (q & 1n) === 1n)) q += 1n;
  return Number(q * pow);
}

/** A precision that Python accepts as an index (an int or a bool). */
function ndigitsOf(p: Value): number {
  if (typeof p === "boolean") return Number(p);
  if (typeof p === "number" && Number.isInteger(p)) return p;
  throw new TemplateRuntimeError(`'${typeName(p)}' object cannot be interpreted as an integer`);
}

/** Python's 10**p as a double (an int power when p >= 0: correctly rounded to a float when used). */
function tenTo(p: number): number {
  return Number.isInteger(p) ? Number(`1e${p}`) : 10 ** p;
}

/** math.ceil / math.floor of a double: an int (errors for inf and nan as Python's). */
function ceilOrFloor(x: number, method: "ceil" | "floor"): number {
  if (Number.isNaN(x)) throw new TemplateRuntimeError("cannot convert float NaN to integer");
  if (!Number.isFinite(x)) throw new TemplateRuntimeError("cannot convert float infinity to integer");
  // + 0: an int has no negative zero (Math.ceil(-0.25) is -0).
  return (method === "ceil" ? Math.ceil(x) : Math.floor(x)) + 0;
}

/** do_round(value, precision, method). */
export function roundFilter(v: Value, precision: Value, method: "common" | "ceil" | "floor"): Value {
  const isInt = typeof v === "number" || typeof v === "boolean";
  if (!isInt && !(v instanceof PyFloat))
    throw new TemplateRuntimeError(`type ${typeName(v)} doesn't define __round__ method`);
  const x = v instanceof PyFloat ? v.v : Number(v);
  if (method === "common") {
    const nd = ndigitsOf(precision);
    return isInt ? roundInt(x, nd) : new PyFloat(roundFloat(x, nd));
  }
  // func(value * 10**precision) / 10**precision: an int times an int power stays exact, so
  // the result is the value itself; otherwise a float product, then int / int (correctly
  // rounded: read back from the decimal string) or int / float.
  const p = typeof precision === "boolean" ? Number(precision) : precision;
  if (typeof p !== "number" && !(p instanceof PyFloat))
    throw new TemplateRuntimeError(`unsupported operand type(s) for ** or pow(): 'int' and '${typeName(p)}'`);
  const intPower = typeof p === "number" && p >= 0;
  const pv = p instanceof PyFloat ? p.v : p;
  if (intPower && isInt) return new PyFloat(x);
  const scale = tenTo(pv);
  if (!Number.isFinite(scale)) throw new TemplateRuntimeError("int too large to convert to float");
  const c = ceilOrFloor(x * scale, method);
  if (intPower) return new PyFloat(Number(`${BigInt(c)}e-${pv}`));
  return new PyFloat(c / scale);
}
