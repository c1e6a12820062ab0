// Python's int(text) and float(text) on a string, as vLLM's XML tool-call parser applies them
// to a parameter value the model wrote as text (./xml-call-typing.ts). A re-implementation of
// CPython 3.11's rules, labelled as such:
//   - surrounding whitespace (str.isspace) is stripped; any Unicode decimal digit (category Nd)
//     counts as its ASCII digit ("１２" and "١٢" are 12);
//   - int: [+-]? digits with single "_" between digits, base 10, leading zeros allowed ("007"),
//     at most 4300 digits (sys.int_info.default_max_str_digits: more is a ValueError);
//   - float: [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?, "_" between digits, or
//     inf / infinity / nan in any case.
// A value Python refuses is `undefined`. Linear in the text (anchored regexes without nested
// ambiguity, one pass for the digits).

/** Python str.isspace() code points (what str.strip() removes; listed by Python 3.11). */
const PY_SPACE: ReadonlySet<number> = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
  0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** Python str.strip() (no argument). */
export function pyStrip(s: string): string {
  let a = 0;
  let z = s.length;
  while (a < z && PY_SPACE.has(s.charCodeAt(a))) a++;
  while (z > a && PY_SPACE.has(s.charCodeAt(z - 1))) z--;
  return a === 0 && z === s.length ? s : s.slice(a, z);
}

const ND = /\p{Nd}/u;

/**
 * Every Nd digit as its ASCII digit. Unicode encodes Nd digits in contiguous runs of ten, 0..9
 * (stability policy), so a digit's value is its distance from the start of its block of Nd
 * code points, modulo 10 (the longest block, U+1D7CE..U+1D7FF, is 50: the walk back is bounded).
 */
function asciiDigits(s: string): string {
  let ascii = true;
  for (let i = 0; ascii && i < s.length; i++) ascii = s.charCodeAt(i) < 0x80;
  if (ascii) return s;
  const out: string[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80 || !ND.test(ch)) {
      out.push(ch);
      continue;
    }
    let k = 0;
    while (k < 64 && cp - k - 1 >= 0 && ND.test(String.fromCodePoint(cp - k - 1))) k++;
    out.push(String.fromCharCode(48 + (k % 10)));
  }
  return out.join("");
}

const INT = /^[+-]?[0-9](?:_?[0-9])*$/;
const FLOAT =
  /^[+-]?(?:[0-9](?:_?[0-9])*(?:\.(?:[0-9](?:_?[0-9])*)?)?|\.[0-9](?:_?[0-9])*)(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/;
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;
const MAX_STR_DIGITS = 4300;

/** int(text): the integer's canonical decimal text ("-0012" -> "-12", "-0" -> "0"), or undefined. */
export function pyIntText(text: string): string | undefined {
  const s = asciiDigits(pyStrip(text));
  if (!INT.test(s)) return undefined;
  const negative = s.charCodeAt(0) === 45;
  let digits = s.replace(/[_+-]/g, "");
  if (digits.length > MAX_STR_DIGITS) return undefined;
  let z = 0;
  while (z < digits.length - 1 && digits.charCodeAt(z) === 48) z++;
  digits = digits.slice(z);
  return negative && digits !== "0" ? `-${digits}` : digits;
}

/** float(text): the double Python gets (NaN / ±Infinity included), or undefined. */
export function pyFloat(text: string): number | undefined {
  const s = asciiDigits(pyStrip(text));
  if (SPECIAL.test(s)) {
    const negative = s.charCodeAt(0) === 45;
    if (/nan$/i.test(s)) return Number.NaN;
    return negative ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!FLOAT.test(s)) return undefined;
  // Both languages round decimal text to the nearest double: the same value.
  return Number(s.replace(/_/g, ""));
}
