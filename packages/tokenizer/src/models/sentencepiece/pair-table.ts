// The SentencePiece encoder's pair table: (left symbol key, right symbol key) -> merged piece id,
// from every split of every mergeable piece into two symbols (a symbol's key is its mergeable
// piece id, else pieceCount + code point for one character). An open-addressing hash on Int32
// arrays, built once per model, read by BpeEncoder.maybeAdd.
//
// Load time: no substring is built: a half is looked up by its polynomial hash (computed
// incrementally for all prefixes and all suffixes) in the model's PieceIndex and confirmed with
// native startsWith/endsWith. The split loop is its own small function with no calls and no
// rarely taken call sites: it runs cold, during a load.

import { HASH_MULTIPLIER, type PieceIndex, slotOf } from "./piece-index.ts";

export interface PairTable {
  readonly mask: number;
  /**
   * Left key per slot (-1 = empty), right key, merged id: three arrays, not interleaved: most
   * maybeAdd probes are misses that read only `left`, which stays small and cache-resident; the
   * table is kept at most half full for the same reason.
   */
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly merged: Int32Array;
}

export function pairHash(l: number, r: number): number {
  let h = Math.imul(l, 0x9e3779b1) ^ Math.imul(r ^ 0x5bd1e995, 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}

/**
 * mergeable[id] = 1 for the pieces that take part in merges; bmpKey[cu] = the key of the
 * one-character symbol cu (BMP), so one-character halves need no lookup.
 */
export function buildPairTable(
  pieces: readonly string[],
  mergeable: Uint8Array,
  index: PieceIndex,
  bmpKey: Int32Array,
): PairTable {
  const { count, lefts, rights, merged } = collectPairs(pieces, mergeable, index, bmpKey);
  return fill(lefts, rights, merged, count);
}

/** Growable pair lists (no pre-pass over the pieces to size them: each pass costs while cold). */
class Pairs {
  count = 0;
  lefts: Int32Array;
  rights: Int32Array;
  merged: Int32Array;
  constructor(capacity: number) {
    this.lefts = new Int32Array(capacity);
    this.rights = new Int32Array(capacity);
    this.merged = new Int32Array(capacity);
  }
  grow(): void {
    const cap = this.lefts.length * 2;
    const grown = (a: Int32Array): Int32Array => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.lefts = grown(this.lefts);
    this.rights = grown(this.rights);
    this.merged = grown(this.merged);
  }
}

function collectPairs(
  pieces: readonly string[],
  mergeable: Uint8Array,
  index: PieceIndex,
  bmpKey: Int32Array,
): Pairs {
  const n = pieces.length;
  const { mask, slots, idBits, idMask } = index;
  const high = ~idMask;
  const out = new Pairs(Math.max(16, 2 * n));
  let prefixHash = new Int32Array(64);
  let suffixHash = new Int32Array(64);
  for (let id = 0; id < n; id++) {
    if (mergeable[id] !== 1) continue;
    const p = pieces[id]!;
    const len = p.length;
    if (len < 2) continue;
    if (len >= prefixHash.length) {
      prefixHash = new Int32Array(2 * len);
      suffixHash = new Int32Array(2 * len);
    }
    let h = 0;
    for (let k = 0; k < len; k++) {
      h = (Math.imul(h, HASH_MULTIPLIER) + p.charCodeAt(k)) | 0;
      prefixHash[k + 1] = h;
    }
    h = 0;
    let pow = 1;
    for (let k = len - 1; k >= 0; k--) {
      h = (h + Math.imul(p.charCodeAt(k), pow)) | 0;
      pow = Math.imul(pow, HASH_MULTIPLIER);
      suffixHash[k] = h;
    }
    for (let k = 1; k < len; k++) {
      const cu = p.charCodeAt(k);
      if (cu >= 0xdc00 && cu <= 0xdfff) continue; // not a character boundary
      // Left symbol p[0, k): a mergeable piece, else one character, else none.
      let l = k === 1 ? bmpKey[p.charCodeAt(0)]! : -1; // p[0] is not a surrogate when k = 1
      const hl = prefixHash[k]!;
      const tagL = (hl >>> idBits) << idBits;
      for (let slot = k === 1 ? -1 : slotOf(hl, mask); slot >= 0; slot = (slot + 1) & mask) {
        const e = slots[slot]!;
        if (e === 0) break;
        const c = (e & idMask) - 1;
        if ((e & high) === tagL && mergeable[c] === 1) {
          const q = pieces[c]!;
          if (q.length === k && p.startsWith(q)) {
            l = c;
            break;
          }
        }
      }
      if (l < 0) {
        // Not a piece: one character (a surrogate pair; one unit was bmpKey), else no symbol.
        const c0 = p.charCodeAt(0);
        if (k === 2 && c0 >= 0xd800 && c0 <= 0xdbff)
          l = n + ((c0 - 0xd800) << 10) + (p.charCodeAt(1) - 0xdc00) + 0x10000;
        else continue;
      }
      // Right symbol p[k, len).
      let r = k === len - 1 ? bmpKey[cu]! : -1; // cu is not a surrogate here
      const hr = suffixHash[k]!;
      const tagR = (hr >>> idBits) << idBits;
      for (let slot = k === len - 1 ? -1 : slotOf(hr, mask); slot >= 0; slot = (slot + 1) & mask) {
        const e = slots[slot]!;
        if (e === 0) break;
        const c = (e & idMask) - 1;
        if ((e & high) === tagR && mergeable[c] === 1) {
          const q = pieces[c]!;
          if (q.length === len - k && p.endsWith(q)) {
            r = c;
            break;
          }
        }
      }
      if (r < 0) {
        if (k === len - 2 && cu >= 0xd800 && cu <= 0xdbff)
          r = n + ((cu - 0xd800) << 10) + (p.charCodeAt(k + 1) - 0xdc00) + 0x10000;
        else continue;
      }
      if (out.count === out.lefts.length) out.grow();
      out.lefts[out.count] = l;
      out.rights[out.count] = r;
      out.merged[out.count++] = id;
    }
  }
  return out;
}

function fill(lefts: Int32Array, rights: Int32Array, merged: Int32Array, count: number): PairTable {
  let size = 16;
  while (size < count * 2) size *= 2;
  const mask = size - 1;
  const left = new Int32Array(size).fill(-1);
  const right = new Int32Array(size);
  const out = new Int32Array(size);
  for (let e = 0; e < count; e++) {
    const l = lefts[e]!;
    const r = rights[e]!;
    let slot = pairHash(l, r) & mask;
    while (left[slot] !== -1) slot = (slot + 1) & mask;
    left[slot] = l;
    right[slot] = r;
    out[slot] = merged[e]!;
  }
  return { mask, left, right, merged: out };
}
