// @chatwire/tokenizer: the public, runtime-neutral API (no node:* import is reachable from
// here; file-system loading is "@chatwire/tokenizer/node"). Explicit names only: the
// encoders, proto/JSON readers and format renderers behind them are internal.
export type { DecodeOptions, SpecialTokensMode } from "./chat-decode.ts";
export type { ChatTokenizer, TextEncoding } from "./chat-tokenizer.ts";
export { type AddedTokenDecl, parseTokenizerConfig, type TokenizerConfig } from "./config.ts";
export { TokenizerError, type TokenizerErrorFields, type TokenizerErrorType } from "./errors.ts";
export type {
  Detection,
  FamilyDefinition,
  ReservedPolicy,
  TokenIds,
} from "./families/definition.ts";
export { detectFamily, familyByName } from "./families/detect.ts";
// Only for stream-decoder's harmony-decoder.ts until the one decoder engine reads the verified
// tokenIds instead (the renderers already do).
// Decoder grammars as data (families/grammar.ts; the stream decoder compiles them).
export type {
  BlockGrammar,
  BodySyntax,
  CallOpening,
  Grammar,
  HeaderSyntax,
  MarkerMove,
  NewlineRules,
  OpeningPart,
} from "./families/grammar.ts";
export { PLAIN_TEXT_CALL_KIND } from "./families/grammar.ts";
export { FAMILIES, FAMILY_NAMES, FAMILY_NAMES as FORMAT_NAMES } from "./families/index.ts";
export type { CallerRef, ChatAuditEntry, ChatEncoding, ChatSpan } from "./formats/builder.ts";
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
export type { FormatName, ReservedRegistry } from "./formats/reserved.ts";
export type { ChatSink } from "./formats/sink.ts";
export { type FromUrlOptions, fromGgufUrl, fromUrl, type GgufUrlOptions, loadGgufUrl } from "./from-url.ts";
export * from "./gguf/index.ts";
export {
  type AnyLoadOptions,
  type AnyTokenizer,
  detectFormat,
  fromFiles,
  type LoadOptions,
  NO_NATIVE_FAMILY,
  type TemplateFormatOptions,
  type TokenizerFiles,
} from "./load.ts";
// Mistral's tekken tokenizer as a TextModel (its JSON read from memory; see docs/families/mistral.md).
export {
  loadTekkenModel,
  readTekkenFile,
  type TekkenFile,
  type TekkenModel,
  type TekkenModelOptions,
} from "./models/tekken/index.ts";
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
