// Caller stop strings, found across token boundaries (pitfall B5) with text held back ONLY
// while the held tail is still a prefix of some stop string (llama.cpp's rule, not vLLM's
// fixed max_len-1 window, pitfall B6). An Aho-Corasick automaton over UTF-16 code units:
// the held text is always exactly the string of the current node, so holding costs nothing.
//
// When several stop strings could match, the one that ENDS first wins (the stream stops as
// early as possible); among those ending at the same place, the longest (earliest start).

export interface StopAutomaton {
  readonly patterns: readonly string[];
  /** Bit per UTF-16 code unit: can this unit start a stop string? (2^16 bits.) */
  readonly firstUnit: Uint32Array;
  readonly next: readonly ReadonlyMap<number, number>[];
  readonly fail: Int32Array;
  /** Node string (the text held while in this node). */
  readonly nodeText: readonly string[];
  /** Longest pattern that is a suffix of the node string, or -1. */
  readonly match: Int32Array;
}

export function compileStopAutomaton(patterns: readonly string[]): StopAutomaton {
  const next: Map<number, number>[] = [new Map()];
  const nodeText: string[] = [""];
  const terminal: number[] = [-1];
  const firstUnit = new Uint32Array(2048);
  patterns.forEach((p, pi) => {
    let s = 0;
    for (let i = 0; i < p.length; i++) {
      const c = p.charCodeAt(i);
      if (i === 0) firstUnit[c >>> 5] = (firstUnit[c >>> 5] as number) | (1 << (c & 31));
      const map = next[s] as Map<number, number>;
      let t = map.get(c);
      if (t === undefined) {
        t = next.length;
        next.push(new Map());
        nodeText.push(p.slice(0, i + 1));
        terminal.push(-1);
        map.set(c, t);
      }
      s = t;
    }
    const prev = terminal[s] as number;
    if (prev === -1) terminal[s] = pi;
  });
  const n = next.length;
  const fail = new Int32Array(n);
  const match = new Int32Array(n).fill(-1);
  // Breadth-first: fail links, and the longest pattern ending at each node.
  const queue: number[] = [0];
  for (let qi = 0; qi < queue.length; qi++) {
    const s = queue[qi] as number;
    const own = terminal[s] as number;
    match[s] = own !== -1 ? own : s === 0 ? -1 : (match[fail[s] as number] as number);
    for (const [c, t] of next[s] as Map<number, number>) {
      if (s === 0) fail[t] = 0;
      else {
        let f = fail[s] as number;
        while (f !== 0 && !(next[f] as Map<number, number>).has(c)) f = fail[f] as number;
        const g = (next[f] as Map<number, number>).get(c);
        fail[t] = g !== undefined && g !== t ? g : 0;
      }
      queue.push(t);
    }
  }
  return { patterns, firstUnit, next, fail, nodeText, match };
}

/** Per-stream matcher state. `feed` leaves `state` at the end node or reports a match. */
export class StopMatcher {
  state = 0;
  /** After a match: pattern index and the index in the chunk of its last code unit. */
  matched = -1;
  matchEnd = -1;

  constructor(readonly automaton: StopAutomaton) {}

  reset(): void {
    this.state = 0;
    this.matched = -1;
    this.matchEnd = -1;
  }

  /** Index of the first code unit at or after `from` that could start a stop string, or -1. */
  firstCandidate(chunk: string, from: number): number {
    const bits = this.automaton.firstUnit;
    for (let i = from; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (((bits[c >>> 5] as number) & (1 << (c & 31))) !== 0) return i;
    }
    return -1;
  }

  /** Runs chunk[from..]; true on a match (see matched / matchEnd). */
  feed(chunk: string, from: number): boolean {
    const { next, fail, match } = this.automaton;
    let s = this.state;
    for (let i = from; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      let t = (next[s] as ReadonlyMap<number, number>).get(c);
      while (t === undefined && s !== 0) {
        s = fail[s] as number;
        t = (next[s] as ReadonlyMap<number, number>).get(c);
      }
      s = t ?? 0;
      const m = match[s] as number;
      if (m !== -1) {
        this.state = s;
        this.matched = m;
        this.matchEnd = i;
        return true;
      }
    }
    this.state = s;
    return false;
  }
}
