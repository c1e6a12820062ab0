// Python's str() / repr() of a JSON value as Python holds it (PyValue: ints and floats apart,
// dict order kept), which is what the Qwen3-Coder template writes with `| string` (a parameter's
// `type`, the extra schema keys such as `enum` / `required` / `anyOf`, non-string tool-call
// arguments) and `| trim` (descriptions). Re-implemented from CPython 3.11's rules:
//   - None / True / False; int as its digits; float as repr (1.0, 1e-05, inf);
//   - str repr: single quotes unless the text has ' and no ", then double quotes; \\ and the quote
//     escaped; \t \n \r; other non-printable code points (str.isprintable: categories Cc Cf Cs Co
//     Cn Zl Zp Zs except the space) as \xNN, \uNNNN or \UNNNNNNNN; the rest as is;
//   - list [a, b], dict {k: v} with ", " and ": ".
// The Unicode tables are Node's (ICU), not Python 3.11's Unicode 14.0: code points assigned later
// (Cn in 14.0) are printable here, escaped by Python.
// Linear in the value; recursion bounded by the request's MAX_JSON_DEPTH.
import { pyFloatRepr } from "./json.ts";
import { type PyValue, type PyWriteStyle, pyWrite } from "./value.ts";

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, "0");
}

/** repr() of a str. */
export function pyReprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const out: string[] = [quote];
  let from = 0;
  let i = 0;
  while (i < s.length) {
    const cp = s.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    let esc: string | undefined;
    if (cp === 92) esc = "\\\\";
    else if (cp === quote.charCodeAt(0)) esc = `\\${quote}`;
    else if (cp === 9) esc = "\\t";
    else if (cp === 10) esc = "\\n";
    else if (cp === 13) esc = "\\r";
    else if (cp < 0x20 || cp === 0x7f) esc = `\\x${hex(cp, 2)}`;
    else if (cp > 0x7f && NOT_PRINTABLE.test(s.slice(i, i + width)))
      esc = cp <= 0xff ? `\\x${hex(cp, 2)}` : cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
    if (esc !== undefined) {
      out.push(s.slice(from, i), esc);
      from = i + width;
    }
    i += width;
  }
  out.push(s.slice(from), quote);
  return out.join("");
}

function floatRepr(f: number): string {
  if (Number.isNaN(f)) return "nan";
  if (!Number.isFinite(f)) return f > 0 ? "inf" : "-inf";
  return pyFloatRepr(f);
}

const REPR_STYLE: PyWriteStyle = {
  none: "None",
  true: "True",
  false: "False",
  str: pyReprString,
  float: floatRepr,
};

/** repr() of a value. */
export function pyRepr(v: PyValue): string {
  return pyWrite(v, REPR_STYLE);
}

/** str() of a value: a str as it is, anything else its repr(). */
export function pyStr(v: PyValue): string {
  return typeof v === "string" ? v : pyRepr(v);
}
