// @chatwire/stream-decoder: the public API (runtime-neutral; no node:* import). It depends on
// @chatwire/tokenizer only for the decode table and the formats' reserved tables, never on
// its loaders. Explicit names only: the class table, tool-call scanner and stream handler
// behind the decoder are internal.
export { type ActionCall, ActionParser, type ActionResult, parseAction } from "./action-parse.ts";
export { createDecoder } from "./create-decoder.ts";
export {
  type ActionEnd,
  type DecoderError,
  type DecoderErrorCode,
  type DecoderEvent,
  type DecoderHandler,
  eventCollector,
  eventHandler,
  type MessageHeader,
  type StopInfo,
  type StopReason,
} from "./events.ts";
export { MAX_NESTING_DEPTH, MAX_STOP_STRING_LENGTH, MAX_STOP_STRINGS } from "./limits.ts";
export { type JsonValue, type PythonCall, parsePythonCall, parsePythonLiteral } from "./python-literal.ts";
export { PythonLiteralError } from "./python-literal-error.ts";
export { createReferenceDecoder } from "./reference/create-reference-decoder.ts";
export {
  compileDecoderSpecFor,
  type DecoderFormat,
  type DecoderSource,
  type DecoderSpec,
  type DecoderSpecOptions,
} from "./spec.ts";
export { promptOpensStartBlock } from "./start-state.ts";
export { compileStopStrings, StopStrings } from "./stop-matcher.ts";
export type { BodyParser, BodyParserFactory, BodyParserOptions, ToolSchemas } from "./syntax/body.ts";
export { compileTemplateDecoderSpec, templateGrammarOf } from "./template-spec.ts";
export type { ToolCallSink } from "./tool-call-scanner.ts";
export type { Decoder, DecoderOptions } from "./types.ts";
