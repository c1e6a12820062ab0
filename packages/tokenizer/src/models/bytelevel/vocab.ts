// A tokenizer.json vocabulary (piece -> id) without a Map: pieces by id plus a PieceIndex
// (../sentencepiece/piece-index.ts, integer hashes of UTF-16 code units, exact).
//
// A Map<string, number> plus three Map.get per merge (one on a fresh `a + b`) would be most of a
// load; here a merge's pieces are found by hash, the merged piece by the hash of a + b computed
// from the halves' hashes, and no string is built. The index is also smaller than the Map.

import { HASH_MULTIPLIER, hashConcat, hashRange, PieceIndex } from "../sentencepiece/piece-index.ts";
import type { PieceBytes } from "./piece-bytes.ts";

export class Vocab {
  /** Set when the pieces are strings from the start (else made from `bytes` when read). */
  private piecesMade: (string | undefined)[] | undefined;
  /** A table file's pieces as bytes (Vocab.fromPieceBytes), else undefined. */
  readonly bytes: PieceBytes | undefined;
  /** Largest id, or -1 for an empty vocabulary. */
  readonly maxId: number;
  /** Set when the index is (a vocabulary of piece bytes: at the first lookup, see `index`). */
  private indexMade: PieceIndex | undefined;
  /** index position -> id; undefined when positions are ids (no two keys share an id). */
  private readonly ids: Int32Array | undefined;
  /** Two keys share an id (only the later one is pieces[id]). */
  readonly sharedIds: boolean;
  /** Some key occurs twice (possible only for keys read from text, not from a parsed object). */
  readonly duplicateKeys: boolean;

  /**
   * A vocabulary stored by an earlier load (a table file): pieces by id and the index slots,
   * or undefined when they do not fit together (PieceIndex.fromStored). One key per id.
   */
  static fromStored(pieces: (string | undefined)[], slots: Int32Array, verified = false): Vocab | undefined {
    const index = PieceIndex.fromStored(pieces, { slots, duplicates: [] }, verified);
    if (index === undefined) return undefined;
    return new Vocab([], new Int32Array(0), { pieces, index });
  }

  /**
   * A vocabulary whose pieces are a table file's bytes (piece-bytes.ts). Nothing is made here: the
   * index at the first lookup (from the bytes, see `index`), a piece string when asked for.
   */
  static fromPieceBytes(bytes: PieceBytes): Vocab {
    return new Vocab([], new Int32Array(0), { pieces: undefined, index: undefined, bytes });
  }

  /**
   * The piece index (its slots are what a table file of piece strings stores). For a vocabulary of
   * piece bytes it is built at the first lookup: a load from a table file looks up no piece (the
   * byte symbols' ids are stored), and reading 2 MB of slots costs more than most processes'
   * lookups; a lookup makes the few piece strings its hash picks (PieceIndex.fromStoredLazy).
   */
  get index(): PieceIndex {
    this.indexMade ??= (this.bytes as PieceBytes).index();
    return this.indexMade;
  }

  /**
   * The piece of each id (undefined: no piece has that id); later keys win, as they did in a Map.
   * For a vocabulary of piece bytes every string is made at the first read (the slow paths that
   * need them all); piece(id) makes one.
   */
  get pieces(): (string | undefined)[] {
    this.piecesMade ??= (this.bytes as PieceBytes).all();
    return this.piecesMade;
  }

  /** The piece of `id` (undefined: none), without making the others. */
  piece(id: number): string | undefined {
    return this.piecesMade === undefined ? this.bytes?.at(id) : this.piecesMade[id];
  }

  /** keys[i] has id ids[i] (validated integers in [0, 2^24)); keys are distinct (JSON object keys). */
  constructor(
    keys: readonly string[],
    ids: Int32Array,
    stored?: {
      readonly pieces: (string | undefined)[] | undefined;
      readonly index: PieceIndex | undefined;
      readonly bytes?: PieceBytes;
    },
  ) {
    if (stored !== undefined) {
      this.piecesMade = stored.pieces;
      this.bytes = stored.bytes;
      const pieces = stored.pieces;
      let top = pieces === undefined ? (stored.bytes?.count ?? 0) - 1 : pieces.length - 1;
      // (PieceBytes.of checked that its last id has a piece.)
      while (pieces !== undefined && top >= 0 && pieces[top] === undefined) top--;
      this.maxId = top;
      this.indexMade = stored.index;
      this.ids = undefined;
      this.sharedIds = false;
      this.duplicateKeys = false;
      return;
    }
    let maxId = -1;
    for (let i = 0; i < ids.length; i++) if (ids[i]! > maxId) maxId = ids[i]!;
    this.maxId = maxId;
    this.bytes = undefined;
    const pieces = new Array<string | undefined>(maxId + 1);
    let shared = false;
    for (let i = 0; i < keys.length; i++) {
      const id = ids[i]!;
      if (pieces[id] !== undefined) shared = true;
      pieces[id] = keys[i]!;
    }
    this.piecesMade = pieces;
    // Usual case: one key per id, so the by-id array is the index's key list. Otherwise index the
    // key list itself and map positions to ids.
    this.indexMade = new PieceIndex(shared ? keys : pieces);
    this.ids = shared ? ids : undefined;
    this.sharedIds = shared;
    this.duplicateKeys = this.indexMade.duplicates.length > 0;
  }

  private idAt(pos: number): number | undefined {
    if (pos < 0) return undefined;
    return this.ids === undefined ? pos : this.ids[pos];
  }

  get(piece: string): number | undefined {
    return this.idAt(this.index.get(piece));
  }

  /**
   * The ids of a, b and a + b written into out[at], out[at + 1], out[at + 2] (-1 when absent).
   */
  resolveMerge(a: string, b: string, out: Int32Array, at: number): void {
    let hb = 0;
    let shift = 1;
    for (let i = 0; i < b.length; i++) {
      hb = (Math.imul(hb, HASH_MULTIPLIER) + b.charCodeAt(i)) | 0;
      shift = Math.imul(shift, HASH_MULTIPLIER);
    }
    const ha = hashRange(a, 0, a.length);
    const index = this.index;
    out[at] = this.idAt(index.find(a, 0, a.length, ha)) ?? -1;
    out[at + 1] = this.idAt(index.find(b, 0, b.length, hb)) ?? -1;
    out[at + 2] = this.idAt(index.findConcat(a, b, hashConcat(ha, hb, shift))) ?? -1;
  }

  /** resolveMerge for a = text[as, ae), b = text[bs, be) (a merge read straight from the JSON text). */
  resolveMergeRange(
    text: string,
    as: number,
    ae: number,
    bs: number,
    be: number,
    out: Int32Array,
    at: number,
  ): void {
    let hb = 0;
    let shift = 1;
    for (let i = bs; i < be; i++) {
      hb = (Math.imul(hb, HASH_MULTIPLIER) + text.charCodeAt(i)) | 0;
      shift = Math.imul(shift, HASH_MULTIPLIER);
    }
    const ha = hashRange(text, as, ae);
    const index = this.index;
    out[at] = this.idAt(index.find(text, as, ae, ha)) ?? -1;
    out[at + 1] = this.idAt(index.find(text, bs, be, hb)) ?? -1;
    out[at + 2] = this.idAt(index.findConcatRange(text, as, ae, bs, be, hashConcat(ha, hb, shift))) ?? -1;
  }
}
