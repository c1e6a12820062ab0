// A second matcher for the pre-tokenizer's split regex, for the one case V8 cannot do: a single
// match so long that irregexp's backtrack stack overflows (it pushes entries per loop iteration;
// Qwen3's pattern on Node 20 throws RangeError from ~2.4M CJK or ~4.2M ASCII characters in ONE
// run of one class, e.g. 5M "中" is one pre-token). The encoder uses it only after V8 throws, for
// that one match, and goes on with V8 at the next position.
//
// Exactness: this is ECMAScript's backtracking semantics (ECMA-262 §22.2.2) for the subset of
// patterns the byte-level files use (alternation, groups without repetition, single-character
// atoms with greedy quantifiers, lookahead): alternatives left to right, a greedy quantifier tries
// its largest count first and then one fewer at a time, an optional group is tried before it is
// skipped, a lookahead succeeds or fails without consuming (and is not backtracked into). The
// patterns have no backreferences, so the first successful path ends where V8's would: this
// computes V8's own match, only with the backtracking of a loop kept as (start, count) instead
// of a stack entry per iteration. Every atom is decided by V8 itself (a sticky RegExp of the
// atom's source with the same flags), so class semantics (Unicode version, v-mode set
// operations, surrogates) cannot drift. test/bytelevel-long-runs.test.ts compares it with the
// RegExp at every position of random strings and, past V8's limit, with HF tokenizers.
// A pattern outside the subset yields no fallback: the encoder then reports a typed error.

type Node =
  | { readonly kind: "atom"; readonly atom: Atom; readonly min: number; readonly max: number }
  | { readonly kind: "group"; readonly alts: readonly Seq[]; readonly optional: boolean }
  | { readonly kind: "look"; readonly alts: readonly Seq[]; readonly negate: boolean };
type Seq = readonly Node[];

/** One single-character atom (a class, an escape or a literal), decided by V8. */
class Atom {
  private readonly re: RegExp;
  /** Per BMP code unit outside the surrogates: 0 unknown, 1 no, 2 yes (filled on use). */
  private readonly bmp = new Uint8Array(0x10000);

  constructor(source: string) {
    this.re = new RegExp(source, "yv");
  }

  /** The position after the code point at `p` when the atom matches it, else -1. */
  step(s: string, p: number): number {
    if (p >= s.length) return -1;
    const c = s.charCodeAt(p);
    if (c < 0xd800 || c > 0xdfff) {
      let known = this.bmp[c] as number;
      if (known === 0) {
        this.re.lastIndex = 0;
        known = this.re.test(String.fromCharCode(c)) ? 2 : 1;
        this.bmp[c] = known;
      }
      return known === 2 ? p + 1 : -1;
    }
    this.re.lastIndex = p;
    return this.re.test(s) ? this.re.lastIndex : -1;
  }
}

export class UnsupportedPattern extends Error {}

/** Finds the end of a class/escape/literal atom starting at `i` in a v-mode source. */
function atomEnd(src: string, i: number): number {
  const c = src[i];
  if (c === "[") {
    let depth = 0;
    for (let j = i; j < src.length; j++) {
      const d = src[j];
      if (d === "\\") j++;
      else if (d === "[") depth++;
      else if (d === "]" && --depth === 0) return j + 1;
    }
    throw new UnsupportedPattern("unterminated class");
  }
  if (c === "\\") {
    const e = src[i + 1] ?? "";
    if (e === "p" || e === "P" || (e === "u" && src[i + 2] === "{")) {
      const close = src.indexOf("}", i);
      if (close < 0) throw new UnsupportedPattern("unterminated escape");
      return close + 1;
    }
    if (e === "u") return i + 6;
    if (e === "x") return i + 4;
    if (/^[tnvfr0sSdDwW\\^$.|?*+()[\]{}/-]$/.test(e)) return i + 2;
    throw new UnsupportedPattern(`escape \\${e}`);
  }
  if (c === undefined || /[()|[\]{}*+?^$]/.test(c)) throw new UnsupportedPattern(`"${c}" as an atom`);
  const code = src.codePointAt(i) as number;
  return i + (code > 0xffff ? 2 : 1);
}

class Parser {
  i = 0;
  constructor(private readonly src: string) {}

  alternation(): Seq[] {
    const alts: Seq[] = [this.sequence()];
    while (this.src[this.i] === "|") {
      this.i++;
      alts.push(this.sequence());
    }
    return alts;
  }

  private sequence(): Seq {
    const seq: Node[] = [];
    const src = this.src;
    while (this.i < src.length && src[this.i] !== "|" && src[this.i] !== ")") {
      if (src[this.i] === "(") {
        let kind: "group" | "look" = "group";
        let negate = false;
        if (src.startsWith("(?:", this.i)) this.i += 3;
        else if (src.startsWith("(?=", this.i) || src.startsWith("(?!", this.i)) {
          kind = "look";
          negate = src[this.i + 2] === "!";
          this.i += 3;
        } else if (src[this.i + 1] === "?") throw new UnsupportedPattern("group kind");
        else this.i += 1; // a capturing group: no backreferences, so it matches as (?:...)
        const alts = this.alternation();
        if (src[this.i] !== ")") throw new UnsupportedPattern("unterminated group");
        this.i++;
        const [min, max] = this.quantifier();
        if (kind === "look") {
          if (min !== 1 || max !== 1) throw new UnsupportedPattern("quantified lookahead");
          seq.push({ kind, alts, negate });
        } else if (max === 1) seq.push({ kind, alts, optional: min === 0 });
        else throw new UnsupportedPattern("repeated group");
        continue;
      }
      const end = atomEnd(src, this.i);
      const atom = new Atom(src.slice(this.i, end));
      this.i = end;
      const [min, max] = this.quantifier();
      seq.push({ kind: "atom", atom, min, max });
    }
    return seq;
  }

  /** [min, max] of the quantifier at the cursor ([1, 1] when none); lazy ones are unsupported. */
  private quantifier(): [number, number] {
    const src = this.src;
    const c = src[this.i];
    let q: [number, number] = [1, 1];
    if (c === "?") q = [0, 1];
    else if (c === "*") q = [0, Number.POSITIVE_INFINITY];
    else if (c === "+") q = [1, Number.POSITIVE_INFINITY];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(this.i, this.i + 24));
      if (m === null) throw new UnsupportedPattern("bad {n,m}");
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
      this.i += m[0].length;
      if (src[this.i] === "?") throw new UnsupportedPattern("lazy quantifier");
      return [min, max];
    } else return q;
    this.i++;
    if (src[this.i] === "?" || src[this.i] === "+") throw new UnsupportedPattern("lazy quantifier");
    return q;
  }
}

/** The code point boundary before `p`, not below `start` (the loop's own segmentation, stepped back). */
function back(s: string, start: number, p: number): number {
  if (p - 2 >= start) {
    const lo = s.charCodeAt(p - 1);
    const hi = s.charCodeAt(p - 2);
    if (lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff) return p - 2;
  }
  return p - 1;
}

type Cont = (p: number) => number;
const DONE: Cont = (p) => p;

function matchSeq(s: string, seq: Seq, i: number, pos: number, k: Cont): number {
  if (i === seq.length) return k(pos);
  const node = seq[i] as Node;
  switch (node.kind) {
    case "atom": {
      // Greedy: as many as allowed, then one fewer at a time (no stack entry per iteration).
      let p = pos;
      let n = 0;
      while (n < node.max) {
        const q = node.atom.step(s, p);
        if (q < 0) break;
        p = q;
        n++;
      }
      if (n < node.min) return -1;
      for (;;) {
        const r = matchSeq(s, seq, i + 1, p, k);
        if (r >= 0 || n === node.min) return r;
        p = back(s, pos, p);
        n--;
      }
    }
    case "group": {
      const rest: Cont = (q) => matchSeq(s, seq, i + 1, q, k);
      for (const alt of node.alts) {
        const r = matchSeq(s, alt, 0, pos, rest);
        if (r >= 0) return r;
      }
      return node.optional ? matchSeq(s, seq, i + 1, pos, k) : -1;
    }
    case "look": {
      const found = node.alts.some((alt) => matchSeq(s, alt, 0, pos, DONE) >= 0);
      return found !== node.negate ? matchSeq(s, seq, i + 1, pos, k) : -1;
    }
  }
}

/** Matches a split pattern at one position: the end of the match, or -1 when none starts there. */
export type MatchAt = (s: string, pos: number) => number;

/** The fallback matcher for a v-mode source, or undefined when the pattern is outside the subset. */
export function compileSplitFallback(source: string): MatchAt | undefined {
  let alts: Seq[];
  try {
    const parser = new Parser(source);
    alts = parser.alternation();
    if (parser.i !== source.length) return undefined;
  } catch (e) {
    if (e instanceof UnsupportedPattern || e instanceof SyntaxError) return undefined;
    throw e;
  }
  return (s, pos) => {
    for (const alt of alts) {
      const r = matchSeq(s, alt, 0, pos, DONE);
      if (r >= 0) return r;
    }
    return -1;
  };
}
