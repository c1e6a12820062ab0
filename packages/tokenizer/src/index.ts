// @chatwire/tokenizer: the public, runtime-neutral API (no node:* import is reachable from
// here; file-system loading is "@chatwire/tokenizer/node"). Explicit names only: the
// encoders, proto/JSON readers and format renderers behind them are internal.

export type { CallerRef, ChatAuditEntry, ChatEncoding, ChatSpan } from "./chat/builder.ts";
export type { FormatName, ReservedRegistry } from "./chat/reserved.ts";
export type { ChatSink } from "./chat/sink.ts";
export type { DecodeOptions, SpecialTokensMode } from "./chat-decode.ts";
export type { ChatTokenizer, TextEncoding } from "./chat-tokenizer.ts";
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
  ResponseFieldBody,
  ResponsePatternItem,
  ResponseValuePath,
} from "./families/grammar.ts";
export { PLAIN_TEXT_CALL_KIND } from "./families/grammar.ts";
export { FAMILIES, FAMILY_NAMES, FAMILY_NAMES as FORMAT_NAMES } from "./families/index.ts";
export { XML_SPELLINGS, type XmlSpelling, type XmlSyntax } from "./families/xml-spellings.ts";
export { type AddedTokenDecl, parseTokenizerConfig, type TokenizerConfig } from "./load/config.ts";
export {
  type AnyUrlOptions,
  type FromUrlOptions,
  fromAnyUrl,
  fromGgufUrl,
  fromUrl,
  type GgufUrlOptions,
  loadGgufUrl,
} from "./load/from-url.ts";
export {
  type AnyLoadOptions,
  type AnyTokenizer,
  detectFormat,
  fromFiles,
  type LoadOptions,
  NO_NATIVE_FAMILY,
  type TemplateFormatOptions,
  type TokenizerFiles,
} from "./load/load.ts";
export * from "./models/gguf/index.ts";
export { exportModelTables, type ModelTables } from "./models/tables/model-tables.ts";
// Mistral's tekken tokenizer as a TextModel (its JSON read from memory; see docs/families/mistral.md).
export {
  loadTekkenModel,
  readTekkenFile,
  type TekkenFile,
  type TekkenModel,
  type TekkenModelOptions,
} from "./models/tekken/index.ts";
export { type DecodeTable, type TextModel, TokenKind } from "./models/text-model.ts";
// Python json.dumps(ensure_ascii=False) spelling of a string and repr() of a float, shared with
// the stream decoder's text-to-JSON body syntaxes (one implementation of the vendor rule).
export { pyFloatRepr, pyJsonString } from "./py/json.ts";
export { CHAT_REQUEST_FIELDS, MESSAGE_FIELDS } from "./request/normalize.ts";
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
} from "./request/request.ts";
export {
  SPECIAL_TEXT_POLICIES,
  type SpecialTextOptions,
  type SpecialTextPolicy,
} from "./special-text/policy.ts";
export type { SpecialMatch, SpecialScanner } from "./special-text/scanner.ts";
// The "template" format (docs/templates.md): any chat template, rendered with provenance.
export * from "./template/index.ts";
