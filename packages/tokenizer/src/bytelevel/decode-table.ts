// The stream decoder's table for a byte-level BPE model. A token whose bytes are complete, valid
// UTF-8 is Text (the ByteLevel decoder has no start-of-text rule, so textAtStart = text); any other
// token is Bytes; blocked IDs (the added tokens, which the stream decoder handles as markers) and
// IDs with no piece are Control (they decode to "").

import { type DecodeTable, TokenKind } from "../text-model.ts";
import { isValidUtf8 } from "./token-bytes.ts";

export interface DecodeTableSource {
  readonly vocabSize: number;
  readonly blocked: ReadonlySet<number>;
  idToPiece(id: number): string | undefined;
  tokenBytes(id: number): Uint8Array;
}

export function buildByteLevelDecodeTable(model: DecodeTableSource): DecodeTable {
  const size = model.vocabSize;
  const kind = new Uint8Array(size).fill(TokenKind.Control);
  const text: string[] = new Array<string>(size).fill("");
  const bytes: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(size).fill(undefined);
  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  for (let id = 0; id < size; id++) {
    if (model.blocked.has(id) || model.idToPiece(id) === undefined) continue;
    const b = model.tokenBytes(id);
    if (isValidUtf8(b)) {
      kind[id] = TokenKind.Text;
      text[id] = utf8.decode(b);
    } else {
      kind[id] = TokenKind.Bytes;
      bytes[id] = b;
    }
  }
  return {
    size,
    kind,
    text,
    textAtStart: text,
    bytes,
    invalidUtf8: "maximal-subpart",
    startEnds: "never",
  };
}
