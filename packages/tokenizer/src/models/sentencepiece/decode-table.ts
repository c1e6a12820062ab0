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
//
// Built without a pass over every id (a cold loop over 92k-151k ids costs milliseconds): the
// kinds start as Text and only the CONTROL, BYTE and UNKNOWN ids, found natively (indexOf),
// are visited; texts come per id from DecodeData.texts (lazyText: the stream decoder fills an
// id at its first sight). The whole `text`, `textAtStart` and `byteLength` arrays are made
// only when a caller reads them.

import { type DecodeTable, type LazyText, TokenKind } from "../text-model.ts";
import type { DecodeData } from "./decode.ts";
import { PieceType } from "./model-proto.ts";
import { utf8Length } from "./utf8-length.ts";

/** Every id of `type` in `types`, in order (native scans). */
function eachOfType(types: Uint8Array, type: number, visit: (id: number) => void): void {
  for (let id = types.indexOf(type); id !== -1; id = types.indexOf(type, id + 1)) visit(id);
}

export function buildDecodeTable(data: DecodeData): DecodeTable {
  const { types, texts } = data;
  const size = types.length;
  const startEnds: DecodeTable["startEnds"] = !data.stripAtStart
    ? "never"
    : data.keepStartAfterStrip
      ? "first-visible"
      : "first-non-control";
  const kind = new Uint8Array(size); // TokenKind.Text is 0
  // Up to the last BYTE id (reading past the end gives undefined, as for every non-BYTE id):
  // not one more array of a slot per id.
  const bytes: (Uint8Array | undefined)[] = new Array(types.lastIndexOf(PieceType.Byte) + 1).fill(undefined);
  eachOfType(types, PieceType.Control, (id) => {
    kind[id] = TokenKind.Control;
  });
  eachOfType(types, PieceType.Byte, (id) => {
    kind[id] = TokenKind.Bytes;
    bytes[id] = Uint8Array.of(data.byteOf[id]!);
  });
  eachOfType(types, PieceType.Unknown, (id) => {
    if (texts.text(id) === "") kind[id] = TokenKind.Control;
  });
  const lazyText: LazyText = {
    text: texts.mid,
    textAtStart: texts.atStart,
    fill: (id) => {
      texts.text(id);
      texts.textAtStart(id);
    },
  };
  let whole = false;
  const fillAll = (): void => {
    if (whole) return;
    for (let id = 0; id < size; id++) lazyText.fill(id);
    whole = true;
  };
  let byteLength: Uint32Array | undefined;
  return Object.freeze({
    size,
    kind,
    get text(): readonly string[] {
      fillAll();
      return texts.mid as string[];
    },
    get textAtStart(): readonly string[] {
      fillAll();
      return texts.atStart as string[];
    },
    lazyText,
    bytes,
    // What each ID adds in UTF-8 bytes (Text: its text; Bytes: 1; Control: 0), made when read.
    get byteLength(): Uint32Array {
      if (byteLength === undefined) {
        byteLength = new Uint32Array(size);
        for (let id = 0; id < size; id++) {
          const k = kind[id];
          byteLength[id] =
            k === TokenKind.Bytes ? 1 : k === TokenKind.Text ? utf8Length(texts.text(id), false) : 0;
        }
      }
      return byteLength;
    },
    invalidUtf8: "per-byte",
    startEnds,
  });
}
