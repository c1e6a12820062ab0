// Byte-level BPE on integer symbol IDs. A word arrives as the vocabulary IDs of its bytes; merges
// are applied lowest rank first, leftmost first among equal ranks: exactly the order of HF
// tokenizers' Word::merge_all (a heap ordered by (rank, position)).
//
// The merge table is an open-addressing hash on (left id, right id) in Int32Arrays, so the hot path
// hashes two small integers and compares Smis (no string keys, no boxed doubles).

const EMPTY = -1;
/** Pairs of ids both below SMALL_ID are in a dense table (the byte symbols of most files). */
const SMALL_ID = 256;

/**
 * (left id, right id) -> (rank, merged id). Built once per model, then read-only.
 *
 * Measured on cold text (nearly every word a cache miss, so every pair is looked up): the
 * lookups were bound by cache misses in the 8 MB of four parallel slot arrays (up to four lines
 * per probe). Now a slot is 4 adjacent Int32s [left, right, rank, merged] (one line per probe),
 * and pairs of two ids below 256 (a word's first pairs: raw byte symbols) are found in a dense
 * 256 x 256 table of (rank, merged) with no probe at all.
 */
export class MergeTable {
  private readonly mask: number;
  /** Per slot (stride 4): left (EMPTY = free), right, rank, merged. */
  readonly slots: Int32Array;
  /** Per small pair (a * 256 + b, stride 2): rank (-1 = no merge), merged. */
  readonly small: Int32Array;
  private count = 0;

  constructor(expected: number) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.mask = cap - 1;
    this.slots = new Int32Array(cap * 4).fill(EMPTY);
    this.small = new Int32Array(SMALL_ID * SMALL_ID * 2).fill(-1);
  }

  get size(): number {
    return this.count;
  }

  /** Insert or overwrite (a later duplicate merge wins, as in HF tokenizers' HashMap collect). */
  set(a: number, b: number, rank: number, merged: number): void {
    const slots = this.slots;
    let slot = hash(a, b) & this.mask;
    for (;;) {
      const l = slots[4 * slot] as number;
      if (l === EMPTY) {
        this.count++;
        break;
      }
      if (l === a && slots[4 * slot + 1] === b) break;
      slot = (slot + 1) & this.mask;
    }
    slots[4 * slot] = a;
    slots[4 * slot + 1] = b;
    slots[4 * slot + 2] = rank;
    slots[4 * slot + 3] = merged;
    if (a < SMALL_ID && b < SMALL_ID && a >= 0 && b >= 0) {
      this.small[2 * (a * SMALL_ID + b)] = rank;
      this.small[2 * (a * SMALL_ID + b) + 1] = merged;
    }
  }

  /** The offset of (a, b)'s slot in `slots` (rank at +2, merged at +3), or -1. */
  find(a: number, b: number): number {
    const slots = this.slots;
    let slot = hash(a, b) & this.mask;
    for (;;) {
      const l = slots[4 * slot] as number;
      if (l === a && slots[4 * slot + 1] === b) return 4 * slot;
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
    const a = syms[i] as number;
    const b = syms[i + 1] as number;
    if ((a | b) < SMALL_ID) {
      // Both ids in [0, 256) (symbols are never negative here): the dense table, no probe.
      const k = 2 * (a * SMALL_ID + b);
      const r = table.small[k] as number;
      if (r < 0) ranks[i] = NO_MERGE;
      else {
        ranks[i] = r;
        mergedIds[i] = table.small[k + 1] as number;
      }
      return;
    }
    const slot = table.find(a, b);
    if (slot < 0) {
      ranks[i] = NO_MERGE;
    } else {
      ranks[i] = table.slots[slot + 2] as number;
      mergedIds[i] = table.slots[slot + 3] as number;
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
      if (slot >= 0) push((table.slots[slot + 2] as number) * POS + pos);
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
      if (slot < 0 || table.slots[slot + 2] !== rank) continue; // stale entry
      syms[pos] = table.slots[slot + 3] as number;
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
