// The byte-level encoder's word -> value cache, keyed by a span of the text itself: no key string
// is sliced, hashed or kept per word (a Map<string, number> would do all three per word, a large
// share of the encode time on cold and on mixed text alike).
//
// Open addressing with linear probing on a hash of the UTF-16 units; a hit compares every unit
// with the stored copy, so a result never depends on a hash collision. Values are Smis the
// caller chooses (bytelevel-model.ts: one ID, or a reference into its ID arena), never MISS.
// Bounded: at most `maxWords` entries of at most `maxUnits` units each; the caller clears it
// when full. Bounded probes too: the hash has no secret seed, so caller text could be made of
// words that share a home slot; a lookup looks at most MAX_PROBES slots and a word whose run of
// MAX_PROBES slots is full is not stored (it is merged again when seen again), so no input makes
// one word cost more than MAX_PROBES comparisons.

/** get()'s answer when the span is not cached. */
export const MISS = 0x7fffffff;

/** Slots one lookup or insertion looks at, at most (see the header). */
export const MAX_PROBES = 32;

export class WordCache {
  private readonly mask: number;
  /** Per slot: key length in units, 0 = free. */
  private readonly lens: Uint8Array;
  private readonly hashes: Int32Array;
  /** Per slot: offset of the key's units in `units`. */
  private readonly starts: Int32Array;
  private readonly values: Int32Array;
  private units = new Uint16Array(1 << 12);
  private used = 0;
  private count = 0;

  constructor(
    maxWords: number,
    private readonly maxUnits: number,
  ) {
    if (maxUnits > 255) throw new RangeError("WordCache keys are at most 255 units");
    let cap = 16;
    while (cap * 0.6 < maxWords) cap *= 2;
    this.mask = cap - 1;
    this.lens = new Uint8Array(cap);
    this.hashes = new Int32Array(cap);
    this.starts = new Int32Array(cap);
    this.values = new Int32Array(cap);
  }

  get size(): number {
    return this.count;
  }

  /** A hash of text[start, stop) (FNV-1a over the units, then a final mix). */
  static hash(text: string, start: number, stop: number): number {
    let h = 0x811c9dc5 ^ (stop - start);
    for (let i = start; i < stop; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    return h ^ (h >>> 13);
  }

  /** The value of text[start, stop) (1..maxUnits units, hash `h` = WordCache.hash), or MISS. */
  get(text: string, start: number, stop: number, h: number): number {
    const n = stop - start;
    const lens = this.lens;
    let slot = h & this.mask;
    for (let probe = 0; probe < MAX_PROBES; probe++) {
      const len = lens[slot] as number;
      if (len === 0) return MISS;
      if (len === n && this.hashes[slot] === h && this.same(slot, text, start, n)) {
        return this.values[slot] as number;
      }
      slot = (slot + 1) & this.mask;
    }
    return MISS;
  }

  private same(slot: number, text: string, start: number, n: number): boolean {
    const units = this.units;
    const at = this.starts[slot] as number;
    for (let i = 0; i < n; i++) if (units[at + i] !== text.charCodeAt(start + i)) return false;
    return true;
  }

  /**
   * Stores text[start, stop) -> value (the span not cached: get() answered MISS since the last
   * clear). The caller keeps size below maxWords (clear() when full).
   */
  set(text: string, start: number, stop: number, h: number, value: number): void {
    const n = stop - start;
    if (n < 1 || n > this.maxUnits) return;
    // Never full (the caller clears at maxWords, under 0.6 of the slots); kept safe regardless.
    if (this.count >= this.mask - (this.mask >> 2)) this.clear();
    const lens = this.lens;
    let slot = h & this.mask;
    let probe = 0;
    while ((lens[slot] as number) !== 0) {
      if (++probe === MAX_PROBES) return;
      slot = (slot + 1) & this.mask;
    }
    if (this.used + n > this.units.length) {
      const grown = new Uint16Array(Math.max(this.units.length * 2, this.used + n));
      grown.set(this.units.subarray(0, this.used));
      this.units = grown;
    }
    const at = this.used;
    const units = this.units;
    for (let i = 0; i < n; i++) units[at + i] = text.charCodeAt(start + i);
    this.used = at + n;
    lens[slot] = n;
    this.hashes[slot] = h;
    this.starts[slot] = at;
    this.values[slot] = value;
    this.count++;
  }

  clear(): void {
    this.lens.fill(0);
    this.used = 0;
    this.count = 0;
  }
}
