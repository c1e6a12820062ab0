// The piece strings of a table file (model-tables.ts) as one UTF-8 byte arena plus offsets, turned
// into strings only when asked for: a cold load from a table file creates no piece string at all
// (encoding uses the stored tables). A piece is decoded per request and not cached here: its
// readers are rare (pieceToId's confirmations, idToPiece) or keep what they make (piece-texts.ts,
// the chat builder's lengths), and a cache of one slot per piece would be one more large array on
// every cold load.

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

export interface PieceArenaArrays {
  /** Every piece's UTF-8 bytes, end to end. */
  readonly bytes: Uint8Array;
  /** Piece id's bytes are bytes[offsets[id], offsets[id + 1]); n + 1 entries. */
  readonly offsets: Uint32Array;
}

/** The arena of `pieces` (all well-formed strings, as the .model reader makes them). */
export function pieceArenaOf(pieces: readonly string[]): PieceArenaArrays {
  const enc = new TextEncoder();
  const offsets = new Uint32Array(pieces.length + 1);
  let bytes = new Uint8Array(Math.max(64, pieces.length * 8));
  let at = 0;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (bytes.length - at < p.length * 3) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, at + p.length * 3));
      grown.set(bytes.subarray(0, at));
      bytes = grown;
    }
    at += enc.encodeInto(p, bytes.subarray(at)).written;
    offsets[i + 1] = at;
  }
  return { bytes: bytes.slice(0, at), offsets };
}

export class PieceArena {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Uint32Array,
  ) {}

  /**
   * The arena of `count` pieces, or undefined when the offsets' length or ends do not fit. The
   * offsets in between are not scanned (a cold loop over every piece): subarray clamps, so a
   * damaged offset can only give a wrong string (the stored file's digest guards against that),
   * never a throw or a read outside the arena.
   */
  static of(arrays: PieceArenaArrays, count: number): PieceArena | undefined {
    const { bytes, offsets } = arrays;
    if (offsets.length !== count + 1 || offsets[0] !== 0 || offsets[count] !== bytes.length) return undefined;
    return new PieceArena(bytes, offsets);
  }

  get count(): number {
    return this.offsets.length - 1;
  }

  /** Piece id's string (decoded now), or undefined out of range. */
  at(id: number): string | undefined {
    if (!Number.isInteger(id) || id < 0 || id >= this.offsets.length - 1) return undefined;
    return utf8.decode(this.bytes.subarray(this.offsets[id]!, this.offsets[id + 1]!));
  }

  /** Every piece string (the slow paths that need them all: rebuilding the encoder, exporting). */
  all(): string[] {
    const out = new Array<string>(this.count);
    for (let i = 0; i < out.length; i++) out[i] = this.at(i)!;
    return out;
  }
}
