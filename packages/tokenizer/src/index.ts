// @chatwire/tokenizer: the public, runtime-neutral API (no node:* import is reachable from
// here; file-system loading is "@chatwire/tokenizer/node"). Explicit names only: the
// encoders, proto/JSON readers and format renderers behind them are internal.
export type { DecodeOptions, SpecialTokensMode } from "./chat-decode.ts";
export type { ChatTokenizer, TextEncoding } from "./chat-tokenizer.ts";
export { type AddedTokenDecl, parseTokenizerConfig, type TokenizerConfig } from "./config.ts";
export { TokenizerError, type TokenizerErrorFields, type TokenizerErrorType } from "./errors.ts";
export { grammar as CHATGLM3_GRAMMAR } from "./families/chatglm3/grammar.ts";
export type {
  Detection,
  FamilyDefinition,
  ReservedPolicy,
  TokenIds,
} from "./families/definition.ts";
export { detectFamily, familyByName } from "./families/detect.ts";
export { grammar as GPTOSS_GRAMMAR } from "./families/gpt-oss/grammar.ts";
// Decoder grammars as data (families/grammar.ts; the stream decoder compiles them). The
// built-in families' grammars are exported for the legacy compileDecoderSpec(model, format).
export type {
  BlockGrammar,
  BodySyntax,
  Grammar,
  HeaderSyntax,
  MarkerMove,
  NewlineRules,
} from "./families/grammar.ts";
export { PLAIN_TEXT_CALL_KIND } from "./families/grammar.ts";
export { FAMILIES, FAMILY_NAMES, FAMILY_NAMES as FORMAT_NAMES } from "./families/index.ts";
export { grammar as INTERNLM2_GRAMMAR } from "./families/internlm2/grammar.ts";
export { grammar as QWEN3_GRAMMAR } from "./families/qwen3/grammar.ts";
export type { CallerRef, ChatAuditEntry, ChatEncoding, ChatSpan } from "./formats/builder.ts";
export {
  GPTOSS_EOS,
  GPTOSS_FIRST_ADDED,
  GPTOSS_IDS,
  GPTOSS_LAST_ADDED,
  GPTOSS_RESERVED,
} from "./formats/gpt-oss-ids.ts";
export { CHAT_REQUEST_FIELDS, MESSAGE_FIELDS } from "./formats/normalize.ts";
// Python json.dumps(ensure_ascii=False) spelling of a string and repr() of a float, shared with
// the stream decoder's text-to-JSON body syntaxes (one implementation of the vendor rule).
export { pyFloatRepr, pyJsonString } from "./formats/py-json.ts";
export {
  type ChatContent,
  type ChatContentPart,
  type ChatMessage,
  type ChatRequest,
  type ChatRole,
  type ChatTemplateKwargs,
  type FunctionDefinition,
  type InternLM2Action,
  type JsonObject,
  type JsonValue,
  MAX_JSON_DEPTH,
  type OtherContentPart,
  type TextContentPart,
  type ToolCall,
  type ToolCallFunction,
  type ToolDefinition,
} from "./formats/request.ts";
export {
  CHATGLM3_EOS,
  CHATGLM3_IDS,
  CHATGLM3_MARKER_STRINGS,
  CHATGLM3_RESERVED,
  CHATGLM3_SP_VOCAB_SIZE,
  CHATGLM3_VOCAB_END,
  type FormatName,
  INTERNLM2_EOS,
  INTERNLM2_IDS,
  INTERNLM2_RAW_PIECES,
  INTERNLM2_RESERVED,
  INTERNLM2_VOCAB_SIZE,
  type LegacyFormatName,
  QWEN3_EOS,
  QWEN3_FIRST_ADDED,
  QWEN3_IDS,
  QWEN3_LAST_ADDED,
  QWEN3_RESERVED,
  type ReservedRegistry,
} from "./formats/reserved.ts";
export type { ChatSink } from "./formats/sink.ts";
export { type FromUrlOptions, fromUrl } from "./from-url.ts";
export {
  detectFormat,
  fromFiles,
  type LoadOptions,
  type TemplateFormatOptions,
  type TokenizerFiles,
} from "./load.ts";
export {
  SPECIAL_TEXT_POLICIES,
  type SpecialTextOptions,
  type SpecialTextPolicy,
} from "./special-text/policy.ts";
export type { SpecialMatch, SpecialScanner } from "./special-text/scanner.ts";
export { exportModelTables, type ModelTables } from "./tables/model-tables.ts";
// The "template" format (docs/templates.md): any chat template, rendered with provenance.
export * from "./template/index.ts";
export { type DecodeTable, type TextModel, TokenKind } from "./text-model.ts";
