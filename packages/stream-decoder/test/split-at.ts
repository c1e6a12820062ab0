// Random chunkings from fast-check naturals, shared by the suites that cut text or IDs anywhere.

/** `seq` cut at the given positions, each taken modulo its length + 1 (empty pieces kept). */
export function splitAt<T extends { readonly length: number; slice(from: number, to?: number): T }>(
  seq: T,
  cuts: readonly number[],
): T[] {
  const at = [...new Set(cuts.map((c) => c % (seq.length + 1)))].sort((a, b) => a - b);
  const out: T[] = [];
  let from = 0;
  for (const c of at) {
    out.push(seq.slice(from, c));
    from = c;
  }
  out.push(seq.slice(from));
  return out;
}
