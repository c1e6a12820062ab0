// Byte-level BPE on integer symbol IDs. A word arrives as the vocabulary IDs of its bytes; merges
// are applied lowest rank first, leftmost first among equal ranks: exactly the order of HF
// tokenizers' Word::merge_all (a heap ordered by (rank, position)).
//
// The merge table is an open-addressing hash on (left id, right id) in Int32Arrays, so the hot path
// hashes two small integers and compares Smis (no string keys, no boxed doubles).

const EMPTY = -1;

/** (left id, right id) -> (rank, merged id). Built once per model, then read-only. */
export class MergeTable {
  private readonly mask: number;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  /** Per slot: the merge rank. */
  readonly rank: Int32Array;
  /** Per slot: the merged token id. */
  readonly merged: Int32Array;
  private count = 0;

  constructor(expected: number) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.mask = cap - 1;
    this.left = new Int32Array(cap).fill(EMPTY);
    this.right = new Int32Array(cap);
    this.rank = new Int32Array(cap);
    this.merged = new Int32Array(cap);
  }

  get size(): number {
    return this.count;
  }

  /** Insert or overwrite (a later duplicate merge wins, as in HF tokenizers' HashMap collect). */
  set(a: number, b: number, rank: number, merged: number): void {
    let slot = hash(a, b) & this.mask;
    for (;;) {
      const l = this.left[slot] as number;
      if (l === EMPTY) {
        this.count++;
        break;
      }
      if (l === a && this.right[slot] === b) break;
      slot = (slot + 1) & this.mask;
    }
    this.left[slot] = a;
    this.right[slot] = b;
    this.rank[slot] = rank;
    this.merged[slot] = merged;
  }

  /** The slot of (a, b), or -1. */
  find(a: number, b: number): number {
    const left = this.left;
    let slot = hash(a, b) & this.mask;
    for (;;) {
      const l = left[slot] as number;
      if (l === a && this.right[slot] === b) return slot;
      if (l === EMPTY) return -1;
      slot = (slot + 1) & this.mask;
    }
  }
}

function hash(a: number, b: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  return h ^ (h >>> 15);
}

const NO_MERGE = 0x7fffffff;
/** Words up to this many symbols use the array scan (measured faster than the heap below ~100). */
const SMALL_WORD = 96;

/**
 * Merges one word in place. `syms[0..n)` holds the byte symbol IDs on entry; returns the new
 * length, the resulting token IDs being `syms[0..length)`. Not re-entrant (scratch buffers).
 */
/** Scratch sizes (symbols) kept between words; larger ones are dropped after use. */
const KEEP_SCRATCH = 1 << 16;

export class WordMerger {
  private ranks = new Int32Array(SMALL_WORD);
  private mergedIds = new Int32Array(SMALL_WORD);
  private prev = new Int32Array(0);
  private next = new Int32Array(0);
  private heap = new Float64Array(0);

  constructor(private readonly table: MergeTable) {}

  merge(syms: Int32Array, n: number): number {
    if (n < 2) return n;
    if (n <= SMALL_WORD) return this.mergeSmall(syms, n);
    const len = this.mergeLarge(syms, n);
    // A huge word's scratch (~64 bytes per byte of the word) is not kept for the next call.
    if (this.prev.length > KEEP_SCRATCH) {
      this.prev = new Int32Array(0);
      this.next = new Int32Array(0);
      this.heap = new Float64Array(0);
    }
    return len;
  }

  /** O(n^2) worst case, but only two table lookups per merge and tight typed-array scans. */
  private mergeSmall(syms: Int32Array, n: number): number {
    const table = this.table;
    const ranks = this.ranks;
    const mergedIds = this.mergedIds;
    for (let i = 0; i + 1 < n; i++) this.pair(syms, i, ranks, mergedIds, table);
    for (;;) {
      let best = NO_MERGE;
      let at = -1;
      for (let i = 0; i + 1 < n; i++) {
        const r = ranks[i] as number;
        if (r < best) {
          best = r;
          at = i;
        }
      }
      if (at < 0) return n;
      syms[at] = mergedIds[at] as number;
      // Close the gap at at + 1 with plain loops: words are short (most under 10 symbols),
      // where three copyWithin builtin calls per merge cost more than the moves themselves.
      const last = n - 1;
      for (let i = at + 1; i < last; i++) syms[i] = syms[i + 1] as number;
      for (let i = at + 1; i < last - 1; i++) {
        ranks[i] = ranks[i + 1] as number;
        mergedIds[i] = mergedIds[i + 1] as number;
      }
      n--;
      if (at + 1 < n) this.pair(syms, at, ranks, mergedIds, table);
      else ranks[at] = NO_MERGE;
      if (at > 0) this.pair(syms, at - 1, ranks, mergedIds, table);
    }
  }

  private pair(
    syms: Int32Array,
    i: number,
    ranks: Int32Array,
    mergedIds: Int32Array,
    table: MergeTable,
  ): void {
    const slot = table.find(syms[i] as number, syms[i + 1] as number);
    if (slot < 0) {
      ranks[i] = NO_MERGE;
    } else {
      ranks[i] = table.rank[slot] as number;
      mergedIds[i] = table.merged[slot] as number;
    }
  }

  /**
   * O(n log n): symbols in a linked list, candidate pairs in a binary min-heap keyed by
   * rank * 2^31 + position (rank first, then leftmost), stale entries skipped on pop.
   */
  private mergeLarge(syms: Int32Array, n: number): number {
    const table = this.table;
    if (this.prev.length < n) {
      // The heap never holds more than 3n keys (n - 1 first pairs, at most 2 per merge). Room
      // for words twice as long is kept, except for huge words (freed after use anyway).
      const cap = n > KEEP_SCRATCH ? n : n * 2;
      this.prev = new Int32Array(cap);
      this.next = new Int32Array(cap);
      this.heap = new Float64Array(cap * 3);
    }
    const prev = this.prev;
    const next = this.next;
    const heap = this.heap;
    let size = 0;
    const push = (key: number): void => {
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        const pk = heap[parent] as number;
        if (pk <= key) break;
        heap[i] = pk;
        i = parent;
      }
      heap[i] = key;
    };
    const pop = (): number => {
      const top = heap[0] as number;
      const last = heap[--size] as number;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= size) break;
        const r = c + 1;
        if (r < size && (heap[r] as number) < (heap[c] as number)) c = r;
        if ((heap[c] as number) >= last) break;
        heap[i] = heap[c] as number;
        i = c;
      }
      heap[i] = last;
      return top;
    };
    // Positions below 2^31 (a V8 string is < 2^29 units, so < 1.7G bytes) and ranks below 2^22
    // keep rank * POS + pos an exact double (< 2^53). It was 2^24: a word over 16.7M bytes (one
    // run of 5.6M CJK characters) had keys of one rank overlapping the next rank's.
    const POS = 2 ** 31;
    const consider = (pos: number): void => {
      const nx = next[pos] as number;
      if (nx < 0) return;
      const slot = table.find(syms[pos] as number, syms[nx] as number);
      if (slot >= 0) push((table.rank[slot] as number) * POS + pos);
    };
    for (let i = 0; i < n; i++) {
      prev[i] = i - 1;
      next[i] = i + 1 < n ? i + 1 : -1;
    }
    for (let i = 0; i + 1 < n; i++) consider(i);
    while (size > 0) {
      const key = pop();
      const pos = key % POS;
      const rank = (key - pos) / POS;
      const nx = next[pos] as number;
      if (syms[pos] === -1 || nx < 0) continue;
      const slot = table.find(syms[pos] as number, syms[nx] as number);
      if (slot < 0 || table.rank[slot] !== rank) continue; // stale entry
      syms[pos] = table.merged[slot] as number;
      syms[nx] = -1;
      const after = next[nx] as number;
      next[pos] = after;
      if (after >= 0) prev[after] = pos;
      const before = prev[pos] as number;
      if (before >= 0) consider(before);
      consider(pos);
    }
    let out = 0;
    for (let i = 0; i >= 0; i = next[i] as number) syms[out++] = syms[i] as number;
    return out;
  }
}
