// Finds every occurrence of a reserved token's string in caller text (leftmost, longest at a
// position, non-overlapping: a match is skipped past, as a literal-matching tokenizer would).
//
// Fast path: one flag per UTF-16 code unit marks the first characters of the strings; only at a
// flagged position are the (few) candidates starting with that unit compared, longest first.
// Reserved strings start with "<", "[" or "s"/"e", so clean text is one charCodeAt + one table
// load per character and no allocation.

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
  const isFirst = new Uint8Array(0x10000);
  const byFirst = new Map<number, Array<readonly [string, number]>>();
  for (const [s, id] of strings) {
    if (s.length === 0) continue;
    const c = s.charCodeAt(0);
    isFirst[c] = 1;
    let list = byFirst.get(c);
    if (list === undefined) {
      list = [];
      byFirst.set(c, list);
    }
    list.push([s, id]);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b[0].length - a[0].length);

  const run = (text: string, all: SpecialMatch[] | undefined): SpecialMatch | undefined => {
    const n = text.length;
    for (let i = 0; i < n; i++) {
      if (isFirst[text.charCodeAt(i)] === 0) continue;
      const list = byFirst.get(text.charCodeAt(i));
      if (list === undefined) continue;
      for (const [s, id] of list) {
        if (text.startsWith(s, i)) {
          const m: SpecialMatch = { token: s, index: i, id };
          if (all === undefined) return m;
          all.push(m);
          i += s.length - 1;
          break;
        }
      }
    }
    return undefined;
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
