// Text markers as the reference decoder finds them: by plain string comparison, with no
// automaton. The caller says which markers are valid where it is; this finds, in the text held
// so far plus a new piece, the first marker to be completed (of two completed by the same unit,
// the longer), or else how much of the text's end may still become one (that part is held).
// Quadratic in a marker's length per unit, linear in the text: a test and debugging aid.
import type { CompiledTextMarker } from "../text-markers.ts";

export interface FoundMarker {
  readonly marker: CompiledTextMarker;
  /** Where the marker starts in the text searched, and where it ends (exclusive). */
  readonly start: number;
  readonly end: number;
}

/** The first of `markers` completed in `text` by a unit at or after `from` (units before were searched). */
export function firstMarker(
  text: string,
  from: number,
  markers: readonly CompiledTextMarker[],
): FoundMarker | undefined {
  for (let end = from + 1; end <= text.length; end++) {
    let best: CompiledTextMarker | undefined;
    for (const m of markers) {
      const start = end - m.text.length;
      if (start < 0 || text.slice(start, end) !== m.text) continue;
      if (best === undefined || m.text.length > best.text.length) best = m;
    }
    if (best !== undefined) return { marker: best, start: end - best.text.length, end };
  }
  return undefined;
}

/** The length of the longest end of `text` that some marker starts with (the text to hold). */
export function heldLength(text: string, markers: readonly CompiledTextMarker[]): number {
  let longest = 0;
  for (const m of markers)
    for (let k = Math.min(m.text.length - 1, text.length); k > longest; k--)
      if (m.text.startsWith(text.slice(text.length - k))) {
        longest = k;
        break;
      }
  return longest;
}
