// A SentencePiece ModelProto (sentencepiece_model.proto) written from a GGUF "llama" vocabulary,
// so the SentencePiece loader (../sentencepiece/) encodes it: the pieces with their scores and
// types, a BPE trainer spec (byte_fallback when the vocabulary has byte pieces) and an identity
// normalizer with llama.cpp's flags. llama.cpp's SPM tokenizer (llm_tokenizer_spm) is score-ordered
// BPE over the same pieces: escape " " as "▁", a "▁" before the text when add_space_prefix, no
// other normalization, unknown characters as byte pieces.

import { utf8Length } from "../sentencepiece/utf8-length.ts";
import { Utf8Writer } from "./utf8-writer.ts";

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

/** Scratch for one little-endian float32. */
const FLOAT = new DataView(new ArrayBuffer(4));

/** Protobuf wire writer (varints, length-delimited fields, fixed32 floats) over ./utf8-writer.ts. */
class Writer extends Utf8Writer {
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

  /** A string field of `n` UTF-8 bytes (utf8Length). */
  string(field: number, s: string, n: number): void {
    this.tag(field, 2);
    this.varint(n);
    this.text(s);
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
    FLOAT.setFloat32(0, v, true);
    for (let i = 0; i < 4; i++) this.buf[this.length++] = FLOAT.getUint8(i);
  }

  int(field: number, v: number): void {
    this.tag(field, 0);
    this.varint(v);
  }
}

export function writeSpmProto(input: SpmProtoInput): Uint8Array {
  const { pieces, scores, types } = input;
  // Per piece: tag + length (2 + 1..2), string tag + length (1 + 1..2), float (5), type (2): at
  // most 14 bytes besides the text.
  const lengths = new Int32Array(pieces.length);
  let total = 256;
  for (let i = 0; i < pieces.length; i++) {
    const n = utf8Length(pieces[i] ?? "", false);
    lengths[i] = n;
    total += n + 16;
  }
  const w = new Writer(total);
  for (let i = 0; i < pieces.length; i++) {
    const n = lengths[i] as number;
    const type = types[i] ?? 1;
    // The piece message's length, known before writing it: string field, float field, type field.
    w.tag(1, 2);
    w.varint(1 + varintSize(n) + n + 5 + 1 + varintSize(type));
    w.string(1, pieces[i] ?? "", n);
    w.float(2, scores?.[i] ?? 0);
    w.int(3, type);
  }
  const trainer = new Writer(64);
  trainer.int(3, BPE);
  trainer.int(4, pieces.length);
  trainer.int(35, input.byteFallback ? 1 : 0);
  trainer.int(40, input.unkId);
  trainer.int(41, input.bosId);
  trainer.int(42, input.eosId);
  trainer.int(43, input.padId);
  w.bytes(2, trainer.result());
  const normalizer = new Writer(32);
  normalizer.string(1, "identity", 8);
  normalizer.int(3, input.addSpacePrefix ? 1 : 0);
  normalizer.int(4, input.removeExtraWhitespaces ? 1 : 0);
  normalizer.int(5, 1);
  w.bytes(3, normalizer.result());
  return w.result();
}

/** Bytes of a non-negative varint (a negative int32 takes 10). */
function varintSize(v: number): number {
  if (v < 0) return 10;
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}
