// Byte-level BPE on integer symbol IDs. A word arrives as the vocabulary IDs of its bytes; merges
// are applied lowest rank first, leftmost first among equal ranks: exactly the order of HF
// tokenizers' Word::merge_all (a heap ordered by (rank, position)).
//
// The merge table is an open-addressing hash on (left id, right id) in Int32Arrays, so the hot path
// hashes two small integers and compares Smis (no string keys, no boxed doubles).

/** Pairs of ids both below SMALL_ID are in a dense table (the byte symbols of most files). */
const SMALL_ID = 256;
/** Ids below ID_LIMIT pack into a slot (21 bits each); larger ones go to the overflow map. */
const ID_LIMIT = (1 << 21) - 1;
const RANK_BITS = 22;
const RANK_MASK = (1 << RANK_BITS) - 1;
/** A free slot's first word: (ID_LIMIT << 11) | 2047, which no id below ID_LIMIT packs to. */
const EMPTY = -1;

/** A merge table's arrays and counts, as a table file stores them (model-tables.ts). */
export interface StoredMergeTable {
  readonly slots: Int32Array;
  readonly small: Int32Array;
  /** Rank -> merged id; empty when mergedOffset is a number (the ids follow from it). */
  readonly mergedByRank: Int32Array;
  /** Ranks the table was built for (at least 1): the length of its rank -> merged id array. */
  readonly ranks: number;
  /** Filled slots. */
  readonly count: number;
  /** MergeTable.mergedOffset, null for NaN. */
  readonly mergedOffset: number | null;
}

/** Slots for `expected` merges: a power of two (at least 16) filled at most 70%. */
function capacityFor(expected: number): number {
  let cap = 16;
  while (cap * 0.7 < expected) cap *= 2;
  return cap;
}

/**
 * (left id, right id) -> rank, and rank -> merged id. Built once per model, then read-only.
 *
 * Merging cold text (nearly every word a cache miss, so every pair is looked up) is bound by cache
 * misses in this table, so a slot is two adjacent Int32s holding the pair and its rank, 58 bits:
 * word 0 = left << 11 | right >>> 10, word 1 = (right & 1023) << 22 | rank (ids below 2^21 - 1,
 * ranks below 2^22, checked); the merged id is read from `mergedByRank` only for the pair that
 * actually merges. The load factor is at most 0.7. Pairs of two ids below 256 (a word's first
 * pairs: raw byte symbols) are found in a dense 256 x 256 table of ranks with no probe at all. A
 * pair with a larger id (no real vocabulary has 2M entries) is kept exactly in a Map.
 */
export class MergeTable {
  private readonly mask: number;
  /** Per slot (stride 2): packed pair (EMPTY = free), packed low bits of right + rank. */
  private readonly slots: Int32Array;
  /** Per small pair (a * 256 + b): rank, -1 = no merge. */
  readonly small: Int32Array;
  /** Rank -> merged id (mergedAt); empty in a table read from a file with a mergedOffset. */
  mergedByRank: Int32Array;
  /**
   * merged id - rank when it is the same for every merge (GPT-2-style files: the merges' tokens
   * follow the 256 byte symbols in rank order; Qwen3: 256), else NaN. The merger then adds it
   * instead of reading mergedByRank.
   */
  mergedOffset = Number.NaN;
  private offsetSeen = false;
  /** Pairs with an id >= ID_LIMIT: "a b" -> rank (a * 2^32 + b would not be an exact double). */
  private readonly overflow = new Map<string, number>();
  private count = 0;

  constructor(expected: number, stored?: StoredMergeTable) {
    if (stored !== undefined) {
      // Views of a table file's arrays (fromStored checked them): nothing is filled or hashed.
      this.mask = stored.slots.length / 2 - 1;
      this.slots = stored.slots;
      this.small = stored.small;
      this.mergedByRank = stored.mergedByRank;
      this.mergedOffset = stored.mergedOffset ?? Number.NaN;
      this.offsetSeen = true;
      this.count = stored.count;
      return;
    }
    const cap = capacityFor(expected);
    this.mask = cap - 1;
    this.slots = new Int32Array(cap * 2).fill(EMPTY);
    this.small = new Int32Array(SMALL_ID * SMALL_ID).fill(-1);
    this.mergedByRank = new Int32Array(Math.max(expected, 1));
  }

  /**
   * The table `toStored` wrote for `ranks` merges of a vocabulary of `vocabSize` ids, or undefined
   * when its shape is not the one this class builds for that many merges. `verified` (a table
   * file known to be what we wrote): shapes only; otherwise every slot, small pair and merged id
   * is checked too (ranks and ids in range, a free slot so that a lookup ends), so damaged bytes
   * mean a rebuild, never a wrong merge index, a throw or an endless probe.
   */
  static fromStored(
    stored: StoredMergeTable,
    ranks: number,
    vocabSize: number,
    verified: boolean,
  ): MergeTable | undefined {
    const { slots, small, mergedByRank, count, mergedOffset } = stored;
    const cap = capacityFor(ranks);
    if (slots.length !== cap * 2 || small.length !== SMALL_ID * SMALL_ID) return undefined;
    if (stored.ranks !== Math.max(ranks, 1)) return undefined;
    if (mergedByRank.length !== (mergedOffset === null ? stored.ranks : 0)) return undefined;
    if (!Number.isInteger(count) || count < 0 || count > ranks) return undefined;
    if (mergedOffset !== null && !Number.isInteger(mergedOffset)) return undefined;
    if (!verified) {
      let filled = 0;
      for (let slot = 0; slot < cap; slot++) {
        const w0 = slots[2 * slot] as number;
        if (w0 === EMPTY) continue;
        const w1 = slots[2 * slot + 1] as number;
        const right = ((w0 & 2047) << 10) | ((w1 >>> RANK_BITS) & 1023);
        if ((w1 & RANK_MASK) >= ranks || w0 >>> 11 >= vocabSize || right >= vocabSize) return undefined;
        filled++;
      }
      if (filled !== count || filled === cap) return undefined;
      for (let k = 0; k < small.length; k++) {
        const r = small[k] as number;
        if (r < -1 || r >= ranks) return undefined;
      }
      if (mergedOffset !== null) {
        if (mergedOffset < 0 || (ranks > 0 && ranks - 1 + mergedOffset >= vocabSize)) return undefined;
      } else
        for (let r = 0; r < ranks; r++) {
          const id = mergedByRank[r] as number;
          if (id < 0 || id >= vocabSize) return undefined;
        }
    }
    return new MergeTable(ranks, stored);
  }

  /**
   * The arrays a table file stores, or undefined when a pair is in the overflow map. With a
   * uniform mergedOffset the merged ids are not stored (they follow from it).
   */
  toStored(): StoredMergeTable | undefined {
    if (this.overflow.size > 0) return undefined;
    const { slots, small, count } = this;
    const uniform = !Number.isNaN(this.mergedOffset);
    return {
      slots,
      small,
      mergedByRank: uniform ? new Int32Array(0) : this.mergedByRank,
      ranks: this.mergedByRank.length,
      count,
      mergedOffset: uniform ? this.mergedOffset : null,
    };
  }

  /** The merged id of merge `rank` (a rank this table holds). */
  mergedAt(rank: number): number {
    return Number.isNaN(this.mergedOffset) ? (this.mergedByRank[rank] as number) : rank + this.mergedOffset;
  }

  get size(): number {
    return this.count + this.overflow.size;
  }

  /**
   * Insert or overwrite (a later duplicate merge wins, as in HF tokenizers' HashMap collect).
   * Ids are non-negative integers below 2^31, ranks below 2^22 (the loaders check both).
   */
  set(a: number, b: number, rank: number, merged: number): void {
    if (rank < 0 || rank > RANK_MASK) throw new RangeError(`merge rank ${rank} outside [0, 2^22)`);
    if (rank >= this.mergedByRank.length) {
      const grown = new Int32Array(Math.max(rank + 1, this.mergedByRank.length * 2));
      grown.set(this.mergedByRank);
      this.mergedByRank = grown;
    }
    this.mergedByRank[rank] = merged;
    if (!this.offsetSeen) {
      this.offsetSeen = true;
      this.mergedOffset = merged - rank;
    } else if (merged - rank !== this.mergedOffset) this.mergedOffset = Number.NaN;
    if (a < SMALL_ID && b < SMALL_ID) this.small[a * SMALL_ID + b] = rank;
    if (a >= ID_LIMIT || b >= ID_LIMIT) {
      this.overflow.set(`${a} ${b}`, rank);
      return;
    }
    const k0 = (a << 11) | (b >>> 10);
    const k1 = (b & 1023) << RANK_BITS;
    const slots = this.slots;
    let slot = hash(a, b) & this.mask;
    for (;;) {
      const w0 = slots[2 * slot] as number;
      if (w0 === EMPTY) {
        this.count++;
        break;
      }
      if (w0 === k0 && ((slots[2 * slot + 1] as number) & ~RANK_MASK) === k1) break;
      slot = (slot + 1) & this.mask;
    }
    slots[2 * slot] = k0;
    slots[2 * slot + 1] = k1 | rank;
  }

  /** The rank of merging (a, b), or -1 when no merge takes that pair. */
  find(a: number, b: number): number {
    if (a >= ID_LIMIT || b >= ID_LIMIT) return this.overflow.get(`${a} ${b}`) ?? -1;
    const k0 = (a << 11) | (b >>> 10);
    const k1 = (b & 1023) << RANK_BITS;
    const slots = this.slots;
    let slot = hash(a, b) & this.mask;
    for (;;) {
      const w0 = slots[2 * slot] as number;
      if (w0 === k0) {
        const w1 = slots[2 * slot + 1] as number;
        if ((w1 & ~RANK_MASK) === k1) return w1 & RANK_MASK;
      } else if (w0 === EMPTY) return -1;
      slot = (slot + 1) & this.mask;
    }
  }
}

function hash(a: number, b: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  return h ^ (h >>> 15);
}

const NO_MERGE = 0x7fffffff;
/** Words up to this many symbols use the array scan (faster than the heap for short words). */
const SMALL_WORD = 96;

/**
 * Merges one word in place. `syms[0..n)` holds the byte symbol IDs on entry; returns the new
 * length, the resulting token IDs being `syms[0..length)`. Not re-entrant (scratch buffers).
 */
/** Scratch sizes (symbols) kept between words; larger ones are dropped after use. */
const KEEP_SCRATCH = 1 << 16;

export class WordMerger {
  private ranks = new Int32Array(SMALL_WORD);
  private prev = new Int32Array(0);
  private next = new Int32Array(0);
  private heap = new Float64Array(0);

  constructor(readonly table: MergeTable) {}

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

  /**
   * O(n^2) worst case, but at most two table lookups per merge and tight typed-array scans:
   * ranks[i] is the rank of merging syms[i], syms[i + 1] (NO_MERGE: none); the lowest, leftmost
   * first, merges, and only the two pairs that touch the new symbol are looked up again.
   */
  private mergeSmall(syms: Int32Array, n: number): number {
    const table = this.table;
    const ranks = this.ranks;
    const small = table.small;
    for (let i = 0; i + 1 < n; i++) {
      const a = syms[i] as number;
      const b = syms[i + 1] as number;
      // Both ids in [0, 256) (symbols are never negative here): the dense table, no probe.
      const r = (a | b) < SMALL_ID ? (small[a * SMALL_ID + b] as number) : table.find(a, b);
      ranks[i] = r < 0 ? NO_MERGE : r;
    }
    const mergedByRank = table.mergedByRank;
    const offset = table.mergedOffset;
    const uniform = !Number.isNaN(offset);
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
      const merged = uniform ? best + offset : (mergedByRank[best] as number);
      syms[at] = merged;
      // Close the gap at at + 1 with plain loops: words are short (most under 10 symbols),
      // where copyWithin builtin calls per merge cost more than the moves themselves.
      const last = n - 1;
      for (let i = at + 1; i < last; i++) syms[i] = syms[i + 1] as number;
      for (let i = at + 1; i < last - 1; i++) ranks[i] = ranks[i + 1] as number;
      n--;
      if (at + 1 < n) {
        const r = table.find(merged, syms[at + 1] as number);
        ranks[at] = r < 0 ? NO_MERGE : r;
      } else ranks[at] = NO_MERGE;
      if (at > 0) {
        const r = table.find(syms[at - 1] as number, merged);
        ranks[at - 1] = r < 0 ? NO_MERGE : r;
      }
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
    // keep rank * POS + pos an exact double (< 2^53). A smaller POS such as 2^24 would let a word
    // over 16.7M bytes (one run of 5.6M CJK characters) overlap one rank's keys with the next's.
    const POS = 2 ** 31;
    const consider = (pos: number): void => {
      const nx = next[pos] as number;
      if (nx < 0) return;
      const rank = table.find(syms[pos] as number, syms[nx] as number);
      if (rank >= 0) push(rank * POS + pos);
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
      if (table.find(syms[pos] as number, syms[nx] as number) !== rank) continue; // stale entry
      syms[pos] = table.mergedAt(rank);
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
