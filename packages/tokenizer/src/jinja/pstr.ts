// A string whose every UTF-16 unit carries its origin: 0 = the template (literals, config values
// such as bos_token), k >= 1 = caller field k of the render's origin table (./origins.ts).
// Stored as run-length spans: the text of each run (adjacent runs have different origins) and
// its origin, so template literals and whole caller fields are one run each and every transform
// is linear in the string. The whole text is joined only when read (`text`).
//
// Why runs keep their own strings instead of offsets into one joined text: a rendering mixing
// ASCII template text with CJK caller text is a two-byte string in V8, and every slice of it is
// two-byte too, which made the encoder (regex pre-tokenizer, BPE cache lookups) ~15% slower on
// the template runs than on the same text as one-byte strings (measured: builder.finish() on a
// 100-message Qwen3 rendering, 396 µs on slices vs 334 µs on the same runs as own strings).

import { allocated, tooLong } from "./limits.ts";

export const TEMPLATE = 0;

/**
 * The origins of every one-run template string (never written: a PStr's arrays are read-only).
 * Not frozen: a frozen array has its own elements kind, and every read of a PStr's origins
 * would then see two kinds.
 */
const TEMPLATE_ONLY: readonly number[] = [TEMPLATE];

export class PStr {
  private joined: string | undefined;

  private constructor(
    /** The runs' texts (none empty; adjacent runs differ in origin); empty for "". */
    readonly runs: readonly string[],
    readonly origins: readonly number[],
    /** Total UTF-16 length. */
    readonly length: number,
  ) {
    if (runs.length === 1) this.joined = runs[0];
    else if (runs.length === 0) this.joined = "";
    allocated.chars += length;
    allocated.values++;
  }

  static readonly EMPTY = new PStr([], [], 0);

  static of(text: string, origin: number = TEMPLATE): PStr {
    if (text.length === 0) return PStr.EMPTY;
    return new PStr([text], origin === TEMPLATE ? TEMPLATE_ONLY : [origin], text.length);
  }

  /** The whole text (joined once, on first read). */
  get text(): string {
    if (this.joined === undefined) {
      this.joined = this.runs.join("");
      allocated.chars += this.length;
    }
    return this.joined;
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
      const t = this.text;
      if (!/[\ud800-\udfff]/.test(t)) this.offsets = null;
      else {
        const offs: number[] = [];
        let i = 0;
        for (const ch of t) {
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
    return offs === undefined ? this.length : offs.length - 1;
  }

  /** Every code point as its own PStr, in one pass over the runs. */
  chars(): PStr[] {
    const out: PStr[] = [];
    for (let r = 0; r < this.runs.length; r++) {
      const t = this.runs[r] as string;
      const o = this.origins[r] as number;
      for (let i = 0; i < t.length; ) {
        const c = t.charCodeAt(i);
        const n = c >= 0xd800 && c <= 0xdbff && i + 1 < t.length ? 2 : 1;
        out.push(new PStr([t.slice(i, i + n)], [o], n));
        i += n;
      }
    }
    return out;
  }

  /** Units [from, to) (UTF-16 offsets, clamped). */
  slice(from: number, to: number = this.length): PStr {
    const a = Math.max(0, Math.min(from, this.length));
    const b = Math.max(a, Math.min(to, this.length));
    if (a === 0 && b === this.length) return this;
    if (a === b) return PStr.EMPTY;
    if (this.runs.length === 1)
      return new PStr([(this.runs[0] as string).slice(a, b)], [this.origins[0] as number], b - a);
    const runs: string[] = [];
    const origins: number[] = [];
    let start = 0;
    for (let i = 0; i < this.runs.length && start < b; i++) {
      const t = this.runs[i] as string;
      const end = start + t.length;
      if (end > a) {
        runs.push(
          start >= a && end <= b ? t : t.slice(Math.max(0, a - start), Math.min(t.length, b - start)),
        );
        origins.push(this.origins[i] as number);
      }
      start = end;
    }
    return new PStr(runs, origins, b - a);
  }

  /** Each run mapped through `f` (upper/lower: one run in, one run out, lengths may change). */
  mapRuns(f: (s: string) => string): PStr {
    const parts: PStr[] = [];
    for (let i = 0; i < this.runs.length; i++)
      parts.push(PStr.of(f(this.runs[i] as string), this.origins[i] as number));
    return concat(parts);
  }

  /** Calls `f(text, origin)` for every run, in order. */
  forEachRun(f: (text: string, origin: number) => void): void {
    for (let i = 0; i < this.runs.length; i++) f(this.runs[i] as string, this.origins[i] as number);
  }

  /** Builds from runs (internal to concat: non-empty, adjacent origins differ). */
  static build(runs: string[], origins: number[], length: number): PStr {
    return length === 0 ? PStr.EMPTY : new PStr(runs, origins, length);
  }
}

/** Joins strings, merging adjacent runs of one origin. Linear in the total number of runs. */
export function concat(parts: readonly PStr[]): PStr {
  if (parts.length === 1) return parts[0] as PStr;
  const runs: string[] = [];
  const origins: number[] = [];
  let total = 0;
  for (const p of parts) {
    if (p.length === 0) continue;
    for (let i = 0; i < p.runs.length; i++) {
      const t = p.runs[i] as string;
      const o = p.origins[i] as number;
      // `+` on strings is a V8 rope (flattened once when read): a merge copies nothing here.
      if (origins.length > 0 && origins[origins.length - 1] === o) runs[runs.length - 1] += t;
      else {
        runs.push(t);
        origins.push(o);
      }
    }
    total += p.length;
  }
  return PStr.build(runs, origins, total);
}

/**
 * Builds a PStr unit by unit or run by run (tojson, repr, escapes, a block's output): runs are
 * appended in place, adjacent ones of one origin merged, no PStr per piece.
 */
export class PStrBuilder {
  private readonly runs: string[] = [];
  private readonly origins: number[] = [];
  private n = 0;

  /**
   * `cap`: the most units the builder may hold; one more is TemplateLimitError("maxOutputChars"),
   * thrown before the text is kept (a repr or tojson of a large shared structure stops here).
   */
  constructor(private readonly cap = Number.POSITIVE_INFINITY) {}

  /** Appends `text` with one origin. */
  add(text: string, origin: number = TEMPLATE): void {
    if (text.length === 0) return;
    if (this.n + text.length > this.cap) throw tooLong(this.cap);
    const last = this.origins.length - 1;
    if (last >= 0 && this.origins[last] === origin) this.runs[last] += text;
    else {
      this.runs.push(text);
      this.origins.push(origin);
    }
    this.n += text.length;
  }

  push(s: PStr): void {
    for (let i = 0; i < s.runs.length; i++) this.add(s.runs[i] as string, s.origins[i] as number);
  }

  get length(): number {
    return this.n;
  }

  finish(): PStr {
    return PStr.build(this.runs, this.origins, this.n);
  }
}
