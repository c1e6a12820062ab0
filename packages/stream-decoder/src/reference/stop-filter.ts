// Stop strings for the reference decoder, by plain string search (no automaton): the text of
// a span is held back only while its tail is a prefix of some stop string; the stop string
// that ENDS first wins, and among those ending at the same place the longest. Each call
// looks at the held tail plus the new text, with work bounded by the set's size per unit of
// text (the held tail is shorter than the longest stop string), so a stream stays linear.

export interface StopHit {
  /** Text before the stop string (held text included). */
  readonly before: string;
  readonly pattern: string;
}

export class StopFilter {
  private held = "";
  private readonly longest: number;

  constructor(private readonly patterns: readonly string[]) {
    this.longest = patterns.reduce((n, p) => Math.max(n, p.length), 0);
  }

  /**
   * Adds text: a stop string found (everything after it is dropped), or the text that may go
   * out now (possibly ""), the rest held.
   */
  push(t: string): StopHit | string {
    const s = this.held + t;
    // Any match ends inside t: the held tail alone matched nothing.
    for (let end = this.held.length + 1; end <= s.length; end++) {
      let best: string | null = null;
      for (const p of this.patterns) {
        if (p.length <= end && s.startsWith(p, end - p.length) && (best === null || p.length > best.length))
          best = p;
      }
      if (best !== null) {
        this.held = "";
        return { before: s.slice(0, end - best.length), pattern: best };
      }
    }
    const keep = this.heldTail(s);
    this.held = s.slice(s.length - keep);
    return s.slice(0, s.length - keep);
  }

  /** The held text, released (a marker ends the span). */
  release(): string {
    const h = this.held;
    this.held = "";
    return h;
  }

  reset(): void {
    this.held = "";
  }

  /** Length of the longest tail of `s` that is a proper prefix of a stop string. */
  private heldTail(s: string): number {
    for (let k = Math.min(s.length, this.longest - 1); k > 0; k--) {
      const tail = s.slice(s.length - k);
      if (this.patterns.some((p) => p.length > k && p.startsWith(tail))) return k;
    }
    return 0;
  }
}
