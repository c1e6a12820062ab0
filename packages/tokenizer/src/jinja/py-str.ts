// Python 3 str methods on provenance strings, by Python's rules rather than JavaScript's:
// whitespace is str.isspace() (U+001C-U+001F and U+0085 are whitespace, U+FEFF is not, unlike
// String.prototype.trim), lengths and indices count code points, split(None) splits on runs of
// whitespace, strip(chars) removes any of the given characters. Every result is sliced from the
// input (or built from it and the arguments), so every character keeps its origin. Case maps:
// ./py-case.ts.
import { isPySpace } from "../py/strip.ts";
import { concat, PStr, PStrBuilder } from "./pstr.ts";

/** True when the string has a surrogate (so UTF-16 offsets differ from code point indices). */
function astral(s: string): boolean {
  return /[\ud800-\udfff]/.test(s);
}

/** Code point count (Python len). */
export function pyLen(s: string): number {
  if (!astral(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Python s[i] (code points; negative from the end); undefined when out of range. */
export function pyIndex(s: PStr, i: number): PStr | undefined {
  const n = s.codePoints;
  const k = i < 0 ? i + n : i;
  if (k < 0 || k >= n) return undefined;
  const offs = s.codePointOffsets();
  if (offs === undefined) return s.slice(k, k + 1);
  return s.slice(offs[k] as number, offs[k + 1] as number);
}

/** Python slice indices (start, stop, step) resolved against a length, as slice.indices(). */
export function sliceIndices(
  n: number,
  start: number | null,
  stop: number | null,
  step: number | null,
): [number, number, number] {
  const st = step ?? 1;
  if (st === 0) throw new RangeError("slice step cannot be zero");
  const clamp = (v: number | null, dflt: number, lo: number, hi: number): number => {
    if (v === null) return dflt;
    const x = v < 0 ? v + n : v;
    return Math.min(Math.max(x, lo), hi);
  };
  if (st > 0) return [clamp(start, 0, 0, n), clamp(stop, n, 0, n), st];
  return [clamp(start, n - 1, -1, n - 1), clamp(stop, -1, -1, n - 1), st];
}

/** The code point positions a Python slice selects. */
export function slicePositions(
  n: number,
  start: number | null,
  stop: number | null,
  step: number | null,
): number[] {
  const [a, b, st] = sliceIndices(n, start, stop, step);
  const out: number[] = [];
  if (st > 0) for (let i = a; i < b; i += st) out.push(i);
  else for (let i = a; i > b; i += st) out.push(i);
  return out;
}

/** Python s[start:stop:step] on code points (a step other than 1 is built unit by unit, no piece per character). */
export function pySlice(s: PStr, start: number | null, stop: number | null, step: number | null): PStr {
  const n = s.codePoints;
  const offs = s.codePointOffsets();
  const at = (k: number): number => (offs === undefined ? k : (offs[k] as number));
  if ((step ?? 1) === 1) {
    const [a, b] = sliceIndices(n, start, stop, 1);
    return b <= a ? PStr.EMPTY : s.slice(at(a), at(b));
  }
  const [a, b, st] = sliceIndices(n, start, stop, step);
  // The run holding each unit, found from a table of run starts (binary search per code point:
  // a reversed slice walks the runs backwards).
  const starts: number[] = [];
  let pos = 0;
  for (const r of s.runs) {
    starts.push(pos);
    pos += r.length;
  }
  const runAt = (u: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= u) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const t = s.text;
  const out = new PStrBuilder();
  let pending = "";
  let pendingOrigin = -1;
  for (let k = a; st > 0 ? k < b : k > b; k += st) {
    const u = at(k);
    const o = s.origins[runAt(u)] as number;
    const ch = t.slice(u, at(k + 1));
    if (o !== pendingOrigin) {
      out.add(pending, pendingOrigin);
      pending = "";
      pendingOrigin = o;
    }
    pending += ch;
  }
  out.add(pending, pendingOrigin);
  return out.finish();
}

/** The set of code points of a strip() argument (null: whitespace). */
function stripSet(chars: string | null): (c: number) => boolean {
  if (chars === null) return isPySpace;
  const set = new Set<number>();
  for (const ch of chars) set.add(ch.codePointAt(0) as number);
  return (c) => set.has(c);
}

/** Python strip / lstrip / rstrip. */
export function pyStrip(s: PStr, chars: string | null, left: boolean, right: boolean): PStr {
  const t = s.text;
  const inSet = stripSet(chars);
  let a = 0;
  let b = t.length;
  if (left)
    while (a < b) {
      const c = t.codePointAt(a) as number;
      if (!inSet(c)) break;
      a += c > 0xffff ? 2 : 1;
    }
  if (right)
    while (b > a) {
      const lo = t.charCodeAt(b - 1);
      const isPair =
        lo >= 0xdc00 &&
        lo <= 0xdfff &&
        b - 2 >= a &&
        t.charCodeAt(b - 2) >= 0xd800 &&
        t.charCodeAt(b - 2) <= 0xdbff;
      const c = isPair ? (t.codePointAt(b - 2) as number) : lo;
      if (!inSet(c)) break;
      b -= isPair ? 2 : 1;
    }
  return s.slice(a, b);
}

/**
 * Python str.split(sep, maxsplit) (sep null: runs of whitespace, empty ends dropped). `part` is
 * called before each part is made (the interpreter charges it: a part per character is a value each).
 */
export function pySplit(s: PStr, sep: string | null, maxsplit: number, part: () => void = noop): PStr[] {
  const t = s.text;
  const out: PStr[] = [];
  if (sep === null) {
    let i = 0;
    while (i < t.length) {
      while (i < t.length && isPySpace(t.charCodeAt(i))) i++;
      if (i >= t.length) break;
      part();
      if (maxsplit >= 0 && out.length === maxsplit) {
        // The rest after maxsplit parts keeps its trailing whitespace (CPython's split_whitespace).
        out.push(s.slice(i));
        return out;
      }
      let j = i;
      while (j < t.length && !isPySpace(t.charCodeAt(j))) j++;
      out.push(s.slice(i, j));
      i = j;
    }
    return out;
  }
  if (sep.length === 0) throw new RangeError("empty separator");
  let from = 0;
  for (;;) {
    if (maxsplit >= 0 && out.length === maxsplit) break;
    const k = t.indexOf(sep, from);
    if (k < 0) break;
    part();
    out.push(s.slice(from, k));
    from = k + sep.length;
  }
  part();
  out.push(s.slice(from));
  return out;
}

function noop(): void {}

/** Python str.rsplit(sep, maxsplit) (sep null: runs of whitespace, from the right; the rest keeps its leading whitespace). */
export function pyRsplit(s: PStr, sep: string | null, maxsplit: number, part: () => void = noop): PStr[] {
  if (maxsplit < 0) return pySplit(s, sep, maxsplit, part);
  if (sep === null) {
    const t = s.text;
    const out: PStr[] = [];
    let i = t.length;
    while (i > 0) {
      while (i > 0 && isPySpace(t.charCodeAt(i - 1))) i--;
      if (i === 0) break;
      part();
      if (out.length === maxsplit) {
        out.push(s.slice(0, i));
        break;
      }
      let j = i;
      while (j > 0 && !isPySpace(t.charCodeAt(j - 1))) j--;
      out.push(s.slice(j, i));
      i = j;
    }
    return out.reverse();
  }
  if (sep.length === 0) throw new RangeError("empty separator");
  const t = s.text;
  const out: PStr[] = [];
  let to = t.length;
  while (out.length < maxsplit) {
    const k = to - sep.length < 0 ? -1 : t.lastIndexOf(sep, to - sep.length);
    if (k < 0) break;
    part();
    out.push(s.slice(k + sep.length, to));
    to = k;
  }
  part();
  out.push(s.slice(0, to));
  return out.reverse();
}

/** How many replacements str.replace(old, _, count) makes (old "" : one per code point and one at the end). */
export function replaceCount(s: PStr, old: string, count: number): number {
  const n = old.length === 0 ? s.codePoints + 1 : pyCount(s.text, old);
  return count < 0 ? n : Math.min(n, count);
}

/** Python str.replace(old, new, count): the unreplaced parts keep their origin, `new` keeps its own. */
export function pyReplace(s: PStr, old: string, repl: PStr, count: number): PStr {
  const t = s.text;
  const parts: PStr[] = [];
  let n = 0;
  if (old.length === 0) {
    // Python inserts `new` before every code point and at the end.
    let off = 0;
    while (off < t.length) {
      if (count >= 0 && n >= count) break;
      const c = t.charCodeAt(off);
      const w = c >= 0xd800 && c <= 0xdbff && off + 1 < t.length ? 2 : 1;
      parts.push(repl, s.slice(off, off + w));
      off += w;
      n++;
    }
    if (count < 0 || n < count) parts.push(repl);
    parts.push(s.slice(off));
    return concat(parts);
  }
  let from = 0;
  for (;;) {
    if (count >= 0 && n >= count) break;
    const k = t.indexOf(old, from);
    if (k < 0) break;
    parts.push(s.slice(from, k), repl);
    from = k + old.length;
    n++;
  }
  parts.push(s.slice(from));
  return concat(parts);
}

/**
 * Python's start / end arguments of find / index / count over n code points (ADJUST_INDICES:
 * negative ones count from the end, end clamped to n, start not clamped above it).
 */
function adjustIndices(start: number | null, end: number | null, n: number): [number, number] {
  let a = start ?? 0;
  let b = end ?? n;
  if (b > n) b = n;
  else if (b < 0) b = Math.max(0, b + n);
  if (a < 0) a = Math.max(0, a + n);
  return [a, b];
}

/** The code point index of UTF-16 offset `u` (a code point start) given the code point offsets. */
function cpIndexOf(offs: readonly number[] | undefined, u: number): number {
  if (offs === undefined) return u;
  let lo = 0;
  let hi = offs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((offs[mid] as number) < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Python str.find / rfind (sub, start, end) on code point indices; -1 when absent. */
export function pyFind(
  s: PStr,
  sub: string,
  start: number | null,
  end: number | null,
  reverse: boolean,
): number {
  const [a, b] = adjustIndices(start, end, s.codePoints);
  if (b - a < pyLen(sub)) return -1;
  const offs = s.codePointOffsets();
  const ua = offs === undefined ? a : (offs[a] as number);
  const ub = offs === undefined ? b : (offs[b] as number);
  const t = s.text;
  const k = reverse ? t.lastIndexOf(sub, ub - sub.length) : t.indexOf(sub, ua);
  if (k < ua || k + sub.length > ub) return -1;
  return cpIndexOf(offs, k);
}

/** Python str.count(sub, start, end). */
export function pyCountIn(s: PStr, sub: string, start: number | null, end: number | null): number {
  if (start === null && end === null) return pyCount(s.text, sub);
  const [a, b] = adjustIndices(start, end, s.codePoints);
  if (b - a < pyLen(sub)) return 0;
  const offs = s.codePointOffsets();
  return pyCount(s.text.slice(offs === undefined ? a : offs[a], offs === undefined ? b : offs[b]), sub);
}

/** Python str.partition / rpartition(sep): (head, sep, tail); sep absent: (s, '', '') / ('', '', s). */
export function pyPartition(s: PStr, sep: PStr, reverse: boolean): PStr[] {
  const t = s.text;
  const k = reverse ? t.lastIndexOf(sep.text) : t.indexOf(sep.text);
  if (k < 0) return reverse ? [PStr.EMPTY, PStr.EMPTY, s] : [s, PStr.EMPTY, PStr.EMPTY];
  return [s.slice(0, k), sep, s.slice(k + sep.length)];
}

/** `n` copies of the one-character `fill`, with its origin. */
function fillOf(fill: PStr, n: number): PStr {
  if (n <= 0) return PStr.EMPTY;
  return PStr.of(fill.text.repeat(n), fill.origins[0] as number);
}

/** Python str.center / ljust / rjust(width, fill): the padding made of `fill` (one code point). */
export function pyPad(s: PStr, width: number, fill: PStr, how: "center" | "ljust" | "rjust"): PStr {
  const marg = width - s.codePoints;
  if (marg <= 0) return s;
  // CPython's pad: center puts the odd character left only when both marg and width are odd.
  const left = how === "ljust" ? 0 : how === "rjust" ? marg : Math.floor(marg / 2) + (marg & width & 1);
  return concat([fillOf(fill, left), s, fillOf(fill, marg - left)]);
}

/** Python str.zfill(width): zeros (template text) after a leading sign, up to width code points. */
export function pyZfill(s: PStr, width: number): PStr {
  const fill = width - s.codePoints;
  if (fill <= 0) return s;
  const zeros = PStr.of("0".repeat(fill));
  const c = s.text.charCodeAt(0);
  if (c === 0x2b || c === 0x2d) return concat([s.slice(0, 1), zeros, s.slice(1)]);
  return concat([zeros, s]);
}

/** The length of str.expandtabs(tabsize) (to bound it before it is made). */
export function expandedLength(t: string, tabsize: number): number {
  let n = 0;
  let column = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 9) {
      if (tabsize > 0) {
        const incr = tabsize - (column % tabsize);
        column += incr;
        n += incr;
      }
      continue;
    }
    // A surrogate pair is one column.
    if (
      !(c >= 0xdc00 && c <= 0xdfff && i > 0 && t.charCodeAt(i - 1) >= 0xd800 && t.charCodeAt(i - 1) <= 0xdbff)
    )
      column++;
    n++;
    if (c === 10 || c === 13) column = 0;
  }
  return n;
}

/** Python str.expandtabs(tabsize): each tab becomes the spaces to the next stop, with the tab's origin. */
export function pyExpandtabs(s: PStr, tabsize: number): PStr {
  const out = new PStrBuilder();
  let column = 0;
  let prevHigh = false;
  s.forEachRun((run, origin) => {
    let text = "";
    for (let i = 0; i < run.length; i++) {
      const c = run.charCodeAt(i);
      if (c === 9) {
        prevHigh = false;
        if (tabsize > 0) {
          const incr = tabsize - (column % tabsize);
          column += incr;
          text += " ".repeat(incr);
        }
        continue;
      }
      if (!(prevHigh && c >= 0xdc00 && c <= 0xdfff)) column++;
      prevHigh = c >= 0xd800 && c <= 0xdbff;
      text += run[i];
      if (c === 10 || c === 13) column = 0;
    }
    out.add(text, origin);
  });
  return out.finish();
}

/** Python str.count(sub) (non-overlapping; "" counts len + 1). */
export function pyCount(s: string, sub: string): number {
  if (sub.length === 0) return pyLen(s) + 1;
  let n = 0;
  let from = 0;
  for (;;) {
    const k = s.indexOf(sub, from);
    if (k < 0) return n;
    n++;
    from = k + sub.length;
  }
}

/** Python str.splitlines() (keepends false): \n, \r, \r\n, \v, \f, \x1c-\x1e, \x85, U+2028/9. */
export function pySplitlines(s: PStr, part: () => void = noop): PStr[] {
  const t = s.text;
  const out: PStr[] = [];
  let from = 0;
  let i = 0;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    const br =
      c === 10 ||
      c === 13 ||
      c === 11 ||
      c === 12 ||
      (c >= 0x1c && c <= 0x1e) ||
      c === 0x85 ||
      c === 0x2028 ||
      c === 0x2029;
    if (!br) {
      i++;
      continue;
    }
    part();
    out.push(s.slice(from, i));
    i += c === 13 && t.charCodeAt(i + 1) === 10 ? 2 : 1;
    from = i;
  }
  if (from < t.length) {
    part();
    out.push(s.slice(from));
  }
  return out;
}
