// Finds every occurrence of a reserved token's string in caller text (leftmost, longest at a
// position, non-overlapping: a match is skipped past, as a literal-matching tokenizer would).
//
// Fast path: only at a position holding the first character of some string are the (few)
// candidates starting with that unit compared, longest first. Reserved strings start with "<"
// or "[", so the scan jumps between occurrences of those with the native indexOf (one
// remembered next position per distinct first character). Clean text allocates nothing.

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
  for (const list of byFirst.values()) list.sort((a, b) => b[0].length - a[0].length);

  /** Tries the candidates starting at `i` (longest first); the match or undefined. */
  const matchAt = (
    text: string,
    i: number,
    list: ReadonlyArray<readonly [string, number]>,
  ): SpecialMatch | undefined => {
    for (const [s, id] of list) if (text.startsWith(s, i)) return { token: s, index: i, id };
    return undefined;
  };

  // Jump between occurrences of the first characters with the native indexOf, remembering the
  // next occurrence of each (every real registry has at most two: "<" and "[").
  const firstChars = [...byFirst.keys()].map((c) => String.fromCharCode(c));
  const firstLists = [...byFirst.values()];
  const nextAt = new Int32Array(firstChars.length);
  const run = (text: string, all: SpecialMatch[] | undefined): SpecialMatch | undefined => {
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
      const m = matchAt(text, at, firstLists[q] as ReadonlyArray<readonly [string, number]>);
      if (m === undefined) from = at + 1;
      else {
        if (all === undefined) return m;
        all.push(m);
        from = at + m.token.length;
      }
    }
  };

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
