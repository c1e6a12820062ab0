// Finds every occurrence of a reserved token's string in caller text (leftmost, longest at a
// position, non-overlapping: a match is skipped past, as a literal-matching tokenizer would).
//
// Fast path: only at a position holding the first character of some string are the (few)
// candidates compared, and only those whose SECOND character is the one that follows there
// (longest first; one-character strings last). Reserved strings start with "<" or "[", so the
// scan jumps between occurrences of those with the native indexOf (one remembered next position
// per distinct first character; a registry with one first character, Qwen3's "<", runs one
// indexOf loop without that bookkeeping, and one with two, InternLM2's "<" and "[", keeps its
// two positions in locals). Clean text allocates nothing.

export interface SpecialMatch {
  /** The reserved string found. */
  readonly token: string;
  /** UTF-16 offset in the scanned text. */
  readonly index: number;
  /** The reserved ID that string names. */
  readonly id: number;
}

export interface SpecialScanner {
  /** The strings this scanner looks for, with their IDs. */
  readonly strings: ReadonlyMap<string, number>;
  /** Every match, in order. */
  scan(text: string): SpecialMatch[];
  /** The first match, or undefined (stops early). */
  first(text: string): SpecialMatch | undefined;
}

type Candidates = ReadonlyArray<readonly [string, number]>;

/** The strings sharing one first character: by second character (longest first), then the one-character string. */
interface FirstGroup {
  readonly bySecond: ReadonlyMap<number, Candidates>;
  /** The string of length 1 (at most one per first character), or undefined. */
  readonly single: readonly [string, number] | undefined;
}

function group(list: Candidates): FirstGroup {
  const bySecond = new Map<number, Array<readonly [string, number]>>();
  let single: readonly [string, number] | undefined;
  for (const e of list) {
    if (e[0].length === 1) {
      single = e;
      continue;
    }
    const c = e[0].charCodeAt(1);
    let l = bySecond.get(c);
    if (l === undefined) {
      l = [];
      bySecond.set(c, l);
    }
    l.push(e);
  }
  for (const l of bySecond.values()) l.sort((a, b) => b[0].length - a[0].length);
  return { bySecond, single };
}

/** Tries the candidates starting at `i` (longest first); the match or undefined. */
function matchAt(text: string, i: number, g: FirstGroup): SpecialMatch | undefined {
  const list = g.bySecond.get(text.charCodeAt(i + 1));
  if (list !== undefined)
    for (let k = 0; k < list.length; k++) {
      const [s, id] = list[k] as readonly [string, number];
      if (text.startsWith(s, i)) return { token: s, index: i, id };
    }
  const one = g.single;
  return one === undefined ? undefined : { token: one[0], index: i, id: one[1] };
}

export function createSpecialScanner(strings: ReadonlyMap<string, number>): SpecialScanner {
  const byFirst = new Map<number, Array<readonly [string, number]>>();
  for (const [s, id] of strings) {
    if (s.length === 0) continue;
    const c = s.charCodeAt(0);
    let list = byFirst.get(c);
    if (list === undefined) {
      list = [];
      byFirst.set(c, list);
    }
    list.push([s, id]);
  }

  // Jump between occurrences of the first characters with the native indexOf, remembering the
  // next occurrence of each (every real registry has at most two: "<" and "[").
  const firstChars = [...byFirst.keys()].map((c) => String.fromCharCode(c));
  const groups = [...byFirst.values()].map(group);
  const nextAt = new Int32Array(firstChars.length);
  const runMany = (text: string, all: SpecialMatch[] | undefined): SpecialMatch | undefined => {
    const k = firstChars.length;
    // -2: not searched yet; -1: no further occurrence.
    nextAt.fill(-2);
    let from = 0;
    for (;;) {
      let at = -1;
      let q = -1;
      for (let c = 0; c < k; c++) {
        let p = nextAt[c] as number;
        if (p !== -1 && p < from) {
          p = text.indexOf(firstChars[c] as string, from);
          nextAt[c] = p;
        }
        if (p >= 0 && (at < 0 || p < at)) {
          at = p;
          q = c;
        }
      }
      if (at < 0) return undefined;
      const m = matchAt(text, at, groups[q] as FirstGroup);
      if (m === undefined) from = at + 1;
      else {
        if (all === undefined) return m;
        all.push(m);
        from = at + m.token.length;
      }
    }
  };
  // One first character: the same scan without the per-character bookkeeping.
  const onlyChar = firstChars.length === 1 ? (firstChars[0] as string) : undefined;
  const onlyGroup = groups[0];
  const runOne = (text: string, all: SpecialMatch[] | undefined): SpecialMatch | undefined => {
    const ch = onlyChar as string;
    const g = onlyGroup as FirstGroup;
    let at = text.indexOf(ch);
    while (at >= 0) {
      const m = matchAt(text, at, g);
      if (m === undefined) at = text.indexOf(ch, at + 1);
      else {
        if (all === undefined) return m;
        all.push(m);
        at = text.indexOf(ch, at + m.token.length);
      }
    }
    return undefined;
  };
  // Two first characters (InternLM2's "<" and "["): two remembered positions in locals, each
  // searched again only once the scan has passed it; no shared array to reset per call.
  const ch0 = firstChars[0] as string;
  const ch1 = firstChars[1] as string;
  const g0 = groups[0] as FirstGroup;
  const g1 = groups[1] as FirstGroup;
  const runTwo = (text: string, all: SpecialMatch[] | undefined): SpecialMatch | undefined => {
    let a = text.indexOf(ch0);
    let b = text.indexOf(ch1);
    for (;;) {
      let at: number;
      let m: SpecialMatch | undefined;
      if (a >= 0 && (b < 0 || a < b)) {
        at = a;
        m = matchAt(text, a, g0);
      } else if (b >= 0) {
        at = b;
        m = matchAt(text, b, g1);
      } else return undefined;
      let from = at + 1;
      if (m !== undefined) {
        if (all === undefined) return m;
        all.push(m);
        from = at + m.token.length;
      }
      if (a >= 0 && a < from) a = text.indexOf(ch0, from);
      if (b >= 0 && b < from) b = text.indexOf(ch1, from);
    }
  };
  const k = firstChars.length;
  const run = k === 0 ? () => undefined : k === 1 ? runOne : k === 2 ? runTwo : runMany;

  return {
    strings,
    scan(text) {
      const out: SpecialMatch[] = [];
      run(text, out);
      return out;
    },
    first(text) {
      return run(text, undefined);
    },
  };
}
