// A byte-level vocabulary as its pieces' bytes, straight from a table file (model-tables.ts): every
// id's token bytes (what it adds to a decode, token-bytes.ts) end to end, plus offsets. A piece
// spelled in the byte alphabet is its bytes mapped back through it (one character per byte), so
// its string is made only when asked for; the few pieces spelled otherwise (their bytes are their
// own UTF-8) and the ids without a piece are kept as strings / holes beside the arena.
//
// What it avoids: a cold load from a table file made one string per piece (151k for Qwen3) and
// another per decode text, with the garbage collection that follows; here a load makes none, and
// the decode table's texts come from the same bytes, per id at first sight (model-tables.ts).

import { HASH_MULTIPLIER, hashRange, PieceIndex, slotOf } from "../sentencepiece/piece-index.ts";
import { BYTE_TO_CHAR, CHAR_TO_BYTE } from "./byte-alphabet.ts";
import { byteLevelTokenBytes } from "./token-bytes.ts";

/** What a table file stores of the pieces (see PieceBytes.of). */
export interface PieceBytesArrays {
  /** Every id's token bytes, end to end (an id without a piece: none). */
  readonly bytes: Uint8Array;
  /** Id's bytes are bytes[offsets[id], offsets[id + 1]); count + 1 entries. */
  readonly offsets: Uint32Array;
  /** Ascending ids whose piece is not spelled in the byte alphabet, or that have no piece. */
  readonly otherIds: Int32Array;
  /** Their pieces, in the same order (undefined: no piece). */
  readonly other: readonly (string | undefined)[];
}

/** The byte alphabet as UTF-16 units (BYTE_TO_CHAR), for String.fromCharCode. */
const BYTE_UNIT = Uint16Array.from(BYTE_TO_CHAR, (c) => c.charCodeAt(0));

/** True when every unit of `piece` is an alphabet character (its bytes then spell it back). */
function inAlphabet(piece: string): boolean {
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (c >= CHAR_TO_BYTE.length || (CHAR_TO_BYTE[c] as number) < 0) return false;
  }
  return true;
}

/** The arrays of `pieces` (by id; undefined: no piece), for a table file. */
export function pieceBytesArraysOf(pieces: readonly (string | undefined)[]): PieceBytesArrays {
  const n = pieces.length;
  const offsets = new Uint32Array(n + 1);
  const otherIds: number[] = [];
  const other: (string | undefined)[] = [];
  const parts: Uint8Array[] = [];
  let at = 0;
  for (let id = 0; id < n; id++) {
    const p = pieces[id];
    if (p === undefined || !inAlphabet(p)) {
      otherIds.push(id);
      other.push(p);
    }
    if (p !== undefined) {
      const b = byteLevelTokenBytes(p);
      parts.push(b);
      at += b.length;
    }
    offsets[id + 1] = at;
  }
  const bytes = new Uint8Array(at);
  let k = 0;
  for (const b of parts) {
    bytes.set(b, k);
    k += b.length;
  }
  return { bytes, offsets, otherIds: Int32Array.from(otherIds), other };
}

const CHUNK = 4096;

export class PieceBytes {
  private constructor(
    private readonly data: Uint8Array,
    private readonly offsets: Uint32Array,
    /** id -> piece for the ids outside the alphabet (undefined value: no piece). */
    private readonly other: ReadonlyMap<number, string | undefined>,
  ) {}

  /**
   * The pieces of `arrays`, or undefined when they do not fit together. `verified` (bytes our
   * exporter wrote, ModelTables.verified): the ends of the offsets and the other ids' order are
   * checked; otherwise every offset too (ascending), so no entry can reach outside the bytes.
   */
  static of(arrays: PieceBytesArrays, verified: boolean): PieceBytes | undefined {
    const { bytes, offsets, otherIds, other } = arrays;
    const count = offsets.length - 1;
    if (count < 0 || offsets[0] !== 0 || offsets[count] !== bytes.length) return undefined;
    if (otherIds.length !== other.length) return undefined;
    if (!verified)
      for (let id = 0; id < count; id++)
        if ((offsets[id] as number) > (offsets[id + 1] as number)) return undefined;
    const map = new Map<number, string | undefined>();
    let last = -1;
    for (let k = 0; k < otherIds.length; k++) {
      const id = otherIds[k] as number;
      if (id <= last || id >= count) return undefined;
      last = id;
      const p = other[k];
      // An id without a piece has no bytes; one spelled outside the alphabet has its own UTF-8.
      const want = p === undefined ? 0 : byteLevelTokenBytes(p).length;
      if ((offsets[id + 1] as number) - (offsets[id] as number) !== want) return undefined;
      map.set(id, p);
    }
    // The last id has a piece (the vocabulary's largest id).
    if (count > 0 && map.has(count - 1) && map.get(count - 1) === undefined) return undefined;
    return new PieceBytes(bytes, offsets, map);
  }

  /** Ids in [0, count) (the vocabulary's largest id + 1). */
  get count(): number {
    return this.offsets.length - 1;
  }

  /** The arrays this was read from (a table file's, to write again). */
  arrays(): PieceBytesArrays {
    const otherIds = Int32Array.from(this.other.keys());
    return { bytes: this.data, offsets: this.offsets, otherIds, other: [...this.other.values()] };
  }

  /** True when `id` has a piece. */
  has(id: number): boolean {
    // (id | 0) === id: an integer in the int32 range, cheaper than Number.isInteger when cold.
    if ((id | 0) !== id || id < 0 || id >= this.offsets.length - 1) return false;
    const other = this.other;
    return other.size === 0 || !other.has(id) || other.get(id) !== undefined;
  }

  /** Piece id's string (made now), or undefined (out of range, no piece). */
  at(id: number): string | undefined {
    if (!Number.isInteger(id) || id < 0 || id >= this.count) return undefined;
    if (this.other.has(id)) return this.other.get(id);
    const start = this.offsets[id] as number;
    const end = this.offsets[id + 1] as number;
    let out = "";
    for (let i = start; i < end; i += CHUNK) {
      const units = new Uint16Array(Math.min(CHUNK, end - i));
      for (let k = 0; k < units.length; k++) units[k] = BYTE_UNIT[this.data[i + k] as number] as number;
      out += String.fromCharCode.apply(null, units as unknown as number[]);
    }
    return out;
  }

  /** Id's token bytes (a view: never written to), or undefined (not an id with a piece). */
  bytes(id: number): Uint8Array | undefined {
    if (!this.has(id)) return undefined;
    return this.data.subarray(this.offsets[id] as number, this.offsets[id + 1] as number);
  }

  /** Id's token byte count (0: not an id with a piece). */
  byteLength(id: number): number {
    if ((id | 0) !== id || id < 0 || id >= this.offsets.length - 1) return 0;
    return (this.offsets[id + 1] as number) - (this.offsets[id] as number);
  }

  /**
   * The index of these pieces (PieceIndex's slot layout and hash: of the pieces' UTF-16 units,
   * here the alphabet units of their bytes), from the bytes: no piece string is made. Pieces are
   * distinct (a table file is written only for such a vocabulary); were two equal (damaged bytes
   * read unverified), a lookup would find one of them.
   */
  index(): PieceIndex {
    const count = this.count;
    let size = 16;
    while (size < count * 2) size *= 2;
    let idBits = 1;
    while (2 ** idBits <= count) idBits++;
    const mask = size - 1;
    const slots = new Int32Array(size);
    const { data, offsets, other } = this;
    const anyOther = other.size > 0;
    for (let id = 0; id < count; id++) {
      let h = 0;
      if (anyOther && other.has(id)) {
        const p = other.get(id);
        if (p === undefined) continue;
        h = hashRange(p, 0, p.length);
      } else
        for (let i = offsets[id] as number, end = offsets[id + 1] as number; i < end; i++)
          h = (Math.imul(h, HASH_MULTIPLIER) + (BYTE_UNIT[data[i] as number] as number)) | 0;
      let slot = slotOf(h, mask);
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = ((h >>> idBits) << idBits) | (id + 1);
    }
    // (Always defined: the size and one empty slot are this layout's.)
    return PieceIndex.fromStoredLazy(count, { slots, duplicates: [] }, (id) => this.at(id)) as PieceIndex;
  }

  /** Every piece by id (the slow paths that need them all). */
  all(): (string | undefined)[] {
    const out = new Array<string | undefined>(this.count);
    for (let id = 0; id < out.length; id++) out[id] = this.at(id);
    return out;
  }
}
