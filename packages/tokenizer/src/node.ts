// @chatwire/tokenizer/node: file-system loading (Node only). Everything else, including
// fromFiles/fromUrl, is in the runtime-neutral main entry.
export { readTokenizerConfig } from "./node/config-file.ts";
export {
  type AnyNodeLoadOptions,
  BUILTIN_TOKENIZERS,
  fromDirectory,
  fromDirectorySync,
  loadAnyTokenizer,
  loadTemplateTokenizerSync,
  loadTokenizer,
  loadTokenizerSync,
  type NodeLoadOptions,
} from "./node/directory.ts";
export {
  fromGgufFile,
  isGgufPath,
  loadGgufFile,
  loadGgufFileSync,
  readGgufHead,
  readGgufHeadMetadata,
  readGgufHeadMetadataSync,
  readGgufHeadSync,
} from "./node/gguf.ts";
export { QWEN3_DATA_PACKAGE, qwen3Dir } from "./node/qwen3.ts";
export { defaultCacheDir, type TableCacheOptions } from "./node/table-cache.ts";
