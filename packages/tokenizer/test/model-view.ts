// A chat tokenizer over a view of another one's text model that keeps only what every model has
// (encode, decode, pieces, the decode table, token byte lengths, normalization), plus the
// optional shortcuts a test hands back in `extra`: the chat builder's differential tests drive its
// slower paths by leaving a shortcut out (builder-exact: no leadingOffsetBytes, no cut) or replace
// one (prefix-cut: another cut rule).
import { createChatTokenizer } from "../src/chat-tokenizer.ts";
import type { ChatTokenizer } from "../src/index.ts";
import type { TextModel } from "../src/models/text-model.ts";

type Shortcuts = Pick<TextModel, "encodeInto" | "leadingOffsetBytes" | "cutsAfterNewline">;

export function withModelView(tok: ChatTokenizer, extra: Partial<Shortcuts> = {}): ChatTokenizer {
  const m = tok.textModel;
  const byteLength = m.tokenByteLength?.bind(m);
  const model: TextModel = {
    family: m.family,
    vocabSize: m.vocabSize,
    blocked: m.blocked,
    literalPieces: m.literalPieces,
    encode: (t) => m.encode(t),
    decode: (ids) => m.decode(ids),
    idToPiece: (id) => m.idToPiece(id),
    pieceToId: (p) => m.pieceToId(p),
    get decodeTable() {
      return m.decodeTable;
    },
    ...(byteLength === undefined ? {} : { tokenByteLength: byteLength }),
    ...(m.normalization === undefined ? {} : { normalization: m.normalization }),
    ...extra,
  };
  return createChatTokenizer({
    family: tok.family,
    tokenIds: tok.tokenIds,
    textModel: model,
    registry: tok.registry,
    config: tok.config,
  });
}
