// An exact string -> id index over a piece table that can look up a SUBSTRING (or the
// concatenation of two strings) without building it. Used at load time by both tokenizer
// families instead of Map<string, number>:
//
// - A Map of every piece, then a lookup of every prefix/suffix split (SentencePiece pair
//   table) or every merge's `a + b` (tokenizer.json), would allocate a new string per lookup and
//   hash it natively: a Map plus a slice per split lookup dominates a load.
// - Here the key is a polynomial hash of the UTF-16 code units, so the hash of every prefix and
//   every suffix of a piece, and of a + b, comes from integer arithmetic; a hit is confirmed by
//   comparing code units, so results are exact (the hash only picks the slot).
// - Memory: one Int32Array of 2^k >= 2 x count slots of 4 bytes instead of a Map of every
//   piece string.
//
// Equal strings may be inserted more than once; linear probing without deletion finds them in
// insertion order, so a lookup returns the FIRST id (as a Map filled with `if (!has) set` did).

/** Odd multiplier of the polynomial hash (mod 2^32). */
const M = 0x01000193;

/** Polynomial hash of s[start, end): h = h * M + code unit, mod 2^32. */
export function hashRange(s: string, start: number, end: number): number {
  let h = 0;
  for (let i = start; i < end; i++) h = (Math.imul(h, M) + s.charCodeAt(i)) | 0;
  return h;
}

/** M^k mod 2^32: the factor that appends k code units to a hash (hash(a + b) = hash(a) * M^|b| + hash(b)). */
export function hashShift(k: number): number {
  let p = 1;
  for (let i = 0; i < k; i++) p = Math.imul(p, M);
  return p;
}

/** hash(a + b) from hash(a), hash(b) and hashShift(b.length). */
export function hashConcat(ha: number, hb: number, shiftB: number): number {
  return (Math.imul(ha, shiftB) + hb) | 0;
}

/** The multiplier, for callers that extend a hash code unit by code unit. */
export const HASH_MULTIPLIER = M;

/** The first slot probed for hash h. */
export function slotOf(h: number, mask: number): number {
  // murmur3 fmix32: the polynomial hash has weak low bits.
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) & mask;
}

// Native startsWith instead of a charCodeAt loop: most lookups run in cold (not yet optimized)
// code at load time, where a builtin call is much cheaper than an interpreted loop.
function sameRange(piece: string, s: string, start: number, end: number): boolean {
  return piece.length === end - start && s.startsWith(piece, start);
}

function sameUnits(p: string, at: number, text: string, start: number, count: number): boolean {
  for (let k = 0; k < count; k++) if (p.charCodeAt(at + k) !== text.charCodeAt(start + k)) return false;
  return true;
}

/** What a table file keeps of an index (see PieceIndex.fromStored). */
export interface StoredIndex {
  readonly slots: Int32Array;
  readonly duplicates: readonly number[];
}

export class PieceIndex {
  // Public for the load-time loops that inline a lookup (pair-table.ts); read-only by contract.
  readonly mask: number;
  /** Bits of an entry that hold id + 1 (0 = empty slot); the bits above hold the hash's top bits. */
  readonly idBits: number;
  readonly idMask: number;
  /**
   * One Int32 per slot: (top 32 - idBits bits of the hash) << idBits | (id + 1): half the
   * memory of a [hash, id] pair per slot, because the lookups at load are bound by cache misses.
   * A partial hash only lets more candidates through to the exact string comparison (rarely:
   * 1 in 2^14 for unequal hashes), so results do not change.
   */
  readonly slots: Int32Array;
  /**
   * Every (earlier id, later id) pair of equal strings, found while building (flat: [a0, b0,
   * a1, b1, ...]). Empty for every real model; callers use it for duplicate checks.
   */
  readonly duplicates: readonly number[];
  /** Set by fromStored: the piece strings on demand (`pieces` is then empty). */
  private at: ((id: number) => string | undefined) | undefined;

  /**
   * Indexes pieces[id] for every id where the piece is defined. `hashes[id]`, when given, is
   * hashRange(pieces[id]) already computed by the caller (the .model reader gets it from the bytes).
   */
  constructor(
    private readonly pieces: readonly (string | undefined)[],
    hashes?: Int32Array,
    stored?: StoredIndex,
    count = pieces.length,
  ) {
    let size = 16;
    while (size < count * 2) size *= 2;
    const mask = size - 1;
    let idBits = 1;
    while (2 ** idBits <= count) idBits++;
    const idMask = 2 ** idBits - 1;
    if (stored !== undefined) {
      // Slots of an earlier load of the same pieces (checked by PieceIndex.fromStored).
      this.mask = mask;
      this.idBits = idBits;
      this.idMask = idMask;
      this.slots = stored.slots;
      this.duplicates = stored.duplicates;
      return;
    }
    const slots = new Int32Array(size);
    const duplicates: number[] = [];
    for (let id = 0; id < pieces.length; id++) {
      const p = pieces[id];
      if (p === undefined) continue;
      const h = hashes === undefined ? hashRange(p, 0, p.length) : hashes[id]!;
      const tag = (h >>> idBits) << idBits;
      let slot = slotOf(h, mask);
      for (;;) {
        const e = slots[slot]!;
        if (e === 0) break;
        if ((e & ~idMask) === tag && pieces[(e & idMask) - 1] === p) duplicates.push((e & idMask) - 1, id);
        slot = (slot + 1) & mask;
      }
      slots[slot] = tag | (id + 1);
    }
    this.mask = mask;
    this.idBits = idBits;
    this.idMask = idMask;
    this.slots = slots;
    this.duplicates = duplicates;
  }

  /**
   * The index of `pieces` from slots an earlier load built for the same pieces (a table file),
   * or undefined when their size or any entry does not fit these pieces. A slot's hash tag is
   * not re-derived (that is the build's cost): the table file's integrity covers it.
   */
  static fromStored(
    pieces: readonly (string | undefined)[],
    stored: StoredIndex,
    verified = false,
  ): PieceIndex | undefined {
    // Bytes known to be what we wrote (ModelTables.verified): the size and one empty slot (so
    // every probe ends), checked natively; a lookup skips a slot whose id has no piece.
    if (verified ? !PieceIndex.fitsSize(pieces.length, stored) : !PieceIndex.fits(pieces, stored))
      return undefined;
    return new PieceIndex(pieces, undefined, stored);
  }

  private static fitsSize(count: number, stored: StoredIndex): boolean {
    let size = 16;
    while (size < count * 2) size *= 2;
    const { slots, duplicates } = stored;
    return slots.length === size && slots.includes(0) && duplicates.length === 0;
  }

  /**
   * As fromStored for `count` pieces whose strings `at(id)` gives on demand (undefined out of
   * range): a lookup compares only the few candidates its hash picks, so no piece string need exist
   * before one is looked up. The slots are not scanned (a cold loop over every slot): a slot naming
   * an id out of range is skipped by the lookup (at gives undefined); one empty slot (so every
   * probe ends) is checked natively. Only get() and find() are for such an index (findConcat* are
   * not).
   */
  static fromStoredLazy(
    count: number,
    stored: StoredIndex,
    at: (id: number) => string | undefined,
  ): PieceIndex | undefined {
    let size = 16;
    while (size < count * 2) size *= 2;
    const { slots, duplicates } = stored;
    if (slots.length !== size || !slots.includes(0) || duplicates.length % 2 !== 0) return undefined;
    for (const id of duplicates) if (!Number.isInteger(id) || id < 0 || id >= count) return undefined;
    const index = new PieceIndex([], undefined, stored, count);
    index.at = at;
    return index;
  }

  /** Stored slots of the size these pieces get, every id in them and in duplicates a defined piece. */
  private static fits(pieces: readonly (string | undefined)[], stored: StoredIndex): boolean {
    const count = pieces.length;
    let size = 16;
    while (size < count * 2) size *= 2;
    const { slots, duplicates } = stored;
    if (slots.length !== size) return false;
    let idBits = 1;
    while (2 ** idBits <= count) idBits++;
    const idMask = 2 ** idBits - 1;
    let used = 0;
    for (let s = 0; s < size; s++) {
      const e = slots[s]!;
      if (e === 0) continue;
      const id = (e & idMask) - 1;
      if (id < 0 || pieces[id] === undefined) return false;
      used++;
    }
    if (used === size) return false;
    for (const id of duplicates) if (!Number.isInteger(id) || pieces[id] === undefined) return false;
    return duplicates.length % 2 === 0;
  }

  /** The first id whose piece is s, or -1. */
  get(s: string): number {
    return this.find(s, 0, s.length, hashRange(s, 0, s.length));
  }

  /**
   * The first id whose piece equals s[start, end) (h = hashRange(s, start, end)) and, when
   * `accept` is given, with accept[id] === 1; or -1.
   */
  find(s: string, start: number, end: number, h: number, accept?: Uint8Array): number {
    const { slots, mask, idMask, pieces } = this;
    const tag = (h >>> this.idBits) << this.idBits;
    for (let slot = slotOf(h, mask); ; slot = (slot + 1) & mask) {
      const e = slots[slot]!;
      if (e === 0) return -1;
      if ((e & ~idMask) !== tag) continue;
      const id = (e & idMask) - 1;
      if (accept !== undefined && accept[id] !== 1) continue;
      const p = this.at === undefined ? pieces[id] : this.at(id);
      if (p !== undefined && sameRange(p, s, start, end)) return id;
    }
  }

  /**
   * The first id whose piece is text[as, ae) + text[bs, be) (h = hash of that string), or -1.
   * For merges read straight from a tokenizer.json text (no string is built per merge).
   */
  findConcatRange(text: string, as: number, ae: number, bs: number, be: number, h: number): number {
    const { slots, mask, idMask, pieces } = this;
    const tag = (h >>> this.idBits) << this.idBits;
    const la = ae - as;
    const len = la + be - bs;
    for (let slot = slotOf(h, mask); ; slot = (slot + 1) & mask) {
      const e = slots[slot]!;
      if (e === 0) return -1;
      if ((e & ~idMask) !== tag) continue;
      const id = (e & idMask) - 1;
      const p = pieces[id]!;
      if (p.length === len && sameUnits(p, 0, text, as, la) && sameUnits(p, la, text, bs, len - la))
        return id;
    }
  }

  /** The first id whose piece is a + b (h = hash of a + b), or -1. */
  findConcat(a: string, b: string, h: number): number {
    const { slots, mask, idMask, pieces } = this;
    const tag = (h >>> this.idBits) << this.idBits;
    const len = a.length + b.length;
    for (let slot = slotOf(h, mask); ; slot = (slot + 1) & mask) {
      const e = slots[slot]!;
      if (e === 0) return -1;
      if ((e & ~idMask) !== tag) continue;
      const id = (e & idMask) - 1;
      const p = pieces[id]!;
      if (p.length === len && p.startsWith(a) && p.endsWith(b)) return id;
    }
  }
}
