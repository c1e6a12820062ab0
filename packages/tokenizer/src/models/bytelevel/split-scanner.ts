// A hand-written matcher for the two split patterns most byte-level files use (Qwen2/Qwen3's and
// Llama 3's; they differ only in \p{N} vs \p{N}{1,3}), replacing one sticky RegExp test per
// pre-token (the largest cost of encoding) with a loop over a per-code-point class table.
//
// Exactness: it computes the end of the match the translated RegExp (regex-translate.ts) finds at
// a position, or DEFER, and the encoder then asks that RegExp. It is used only when the file's
// translated pattern is character for character the translation of one of the two patterns
// below. The character classes are never typed here: L, N and W are the translations of \p{L},
// \p{N} and \s by translateOnigPattern (the very classes inside the translated pattern), decided
// by V8 per code point on first sight and remembered. The pattern's literals (' ', '\r', '\n',
// the apostrophe) are compared as code units. For a match starting at a code point of class:
//   L  alternative 1 needs "'"; 2 is [^\r\nLN]? (fails on L, skipped) then L+ (greedy, nothing
//      after it): the maximal L run.
//   N  1 and 2 fail (2 needs an L at the start once the optional part is skipped); 3 is N or
//      N{1,3}: one code point, or the longest N run up to three.
//   P  (neither L, N nor W; not "'", whose contractions are left to the RegExp): 2 takes it as
//      [^\r\nLN] when an L follows (then the L run); else 4 (" ?" skipped) takes the maximal run
//      of [^\sLN] = P, then [\r\n]* (greedy, nothing after it).
//   W  a space or another W except \r, \n followed by an L: 2 (the W, then the L run); a space
//      followed by a P: 4 (the space, the P run, [\r\n]*); else 2, 3 and 4 fail and, with e the
//      end of the maximal W run: 5 (\s*[\r\n]+, \s* backtracking from e) ends after the last
//      \r or \n of the run when it has one; else 6 (\s+(?!\S)) ends at e at the end of the text,
//      else at the start of its last code point when the run has 2 or more; else 7
//      (\s+) ends at e.
// A code point in more than one of L, N, W (none in Unicode, as the categories are disjoint; the
// table would say so) makes the scan DEFER, as does an apostrophe at the start. Compared with the
// RegExp at every position of random strings, and with HF tokenizers, in
// test/bytelevel-split-scanner.test.ts.

import { translateOnigPattern } from "./regex-translate.ts";

/** Qwen2 / Qwen2.5 / Qwen3 tokenizer.json Split pattern (Oniguruma). */
export const QWEN2_PATTERN =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
/** tiktoken cl100k_base's split pattern, as Llama 3's tokenizer.json writes it (Oniguruma). */
export const CL100K_PATTERN =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** The scan leaves this position to the RegExp. */
export const DEFER = -1;

const UNKNOWN = 0;
const L = 1;
const N = 2;
const W = 3;
const P = 4;
/** In more than one of L, N, W. */
const ODD = 5;
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const APOSTROPHE = 0x27;

/** Distinct astral code points whose class is remembered (the rest are decided each time). */
const ASTRAL_KEPT = 1 << 14;

/** Per code point: L, N, W, P or ODD, decided by the translated classes' RegExps on first sight. */
class CodeClasses {
  private readonly bmp = new Uint8Array(0x10000);
  private readonly astral = new Map<number, number>();
  private readonly l = new RegExp(translateOnigPattern("\\p{L}"), "yv");
  private readonly n = new RegExp(translateOnigPattern("\\p{N}"), "yv");
  private readonly w = new RegExp(translateOnigPattern("\\s"), "yv");

  /** The class of a BMP code unit (a lone surrogate is a code point of its own in v-mode). */
  unit(c: number): number {
    const k = this.bmp[c] as number;
    if (k !== UNKNOWN) return k;
    const d = this.decide(String.fromCharCode(c));
    this.bmp[c] = d;
    return d;
  }

  astralClass(cp: number): number {
    const k = this.astral.get(cp);
    if (k !== undefined) return k;
    const d = this.decide(String.fromCodePoint(cp));
    // Bounded memory: past ASTRAL_KEPT distinct astral code points, decide each again.
    if (this.astral.size < ASTRAL_KEPT) this.astral.set(cp, d);
    return d;
  }

  private decide(ch: string): number {
    const inL = test(this.l, ch);
    const inN = test(this.n, ch);
    const inW = test(this.w, ch);
    if (Number(inL) + Number(inN) + Number(inW) > 1) return ODD;
    return inL ? L : inN ? N : inW ? W : P;
  }
}

function test(re: RegExp, ch: string): boolean {
  re.lastIndex = 0;
  return re.test(ch) && re.lastIndex === ch.length;
}

export class SplitScanner {
  private readonly classes = new CodeClasses();
  /** The length in code units of the code point the last classAt call read. */
  private width = 1;

  private constructor(private readonly digitRun: number) {}

  /** The scanner for a translated split pattern, or undefined when it is not one of the two. */
  static forSource(source: string): SplitScanner | undefined {
    if (source === translateOnigPattern(QWEN2_PATTERN)) return new SplitScanner(1);
    if (source === translateOnigPattern(CL100K_PATTERN)) return new SplitScanner(3);
    return undefined;
  }

  /** The class of the code point at i (< s.length); sets this.width. */
  private classAt(s: string, i: number): number {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        this.width = 2;
        return this.classes.astralClass(0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00));
      }
    }
    this.width = 1;
    return this.classes.unit(c);
  }

  /** End of the maximal run of `cls` from i, or DEFER when an ODD code point ends it. */
  private run(s: string, i: number, cls: number): number {
    const end = s.length;
    while (i < end) {
      const k = this.classAt(s, i);
      if (k !== cls) return k === ODD ? DEFER : i;
      i += this.width;
    }
    return i;
  }

  /** Alternative 4 after its optional space: the P run from i, then [\r\n]*. */
  private punctuation(s: string, i: number): number {
    let q = this.run(s, i, P);
    if (q < 0) return DEFER;
    while (q < s.length) {
      const c = s.charCodeAt(q);
      if (c !== CR && c !== LF) break;
      q++;
    }
    return q;
  }

  /** The end of the split match at `pos` (< s.length), or DEFER. */
  end(s: string, pos: number): number {
    const c = s.charCodeAt(pos);
    if (c === APOSTROPHE) return DEFER;
    const cls = this.classAt(s, pos);
    const next = pos + this.width;
    switch (cls) {
      case L:
        return this.run(s, next, L);
      case N: {
        let i = next;
        for (let k = 1; k < this.digitRun && i < s.length; k++) {
          const d = this.classAt(s, i);
          if (d === ODD) return DEFER;
          if (d !== N) break;
          i += this.width;
        }
        return i;
      }
      case P: {
        if (next < s.length) {
          const d = this.classAt(s, next);
          if (d === L) return this.run(s, next + this.width, L);
          if (d === ODD) return DEFER;
        }
        return this.punctuation(s, pos);
      }
      case W:
        return this.space(s, pos, c);
      default:
        return DEFER;
    }
  }

  /** A match starting at a W code unit c. */
  private space(s: string, pos: number, c: number): number {
    const end = s.length;
    const next = pos + 1;
    if (next < end && c !== CR && c !== LF) {
      const d = this.classAt(s, next);
      if (d === ODD) return DEFER;
      if (d === L) return this.run(s, next + this.width, L);
      if (d === P && c === SPACE) return this.punctuation(s, next);
    }
    let e = pos;
    let before = pos;
    let count = 0;
    let lastBreak = -1;
    while (e < end) {
      const k = this.classAt(s, e);
      if (k !== W) {
        if (k === ODD) return DEFER;
        break;
      }
      const u = s.charCodeAt(e);
      if (u === CR || u === LF) lastBreak = e;
      before = e;
      e += this.width;
      count++;
    }
    if (lastBreak >= 0) return lastBreak + 1;
    if (e === end) return e;
    return count >= 2 ? before : e;
  }
}
