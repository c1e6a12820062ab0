export { buildSpDecodeTable, byteOfToken, decodeTokens } from "./decode.ts";
export { readSpJsonTables, type StoredSpJson } from "./model-tables.ts";
export { normalize, preTokenize } from "./pretokenize.ts";
export { isSentencePieceJson, parseSpJson, type SpAddedToken, type SpJsonSpec } from "./spec.ts";
export {
  loadSpJsonForTemplate,
  loadSpJsonModel,
  type SpJsonModel,
  type SpJsonModelOptions,
} from "./spjson-model.ts";
