// The stream decoder's table for a byte-level BPE model. A token whose bytes are complete, valid
// UTF-8 is Text (the ByteLevel decoder has no start-of-text rule, so textAtStart = text); any other
// token is Bytes; blocked IDs (the added tokens, which the stream decoder handles as markers) and
// IDs with no piece are Control (they decode to "").

import { type DecodeTable, TokenKind } from "../text-model.ts";
import { CHAR_TO_BYTE } from "./byte-alphabet.ts";
import { isValidUtf8 } from "./token-bytes.ts";

export interface DecodeTableSource {
  readonly vocabSize: number;
  readonly blocked: ReadonlySet<number>;
  idToPiece(id: number): string | undefined;
  tokenBytes(id: number): Uint8Array;
}

/**
 * One pass over the vocabulary, built on first use (first decode, first encodeChat), allocating
 * per token only for Bytes tokens (no Uint8Array or TextDecoder call per token): a token of
 * printable ASCII (the alphabet maps those bytes to themselves), optionally after one first
 * character standing for an ASCII byte, is built from the piece string; other tokens are mapped into one scratch buffer and decoded from there; only Bytes
 * tokens get their own copy. `byteLength` (what each ID adds, in UTF-8 bytes) comes for free.
 */
export function buildByteLevelDecodeTable(model: DecodeTableSource): DecodeTable {
  const size = model.vocabSize;
  const kind = new Uint8Array(size).fill(TokenKind.Control);
  const text: string[] = new Array<string>(size).fill("");
  const bytes: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(size).fill(undefined);
  const byteLength = new Uint32Array(size);
  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  let scratch = new Uint8Array(256);
  for (let id = 0; id < size; id++) {
    if (model.blocked.has(id)) continue;
    const piece = model.idToPiece(id);
    if (piece === undefined) continue;
    const len = piece.length;
    // Fast path: printable ASCII after an optional first character that maps to any ASCII
    // byte (the "Ġ" = space of most word tokens, "Ċ" = newline): the text without decoding.
    const c0 = len > 0 ? piece.charCodeAt(0) : 0;
    const b0 = c0 < CHAR_TO_BYTE.length ? (CHAR_TO_BYTE[c0] as number) : -1;
    let ascii = b0 >= 0 && b0 < 0x80;
    for (let i = 1; ascii && i < len; i++) {
      const c = piece.charCodeAt(i);
      if (c < 0x21 || c > 0x7e) ascii = false;
    }
    if (ascii) {
      kind[id] = TokenKind.Text;
      text[id] = b0 === c0 ? piece : String.fromCharCode(b0) + piece.slice(1);
      byteLength[id] = len;
      continue;
    }
    // Alphabet characters -> bytes in the scratch; any other character: the piece's own UTF-8.
    if (scratch.length < len) scratch = new Uint8Array(len * 2);
    let n = 0;
    for (; n < len; n++) {
      const c = piece.charCodeAt(n);
      const b = c < CHAR_TO_BYTE.length ? (CHAR_TO_BYTE[c] as number) : -1;
      if (b < 0) break;
      scratch[n] = b;
    }
    const b = n === len ? scratch.subarray(0, len) : model.tokenBytes(id);
    byteLength[id] = b.length;
    if (isValidUtf8(b)) {
      kind[id] = TokenKind.Text;
      text[id] = utf8.decode(b);
    } else {
      kind[id] = TokenKind.Bytes;
      bytes[id] = b.slice();
    }
  }
  return byteTokenTable(kind, text, bytes, byteLength);
}

/**
 * A decode table of byte tokens (byte-level BPE, Tekken): no start-of-text rule (textAtStart =
 * text), invalid UTF-8 replaced per maximal subpart, as the vendors' byte decoders do.
 */
export function byteTokenTable(
  kind: Uint8Array,
  text: readonly string[],
  bytes: readonly (Uint8Array | undefined)[],
  byteLength: Uint32Array,
): DecodeTable {
  return {
    size: kind.length,
    kind,
    text,
    textAtStart: text,
    bytes,
    byteLength,
    invalidUtf8: "maximal-subpart",
    startEnds: "never",
  };
}
