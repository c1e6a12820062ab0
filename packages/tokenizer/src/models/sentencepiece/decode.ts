// One-shot decode exactly as SentencePieceProcessor::DecodeIds (0.1.97) does it:
//
// - CONTROL pieces (and blocked ids) decode to "".
// - The UNKNOWN piece decodes to trainer_spec.unk_surface (default " ⁇ ", U+2047 with a
//   space on each side).
// - Runs of BYTE pieces are joined into bytes, then read one character at a time; a byte
//   that does not start a valid UTF-8 character (util.cc DecodeUTF8: no overlongs, no
//   surrogates, <= U+10FFFF) becomes one U+FFFD and reading resumes at the next byte
//   ("per-byte": F0 9F 98 -> three U+FFFD).
// - Other pieces: "▁" -> " ".
// - "Beginning of text" (add_dummy_prefix or remove_extra_whitespaces): while is_bos_ws, one
//   leading "▁" of a piece is dropped. is_bos_ws ends before a non-byte piece when the text
//   so far is non-empty or the previous non-byte piece consumed a leading "▁". So CONTROL
//   pieces do not end it, "▁" alone ends it although it printed nothing ([▁, ▁] -> " "), and
//   bytes end it. With remove_extra_whitespaces, consuming "▁" does not end it
//   ([▁, ▁, ▁world] -> "world").

import { PieceType, pieceToByte, type SentencePieceProto } from "./model-proto.ts";
import { PieceTexts } from "./piece-texts.ts";

/** How each id decodes; built once per model (texts are made per id on first use). */
export interface DecodeData {
  /** PieceType per id after blocking (blocked ids are CONTROL). */
  readonly types: Uint8Array;
  /** Per id: decoded text, text at the beginning, starts-with-"▁" (piece-texts.ts). */
  readonly texts: PieceTexts;
  /** Per BYTE id: its byte; -1 otherwise. */
  readonly byteOf: Int16Array;
  /** add_dummy_prefix || remove_extra_whitespaces: the beginning strips a "▁". */
  readonly stripAtStart: boolean;
  /** remove_extra_whitespaces: consuming a "▁" does not end the beginning. */
  readonly keepStartAfterStrip: boolean;
}

/**
 * `types`: the effective types (effectiveTypes). No pass over every id: the BYTE ids are found
 * natively (indexOf) and only their pieces are read.
 */
export function buildDecodeData(proto: SentencePieceProto, types: Uint8Array): DecodeData {
  const byteOf = new Int16Array(types.length).fill(-1);
  for (let id = types.indexOf(PieceType.Byte); id !== -1; id = types.indexOf(PieceType.Byte, id + 1))
    byteOf[id] = pieceToByte(proto.pieceAt(id) ?? "");
  const { addDummyPrefix, removeExtraWhitespaces } = proto.normalizer;
  const stripAtStart = addDummyPrefix || removeExtraWhitespaces;
  return {
    types,
    texts: new PieceTexts(types, (id) => proto.pieceAt(id), proto.trainer.unkSurface, stripAtStart),
    byteOf,
    stripAtStart,
    keepStartAfterStrip: removeExtraWhitespaces,
  };
}

/** Decodes ids that are all in [0, types.length) (the caller checks the range). */
export function decodeIds(data: DecodeData, ids: readonly number[]): string {
  const { types, byteOf, texts } = data;
  let out = "";
  let isBosWs = true;
  let bosWsSeen = false;
  let bytes: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const type = types[id]!;
    if (type === PieceType.Byte) {
      bytes.push(byteOf[id]!);
      continue;
    }
    if (bytes.length > 0) {
      out += decodeBytesPerByte(bytes);
      bytes = [];
    }
    if (bosWsSeen || out.length > 0) isBosWs = false;
    bosWsSeen = false;
    if (type === PieceType.Control || type === PieceType.Unknown) {
      out += texts.text(id);
    } else if (isBosWs && data.stripAtStart && texts.startsWithMark(id)) {
      out += texts.textAtStart(id);
      bosWsSeen = !data.keepStartAfterStrip;
    } else {
      out += texts.text(id);
    }
  }
  if (bytes.length > 0) out += decodeBytesPerByte(bytes);
  return out;
}

const FFFD = "\ufffd";

/**
 * util.cc IsValidDecodeUTF8 applied from each offset: a valid character is copied, an invalid
 * byte becomes one U+FFFD and decoding resumes at the next byte.
 */
export function decodeBytesPerByte(bytes: ArrayLike<number>): string {
  let out = "";
  const len = bytes.length;
  let i = 0;
  while (i < len) {
    const b0 = bytes[i]!;
    const consumed = validUtf8Length(bytes, i);
    if (consumed === 0) {
      out += FFFD;
      i += 1;
      continue;
    }
    let cp: number;
    if (consumed === 1) cp = b0;
    else if (consumed === 2) cp = ((b0 & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
    else if (consumed === 3)
      cp = ((b0 & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
    else
      cp =
        ((b0 & 0x07) << 18) |
        ((bytes[i + 1]! & 0x3f) << 12) |
        ((bytes[i + 2]! & 0x3f) << 6) |
        (bytes[i + 3]! & 0x3f);
    out += String.fromCodePoint(cp);
    i += consumed;
  }
  return out;
}

/** Length of the valid UTF-8 character at bytes[i], or 0 when bytes[i] must become U+FFFD. */
export function validUtf8Length(bytes: ArrayLike<number>, i: number): number {
  const len = bytes.length - i;
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const trail = (k: number): boolean => (bytes[i + k]! & 0xc0) === 0x80;
  if (len >= 2 && (b0 & 0xe0) === 0xc0) {
    const cp = ((b0 & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
    return trail(1) && cp >= 0x80 ? 2 : 0;
  }
  if (len >= 3 && (b0 & 0xf0) === 0xe0) {
    const cp = ((b0 & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
    return trail(1) && trail(2) && cp >= 0x800 && (cp < 0xd800 || cp >= 0xe000) ? 3 : 0;
  }
  if (len >= 4 && (b0 & 0xf8) === 0xf0) {
    const cp =
      ((b0 & 0x07) << 18) |
      ((bytes[i + 1]! & 0x3f) << 12) |
      ((bytes[i + 2]! & 0x3f) << 6) |
      (bytes[i + 3]! & 0x3f);
    return trail(1) && trail(2) && trail(3) && cp >= 0x10000 && cp <= 0x10ffff ? 4 : 0;
  }
  return 0;
}
