// Which IDs of `b` (the naive pipeline's) line up with IDs of `a` (chatwire's): the longest
// common subsequence from a Myers diff, O((N + M) D) time and O(D^2) memory for D edits,
// after trimming the common prefix and suffix. Past `maxEdits` it gives up (undefined) so a
// huge difference cannot stall the page.

/** matched[j] = 1 when b[j] is part of the common subsequence; undefined past maxEdits. */
export function matchedInB(
  a: readonly number[],
  b: readonly number[],
  maxEdits = 2000,
): Uint8Array | undefined {
  const n = a.length;
  const m = b.length;
  const matched = new Uint8Array(m);
  let pre = 0;
  while (pre < n && pre < m && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < n - pre && suf < m - pre && a[n - 1 - suf] === b[m - 1 - suf]) suf++;
  matched.fill(1, 0, pre);
  matched.fill(1, m - suf, m);
  const A = a.slice(pre, n - suf);
  const B = b.slice(pre, m - suf);
  const N = A.length;
  const M = B.length;
  // v[k] = furthest x on diagonal k (stored at index k + d + 1 of that step's snapshot).
  const trace: Int32Array[] = [];
  let v = new Int32Array(3);
  let found = -1;
  for (let d = 0; d <= Math.min(N + M, maxEdits); d++) {
    trace.push(v);
    const next = new Int32Array(2 * d + 3);
    const at = (arr: Int32Array, dd: number, k: number): number => arr[k + dd + 1] as number;
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && at(v, d - 1, k - 1) < at(v, d - 1, k + 1));
      let x = down ? at(v, d - 1, k + 1) : at(v, d - 1, k - 1) + 1;
      let y = x - k;
      while (x < N && y < M && A[x] === B[y]) {
        x++;
        y++;
      }
      next[k + d + 1] = x;
      if (x >= N && y >= M) {
        found = d;
        break;
      }
    }
    v = next;
    if (found >= 0) break;
  }
  if (found < 0) return undefined;
  let x = N;
  let y = M;
  for (let d = found; d > 0; d--) {
    const prev = trace[d] as Int32Array; // furthest x per diagonal after d - 1 edits
    const at = (k: number): number => prev[k + d] as number;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      matched[pre + y] = 1;
    }
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    matched[pre + y] = 1;
  }
  return matched;
}
