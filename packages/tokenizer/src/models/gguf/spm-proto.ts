// A SentencePiece ModelProto (sentencepiece_model.proto) written from a GGUF "llama" vocabulary,
// so the SentencePiece loader (../sentencepiece/) encodes it: the pieces with their scores and
// types, a BPE trainer spec (byte_fallback when the vocabulary has byte pieces) and an identity
// normalizer with llama.cpp's flags. llama.cpp's SPM tokenizer (llm_tokenizer_spm) is score-ordered
// BPE over the same pieces: escape " " as "▁", a "▁" before the text when add_space_prefix, no
// other normalization, unknown characters as byte pieces.

export interface SpmProtoInput {
  readonly pieces: readonly string[];
  readonly scores: ArrayLike<number> | undefined;
  /** SentencePiece piece types (NORMAL 1, UNKNOWN 2, CONTROL 3, USER_DEFINED 4, UNUSED 5, BYTE 6). */
  readonly types: ArrayLike<number>;
  readonly addSpacePrefix: boolean;
  readonly removeExtraWhitespaces: boolean;
  readonly byteFallback: boolean;
  readonly unkId: number;
  readonly bosId: number;
  readonly eosId: number;
  readonly padId: number;
}

const BPE = 2;

/** Protobuf wire writer (varints, length-delimited fields, fixed32 floats). */
class Writer {
  private buf = new Uint8Array(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  varint(v: number): void {
    this.room(10);
    // Negative int32 values are written as 10-byte two's complement (proto int32).
    if (v < 0) {
      let big = BigInt.asUintN(64, BigInt(v));
      while (big >= 0x80n) {
        this.buf[this.length++] = Number(big & 0x7fn) | 0x80;
        big >>= 7n;
      }
      this.buf[this.length++] = Number(big);
      return;
    }
    while (v >= 0x80) {
      this.buf[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  bytes(field: number, b: Uint8Array): void {
    this.tag(field, 2);
    this.varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  float(field: number, v: number): void {
    this.tag(field, 5);
    this.room(4);
    new DataView(this.buf.buffer).setFloat32(this.length, v, true);
    this.length += 4;
  }

  int(field: number, v: number): void {
    this.tag(field, 0);
    this.varint(v);
  }

  result(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

const utf8 = new TextEncoder();

export function writeSpmProto(input: SpmProtoInput): Uint8Array {
  const w = new Writer();
  const piece = new Writer();
  for (let i = 0; i < input.pieces.length; i++) {
    piece.length = 0;
    piece.bytes(1, utf8.encode(input.pieces[i] ?? ""));
    piece.float(2, input.scores?.[i] ?? 0);
    piece.int(3, input.types[i] ?? 1);
    w.bytes(1, piece.result());
  }
  const trainer = new Writer();
  trainer.int(3, BPE);
  trainer.int(4, input.pieces.length);
  trainer.int(35, input.byteFallback ? 1 : 0);
  trainer.int(40, input.unkId);
  trainer.int(41, input.bosId);
  trainer.int(42, input.eosId);
  trainer.int(43, input.padId);
  w.bytes(2, trainer.result());
  const normalizer = new Writer();
  normalizer.bytes(1, utf8.encode("identity"));
  normalizer.int(3, input.addSpacePrefix ? 1 : 0);
  normalizer.int(4, input.removeExtraWhitespaces ? 1 : 0);
  normalizer.int(5, 1);
  w.bytes(3, normalizer.result());
  return w.result().slice();
}
