export { BpeEncoder, type BpeEncoderOptions } from "./bpe-encoder.ts";
export { buildDecodeData, type DecodeData, decodeBytesPerByte, decodeIds } from "./decode.ts";
export { buildDecodeTable } from "./decode-table.ts";
export {
  ModelType,
  type NormalizerSpec,
  PieceType,
  pieceToByte,
  pieceTypeName,
  readModelProto,
  type SentencePieceProto,
  type TrainerSpec,
} from "./model-proto.ts";
export {
  loadSentencePieceModel,
  type SentencePieceModel,
  type SentencePieceModelOptions,
} from "./sentencepiece-model.ts";
