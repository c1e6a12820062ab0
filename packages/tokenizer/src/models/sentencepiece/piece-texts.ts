// What each SentencePiece id decodes to (decode.ts, decode-table.ts), made per id on first
// request from the piece string and cached: a load creates no text string at all (reading every
// id's texts back as strings would be a large part of a cold load and its GC), and a decode or a
// generation asks for a few thousand distinct ids.
//
// Rules (SentencePieceProcessor::DecodeIds 0.1.97, see decode.ts):
// - CONTROL (and blocked) and BYTE pieces: "" (bytes are decoded as runs, decode.ts).
// - UNKNOWN: trainer_spec.unk_surface.
// - Other pieces: "▁" -> " "; at the beginning of a decode call one leading "▁" is consumed
//   (textAtStart), when the piece starts with one.

import { PieceType } from "./model-proto.ts";

const MARK = "\u2581";

export class PieceTexts {
  /**
   * Per id: its text once made (undefined before). `atStart` is the same array when the model
   * does not strip at the beginning (textAtStart is then text).
   */
  readonly mid: (string | undefined)[];
  readonly atStart: (string | undefined)[];

  /**
   * `types`: the effective piece types (blocked ids are CONTROL); `pieceAt`: the piece string
   * of an id in [0, types.length); `stripAtStart`: the beginning consumes a leading "▁".
   */
  constructor(
    private readonly types: Uint8Array,
    private readonly pieceAt: (id: number) => string | undefined,
    private readonly unkSurface: string,
    private readonly stripAtStart: boolean,
  ) {
    // new Array(n) is a holey array (reads give undefined), no fill pass.
    this.mid = new Array<string | undefined>(types.length);
    this.atStart = stripAtStart ? new Array<string | undefined>(types.length) : this.mid;
  }

  get size(): number {
    return this.types.length;
  }

  /** True when the id's text comes from its piece string (not CONTROL, BYTE or UNKNOWN). */
  private fromPiece(id: number): boolean {
    const t = this.types[id];
    return t !== PieceType.Control && t !== PieceType.Byte && t !== PieceType.Unknown;
  }

  /** The id's text in the middle of a decode call (id in [0, size)). */
  text(id: number): string {
    let s = this.mid[id];
    if (s === undefined) {
      if (this.fromPiece(id)) s = (this.pieceAt(id) ?? "").replaceAll(MARK, " ");
      else s = this.types[id] === PieceType.Unknown ? this.unkSurface : "";
      this.mid[id] = s;
    }
    return s;
  }

  /** True when the piece starts with "▁" and so consumes it at the beginning of a decode call. */
  startsWithMark(id: number): boolean {
    return this.fromPiece(id) && (this.pieceAt(id) ?? "").startsWith(MARK);
  }

  /**
   * The id's text as the first piece of a decode call: its leading "▁" consumed when the model
   * strips at the beginning, else text(id).
   */
  textAtStart(id: number): string {
    if (!this.stripAtStart) return this.text(id);
    let s = this.atStart[id];
    if (s === undefined) {
      s = this.startsWithMark(id) ? (this.pieceAt(id) ?? "").slice(1).replaceAll(MARK, " ") : this.text(id);
      this.atStart[id] = s;
    }
    return s;
  }
}
