// The stream decoder's view of a SentencePiece model (see ../text-model.ts DecodeTable).
// Derived from the same DecodeData as decode.ts, so a streaming decoder that follows the
// table reproduces decodeIds() exactly (proved by test/sentencepiece-decode.test.ts):
//
// - CONTROL and blocked pieces, and UNKNOWN when unk_surface is "", are Control.
// - BYTE pieces are Bytes with their single byte; invalid UTF-8 is "per-byte".
// - UNKNOWN is Text unk_surface (" ⁇ "), the same at the start.
// - Other pieces are Text, "▁" -> " "; textAtStart drops one leading "▁" when the model
//   strips at the beginning (add_dummy_prefix or remove_extra_whitespaces).
// - startEnds: add_dummy_prefix alone -> "first-non-control" (the piece "▁" ends the start
//   although it prints nothing); remove_extra_whitespaces -> "first-visible"; neither ->
//   "never" (textAtStart equals text).

import { type DecodeTable, TokenKind } from "../text-model.ts";
import type { DecodeData } from "./decode.ts";
import { PieceType } from "./model-proto.ts";
import { utf8Length } from "./utf8-length.ts";

/**
 * `known`: the byteLength and kind an earlier build computed (a table file, checked by the
 * caller), so no pass over every ID is made: only the BYTE ids are visited (found natively).
 */
export function buildDecodeTable(
  data: DecodeData,
  known?: { readonly byteLength: Uint32Array; readonly kind: Uint8Array },
): DecodeTable {
  const size = data.types.length;
  const startEnds: DecodeTable["startEnds"] = !data.stripAtStart
    ? "never"
    : data.keepStartAfterStrip
      ? "first-visible"
      : "first-non-control";
  if (known !== undefined) {
    const bytes: (Uint8Array | undefined)[] = new Array(size).fill(undefined);
    const types = data.types;
    for (let id = types.indexOf(PieceType.Byte); id !== -1; id = types.indexOf(PieceType.Byte, id + 1))
      bytes[id] = Uint8Array.of(data.byteOf[id]!);
    return Object.freeze({
      size,
      kind: known.kind,
      text: data.text,
      textAtStart: data.stripAtStart ? data.textAtStart : data.text,
      bytes,
      byteLength: known.byteLength,
      invalidUtf8: "per-byte",
      startEnds,
    });
  }
  const kind = new Uint8Array(size);
  // DecodeData's texts are already what the table holds per ID ("" for CONTROL and BYTE,
  // unk_surface for UNKNOWN, "▁" -> " " otherwise): shared, not copied (two arrays of 92k-151k
  // entries less on a cold load).
  const text = data.text;
  const textAtStart = data.stripAtStart ? data.textAtStart : data.text;
  const bytes: (Uint8Array | undefined)[] = new Array(size).fill(undefined);
  // What each ID adds in UTF-8 bytes (the chat builder's span offsets): computed here, in the
  // same pass, instead of one encodeInto call per ID on the first encodeChat.
  const byteLength = new Uint32Array(size);
  for (let id = 0; id < size; id++) {
    const type = data.types[id]!;
    const t = data.text[id]!;
    if (type === PieceType.Byte) {
      kind[id] = TokenKind.Bytes;
      bytes[id] = Uint8Array.of(data.byteOf[id]!);
      byteLength[id] = 1;
    } else if (type === PieceType.Control || (type === PieceType.Unknown && t === "")) {
      kind[id] = TokenKind.Control;
    } else {
      kind[id] = TokenKind.Text;
      byteLength[id] = utf8Length(t, false);
    }
  }
  return Object.freeze({
    size,
    kind,
    text,
    textAtStart,
    bytes,
    byteLength,
    invalidUtf8: "per-byte",
    startEnds,
  });
}
