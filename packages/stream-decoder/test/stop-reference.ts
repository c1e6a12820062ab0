// The stop-string rule (docs/decoder.md), re-stated naively for the property tests: of the
// stop strings found in the whole text, the match that ends first; at equal ends, the longest.

/** The stop string that stops `full`, and where its match ends; undefined when none occurs. */
export function firstStop(
  full: string,
  stopStrings: readonly string[],
): { end: number; s: string } | undefined {
  let best: { end: number; s: string } | undefined;
  for (const p of stopStrings) {
    const at = full.indexOf(p);
    if (at === -1) continue;
    const end = at + p.length;
    if (best === undefined || end < best.end || (end === best.end && p.length > best.s.length))
      best = { end, s: p };
  }
  return best;
}
