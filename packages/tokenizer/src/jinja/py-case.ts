// Python 3 case mappings on provenance strings: str.upper / lower / capitalize / title /
// swapcase / islower / isupper, and jinja2's `title` filter (do_title), which is not str.title.
// Each mapped character keeps the origin of the character it came from.
//
// JavaScript's toUpperCase / toLowerCase of a whole string are Python's full upper / lower
// mappings (ß -> SS, İ -> i̇, Σ -> ς at a word end), with the Unicode data of the runtime's ICU:
// for characters added after the Python's Unicode version the two may differ (docs/templates.md
// "Known gaps"). What JavaScript lacks is the title-case mapping (TITLE below) and the
// character-by-character rules of title() / capitalize() / swapcase(), written here after
// CPython's unicodeobject.c (do_title, do_capitalize, do_swapcase, handle_capital_sigma).
import { isPySpace } from "../py/strip.ts";
import { type PStr, PStrBuilder } from "./pstr.ts";

/**
 * Python's title-case mapping where it differs from the upper-case one (every other character:
 * title = upper). Checked for every code point against Python by test/template-jinja-exact.test.ts.
 */
const TITLE: ReadonlyMap<number, string> = (() => {
  const m = new Map<number, string>([
    [0xdf, "Ss"],
    [0x587, "\u0535\u0582"],
    [0x1fb2, "\u1fba\u0345"],
    [0x1fb4, "\u0386\u0345"],
    [0x1fb7, "\u0391\u0342\u0345"],
    [0x1fc2, "\u1fca\u0345"],
    [0x1fc4, "\u0389\u0345"],
    [0x1fc7, "\u0397\u0342\u0345"],
    [0x1ff2, "\u1ffa\u0345"],
    [0x1ff4, "\u038f\u0345"],
    [0x1ff7, "\u03a9\u0342\u0345"],
    [0xfb00, "Ff"],
    [0xfb01, "Fi"],
    [0xfb02, "Fl"],
    [0xfb03, "Ffi"],
    [0xfb04, "Ffl"],
    [0xfb05, "St"],
    [0xfb06, "St"],
    [0xfb13, "\u0544\u0576"],
    [0xfb14, "\u0544\u0565"],
    [0xfb15, "\u0544\u056b"],
    [0xfb16, "\u054e\u0576"],
    [0xfb17, "\u0544\u056d"],
  ]);
  // The digraphs DŽ Dž dž, LJ Lj lj, NJ Nj nj, DZ Dz dz: title case is the middle form.
  for (const first of [0x1c4, 0x1c7, 0x1ca, 0x1f1])
    for (let k = 0; k < 3; k++) m.set(first + k, String.fromCodePoint(first + 1));
  // Georgian Mkhedruli: upper case is Mtavruli, title case the letter itself.
  for (let cp = 0x10d0; cp <= 0x10ff; cp++)
    if ((cp <= 0x10fa || cp >= 0x10fd) && String.fromCodePoint(cp).toUpperCase() !== String.fromCodePoint(cp))
      m.set(cp, String.fromCodePoint(cp));
  // Greek with ypogegrammeni / prosgegrammeni: title case keeps the iota as a prosgegrammeni.
  for (const base of [0x1f80, 0x1f90, 0x1fa0])
    for (let k = 0; k < 16; k++) m.set(base + k, String.fromCodePoint(base + 8 + (k & 7)));
  for (const [a, b] of [
    [0x1fb3, 0x1fbc],
    [0x1fc3, 0x1fcc],
    [0x1ff3, 0x1ffc],
  ] as const) {
    m.set(a, String.fromCodePoint(b));
    m.set(b, String.fromCodePoint(b));
  }
  return m;
})();

const CASED = /\p{Cased}/u;
const CASE_IGNORABLE = /\p{Case_Ignorable}/u;
/** A character str.islower() refuses / str.isupper() refuses (Python's Uppercase, Lowercase, Lt). */
const UPPER_OR_TITLE = /[\p{Uppercase}\p{Lt}]/u;
const LOWER_OR_TITLE = /[\p{Lowercase}\p{Lt}]/u;
const LOWERCASE = /\p{Lowercase}/u;
const UPPERCASE = /\p{Uppercase}/u;
const CAPITAL_SIGMA = 0x3a3;

function isCased(cp: number): boolean {
  return cp < 0x80 ? (cp | 0x20) >= 0x61 && (cp | 0x20) <= 0x7a : CASED.test(String.fromCodePoint(cp));
}

function isCaseIgnorable(cp: number): boolean {
  return CASE_IGNORABLE.test(String.fromCodePoint(cp));
}

/** Python's title-case mapping of one code point. */
export function titleOf(cp: number): string {
  return TITLE.get(cp) ?? String.fromCodePoint(cp).toUpperCase();
}

/**
 * Python's lower-case mapping of the code point at `i` of `t`, where Σ is final (ς) by its
 * neighbours within [lo, hi) (CPython's handle_capital_sigma: a cased letter before it, none after
 * it, case-ignorable characters skipped). Each scan crosses only the case-ignorable run next to
 * this Σ, so a string's scans together stay linear.
 */
function lowerAt(t: string, i: number, cp: number, lo: number, hi: number): string {
  if (cp !== CAPITAL_SIGMA) return String.fromCodePoint(cp).toLowerCase();
  let j = i;
  let before = -1;
  while (j > lo) {
    let c = t.charCodeAt(j - 1);
    let w = 1;
    const h = j - 2 >= lo ? t.charCodeAt(j - 2) : 0;
    if (c >= 0xdc00 && c <= 0xdfff && h >= 0xd800 && h <= 0xdbff) {
      c = (h - 0xd800) * 0x400 + (c - 0xdc00) + 0x10000;
      w = 2;
    }
    if (!isCaseIgnorable(c)) {
      before = c;
      break;
    }
    j -= w;
  }
  if (before < 0 || !isCased(before)) return "\u03c3";
  for (let k = i + 1; k < hi; ) {
    const c = t.codePointAt(k) as number;
    if (!isCaseIgnorable(c)) return isCased(c) ? "\u03c3" : "\u03c2";
    k += c > 0xffff ? 2 : 1;
  }
  return "\u03c2";
}

/**
 * Maps each code point of `s` (UTF-16 offset i in s.text, code point cp) through `f`, the result
 * keeping the code point's origin. A surrogate pair split between two runs is two code points.
 */
function mapCodePoints(s: PStr, f: (t: string, i: number, cp: number) => string): PStr {
  const t = s.text;
  const out = new PStrBuilder();
  let pos = 0;
  s.forEachRun((run, origin) => {
    let text = "";
    for (let k = 0; k < run.length; ) {
      const c = run.codePointAt(k) as number;
      text += f(t, pos + k, c);
      k += c > 0xffff ? 2 : 1;
    }
    out.add(text, origin);
    pos += run.length;
  });
  return out.finish();
}

/** Python str.upper() (no context: each run mapped as a whole). */
export function pyUpper(s: PStr): PStr {
  return s.mapRuns((x) => x.toUpperCase());
}

/** Python str.lower(): Σ's final form is decided over the whole string, across runs. */
export function pyLower(s: PStr): PStr {
  if (!s.text.includes("\u03a3")) return s.mapRuns((x) => x.toLowerCase());
  const n = s.length;
  return mapCodePoints(s, (t, i, cp) => lowerAt(t, i, cp, 0, n));
}

/** Python str.capitalize(): the first code point title-cased, the rest lower-cased. */
export function pyCapitalize(s: PStr): PStr {
  const n = s.length;
  return mapCodePoints(s, (t, i, cp) => (i === 0 ? titleOf(cp) : lowerAt(t, i, cp, 0, n)));
}

/** Python str.title(): title case after an uncased character, lower case after a cased one. */
export function pyTitle(s: PStr): PStr {
  const n = s.length;
  let prevCased = false;
  return mapCodePoints(s, (t, i, cp) => {
    const r = prevCased ? lowerAt(t, i, cp, 0, n) : titleOf(cp);
    prevCased = isCased(cp);
    return r;
  });
}

/** Python str.swapcase(): Uppercase characters lower-cased, Lowercase ones upper-cased, others kept. */
export function pySwapcase(s: PStr): PStr {
  const n = s.length;
  return mapCodePoints(s, (t, i, cp) => {
    const ch = String.fromCodePoint(cp);
    if (UPPERCASE.test(ch)) return lowerAt(t, i, cp, 0, n);
    return LOWERCASE.test(ch) ? ch.toUpperCase() : ch;
  });
}

/** jinja2's word separators of do_title: `[-\s({\[<]` (\s is Python's str.isspace()). */
function isTitleSeparator(c: number): boolean {
  return c === 0x2d || c === 0x28 || c === 0x7b || c === 0x5b || c === 0x3c || isPySpace(c);
}

/**
 * jinja2's `title` filter: the text split at runs of `[-\s({\[<]`, each other piece
 * `item[0].upper() + item[1:].lower()` (upper, not title case; Σ's final form decided within
 * item[1:]). So only whitespace, `-` and `([{<` start a word: `don't` -> `Don't`, `x2y` -> `X2y`.
 */
export function jinjaTitle(s: PStr): PStr {
  const t = s.text;
  // Piece bounds: for each UTF-16 offset that starts a word, where that word's rest ends.
  let start = -1;
  let restFrom = 0;
  let restTo = 0;
  return mapCodePoints(s, (_, i, cp) => {
    if (isTitleSeparator(cp)) {
      start = -1;
      return String.fromCharCode(cp);
    }
    if (start < 0) {
      start = i;
      restFrom = i + (cp > 0xffff ? 2 : 1);
      restTo = restFrom;
      while (restTo < t.length && !isTitleSeparator(t.charCodeAt(restTo))) restTo++;
      return String.fromCodePoint(cp).toUpperCase();
    }
    return lowerAt(t, i, cp, restFrom, restTo);
  });
}

/** Python str.islower(): some Lowercase character, and no Uppercase or title-case one. */
export function pyIsLower(t: string): boolean {
  return LOWERCASE.test(t) && !UPPER_OR_TITLE.test(t);
}

/** Python str.isupper(): some Uppercase character, and no Lowercase or title-case one. */
export function pyIsUpper(t: string): boolean {
  return UPPERCASE.test(t) && !LOWER_OR_TITLE.test(t);
}
