export { BYTE_TO_CHAR, CHAR_TO_BYTE } from "./byte-alphabet.ts";
export { type ByteLevelModel, type ByteLevelModelOptions, loadByteLevelModel } from "./bytelevel-model.ts";
export { buildByteLevelDecodeTable, type DecodeTableSource } from "./decode-table.ts";
export { type ScannedTokenizerJson, scanTokenizerJson } from "./json-scan.ts";
export { readByteLevelTables, type StoredByteLevel } from "./model-tables.ts";
export { GPT2_PATTERN, translateOnigPattern, WHITE_SPACE } from "./regex-translate.ts";
export { byteLevelTokenBytes } from "./token-bytes.ts";
export { type AddedTokenSpec, type ByteLevelBpeSpec, parseByteLevelTokenizerJson } from "./tokenizer-json.ts";
