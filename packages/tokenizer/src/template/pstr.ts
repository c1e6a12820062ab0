// A string whose every UTF-16 unit carries its origin: 0 = the template (literals, config values
// such as bos_token), k >= 1 = caller field k of the render's origin table (./origins.ts).
// Stored as the text plus run-length origins (`ends[i]` = end offset of run i, `origins[i]` its
// origin), so template literals and whole caller fields are one run each and every transform is
// linear in the string.

export const TEMPLATE = 0;

export class PStr {
  private constructor(
    readonly text: string,
    /** Exclusive end offsets of the runs (ascending, last = text.length); empty for "". */
    readonly ends: readonly number[],
    readonly origins: readonly number[],
  ) {}

  static readonly EMPTY = new PStr("", [], []);

  static of(text: string, origin: number = TEMPLATE): PStr {
    return text.length === 0 ? PStr.EMPTY : new PStr(text, [text.length], [origin]);
  }

  get length(): number {
    return this.text.length;
  }

  /** True when no unit comes from the caller. */
  get fromTemplate(): boolean {
    for (const o of this.origins) if (o !== TEMPLATE) return false;
    return true;
  }

  /** True when some unit comes from the caller. */
  get hasCaller(): boolean {
    return !this.fromTemplate;
  }

  /** The first caller origin, or TEMPLATE. */
  get firstCaller(): number {
    for (const o of this.origins) if (o !== TEMPLATE) return o;
    return TEMPLATE;
  }

  /** Code point starts (UTF-16 offsets) plus the end; computed once, only for text with surrogates. */
  private offsets: number[] | null | undefined;

  /** undefined when every code point is one unit (then indices are offsets). */
  codePointOffsets(): readonly number[] | undefined {
    if (this.offsets === undefined) {
      if (!/[\ud800-\udfff]/.test(this.text)) this.offsets = null;
      else {
        const offs: number[] = [];
        let i = 0;
        for (const ch of this.text) {
          offs.push(i);
          i += ch.length;
        }
        offs.push(i);
        this.offsets = offs;
      }
    }
    return this.offsets ?? undefined;
  }

  /** Python len(): code points. */
  get codePoints(): number {
    const offs = this.codePointOffsets();
    return offs === undefined ? this.text.length : offs.length - 1;
  }

  /** Every code point as its own PStr, in one pass over the runs. */
  chars(): PStr[] {
    const out: PStr[] = [];
    const t = this.text;
    let run = 0;
    for (let i = 0; i < t.length; ) {
      const c = t.charCodeAt(i);
      const n = c >= 0xd800 && c <= 0xdbff && i + 1 < t.length ? 2 : 1;
      while ((this.ends[run] as number) <= i) run++;
      out.push(new PStr(t.slice(i, i + n), [n], [this.origins[run] as number]));
      i += n;
    }
    return out;
  }

  /** Units [from, to) (UTF-16 offsets, clamped). */
  slice(from: number, to: number = this.text.length): PStr {
    const a = Math.max(0, Math.min(from, this.text.length));
    const b = Math.max(a, Math.min(to, this.text.length));
    if (a === 0 && b === this.text.length) return this;
    if (a === b) return PStr.EMPTY;
    const ends: number[] = [];
    const origins: number[] = [];
    // Binary search for the first run ending after `a` (many-run strings sliced often stay cheap).
    let lo = 0;
    let hi = this.ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.ends[mid] as number) > a) hi = mid;
      else lo = mid + 1;
    }
    let start = lo === 0 ? 0 : (this.ends[lo - 1] as number);
    for (let i = lo; i < this.ends.length; i++) {
      const end = this.ends[i] as number;
      if (end > a && start < b) {
        ends.push(Math.min(end, b) - a);
        origins.push(this.origins[i] as number);
      }
      if (end >= b) break;
      start = end;
    }
    return new PStr(this.text.slice(a, b), ends, origins);
  }

  /** Each run mapped through `f` (upper/lower: one run in, one run out, lengths may change). */
  mapRuns(f: (s: string) => string): PStr {
    const parts: PStr[] = [];
    let start = 0;
    for (let i = 0; i < this.ends.length; i++) {
      const end = this.ends[i] as number;
      parts.push(PStr.of(f(this.text.slice(start, end)), this.origins[i] as number));
      start = end;
    }
    return concat(parts);
  }

  /** Calls `f(text, origin)` for every run, in order. */
  forEachRun(f: (text: string, origin: number) => void): void {
    let start = 0;
    for (let i = 0; i < this.ends.length; i++) {
      const end = this.ends[i] as number;
      f(this.text.slice(start, end), this.origins[i] as number);
      start = end;
    }
  }

  /** Builds from raw parts (internal to concat). */
  static build(text: string, ends: number[], origins: number[]): PStr {
    return text.length === 0 ? PStr.EMPTY : new PStr(text, ends, origins);
  }
}

/** Joins strings, merging adjacent runs of one origin. Linear in the total number of runs. */
export function concat(parts: readonly PStr[]): PStr {
  if (parts.length === 1) return parts[0] as PStr;
  const texts: string[] = [];
  const ends: number[] = [];
  const origins: number[] = [];
  let total = 0;
  for (const p of parts) {
    if (p.length === 0) continue;
    texts.push(p.text);
    for (let i = 0; i < p.ends.length; i++) {
      const end = total + (p.ends[i] as number);
      const o = p.origins[i] as number;
      if (origins.length > 0 && origins[origins.length - 1] === o) ends[ends.length - 1] = end;
      else {
        ends.push(end);
        origins.push(o);
      }
    }
    total += p.length;
  }
  return PStr.build(texts.join(""), ends, origins);
}

/** Builds a PStr unit by unit or run by run (tojson, repr, escapes). */
export class PStrBuilder {
  private readonly parts: PStr[] = [];
  private n = 0;

  /** Appends `text` with one origin. */
  add(text: string, origin: number = TEMPLATE): void {
    if (text.length === 0) return;
    this.parts.push(PStr.of(text, origin));
    this.n += text.length;
  }

  push(s: PStr): void {
    if (s.length === 0) return;
    this.parts.push(s);
    this.n += s.length;
  }

  get length(): number {
    return this.n;
  }

  finish(): PStr {
    return concat(this.parts);
  }
}
