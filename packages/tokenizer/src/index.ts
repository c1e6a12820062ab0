export * from "./bytelevel/index.ts";
export { type ChatTokenizer, createChatTokenizer, type TextEncoding } from "./chat-tokenizer.ts";
export {
  type AddedTokenDecl,
  parseTokenizerConfig,
  readTokenizerConfig,
  type TokenizerConfig,
} from "./config.ts";
export { quote, TokenizerError, type TokenizerErrorFields, type TokenizerErrorType } from "./errors.ts";
export {
  type CallerRef,
  type ChatAuditEntry,
  ChatBuilder,
  type ChatEncoding,
  type ChatSpan,
} from "./formats/builder.ts";
export { chatglm3 } from "./formats/chatglm3.ts";
export type { ChatFormat } from "./formats/format.ts";
export { internlm2 } from "./formats/internlm2.ts";
export { pyFloatRepr, pyJsonDumps, pyJsonString } from "./formats/py-json.ts";
export { qwen3 } from "./formats/qwen3.ts";
export { planRegistry, type RegistryPlan, verifyRegistry } from "./formats/registry.ts";
export * from "./formats/request.ts";
export * from "./formats/reserved.ts";
export {
  BUILTIN_TOKENIZERS,
  detectFormat,
  type LoadOptions,
  loadTokenizer,
  loadTokenizerSync,
  qwen3Dir,
} from "./load.ts";
export * from "./sentencepiece/index.ts";
export * from "./special-text/index.ts";
export * from "./template/index.ts";
export * from "./text-model.ts";
