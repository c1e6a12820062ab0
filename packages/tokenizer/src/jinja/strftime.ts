// Python's datetime.strftime for the directives chat templates use (C locale, local time as
// Python's datetime.now() is): %d %m %Y %y %H %M %S %b %B %a %A %j %p %I %e %%. Any other
// directive is written as is (glibc does the same for unknown ones).
import { PStr, PStrBuilder, TEMPLATE } from "./pstr.ts";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

/** strftime of a plain (template-origin) format: the native renderers' date lines. */
export function strftime(d: Date, format: string): string {
  return strftimeP(d, PStr.of(format), Number.MAX_SAFE_INTEGER).text;
}

/**
 * strftime over a provenance string: literal characters keep their origin, and a directive's
 * expansion takes the caller's origin when either of its two characters is the caller's (a
 * caller-given format stays caller text, `strftime_now(caller_value)`).
 */
export function strftimeP(d: Date, format: PStr, cap: number): PStr {
  const out = new PStrBuilder(cap);
  const t = format.text;
  // The origin of unit i, read with a cursor over the runs (i only grows).
  let r = 0;
  let runEnd = format.runs.length > 0 ? (format.runs[0] as string).length : 0;
  const originAt = (i: number): number => {
    while (i >= runEnd && r + 1 < format.runs.length) runEnd += (format.runs[++r] as string).length;
    return format.origins[r] as number;
  };
  let from = 0;
  for (let i = 0; i < t.length; i++) {
    if (t.charCodeAt(i) !== 37 || i + 1 >= t.length) continue;
    const cp = t.codePointAt(i + 1) as number;
    const c = String.fromCodePoint(cp);
    const exp = directive(d, c);
    if (exp === undefined) continue;
    for (let k = from; k < i; ) {
      const o = originAt(k);
      let e = k + 1;
      while (e < i && originAt(e) === o) e++;
      out.add(t.slice(k, e), o);
      k = e;
    }
    const a = originAt(i);
    const b = originAt(i + 1);
    out.add(exp, a !== TEMPLATE ? a : b);
    from = i + 1 + c.length;
    i = from - 1;
  }
  out.push(format.slice(from));
  return out.finish();
}

/** The expansion of directive `c`, or undefined (then written as is). */
function directive(d: Date, c: string): string | undefined {
  switch (c) {
    case "d":
      return pad(d.getDate());
    case "e":
      return String(d.getDate()).padStart(2, " ");
    case "m":
      return pad(d.getMonth() + 1);
    case "Y":
      return String(d.getFullYear());
    case "y":
      return pad(d.getFullYear() % 100);
    case "H":
      return pad(d.getHours());
    case "I":
      return pad(((d.getHours() + 11) % 12) + 1);
    case "p":
      return d.getHours() < 12 ? "AM" : "PM";
    case "M":
      return pad(d.getMinutes());
    case "S":
      return pad(d.getSeconds());
    case "b":
      return (MONTHS[d.getMonth()] as string).slice(0, 3);
    case "B":
      return MONTHS[d.getMonth()] as string;
    case "a":
      return (DAYS[d.getDay()] as string).slice(0, 3);
    case "A":
      return DAYS[d.getDay()] as string;
    case "j": {
      const start = new Date(d.getFullYear(), 0, 1);
      return pad(Math.floor((d.getTime() - start.getTime()) / 86_400_000) + 1, 3);
    }
    case "%":
      return "%";
    default:
      return undefined;
  }
}
