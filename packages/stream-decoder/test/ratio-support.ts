// Complexity checks without timed unit tests (common rules): a hostile input and a benign
// input of the same size run in the same process, and only their RATIO is asserted, with a
// generous bound. Each side is warmed up, then the fastest of several runs counts (the least
// disturbed by the shared machine).

function fastestNs(fn: () => void, runs: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    fn();
    const dt = Number(process.hrtime.bigint() - t0);
    if (dt < best) best = dt;
  }
  return best;
}

/** hostile time / benign time (fastest of `runs` each, after one warm-up run of each). */
export function timeRatio(hostile: () => void, benign: () => void, runs = 5): number {
  hostile();
  benign();
  const b = fastestNs(benign, runs);
  const h = fastestNs(hostile, runs);
  return h / Math.max(b, 1);
}
