export { firstVocabularyDifference, type VocabularyDifference } from "./compare.ts";
export { fromGguf, type GgufLoad, type GgufLoadOptions, loadGguf, loadGgufMetadata } from "./load.ts";
export { GGUF_PRE_TOKENIZER_NAMES } from "./pre-tokenizers.ts";
export {
  type GgufArrayItems,
  type GgufMetadata,
  type GgufScalarType,
  type GgufValue,
  readGgufMetadata,
} from "./reader.ts";
export { type GgufTokenizerFiles, type GgufVocabularyType, ggufTokenizerFiles } from "./vocabulary.ts";
