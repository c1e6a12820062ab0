export { type ActionCall, type ActionResult, parseAction, stripFence } from "./action-parse.ts";
export { createDecoder, type Decoder, type DecoderOptions } from "./decoder.ts";
export {
  type ActionEnd,
  type DecoderError,
  type DecoderErrorCode,
  type DecoderEvent,
  type DecoderHandler,
  eventCollector,
  eventHandler,
  type StopInfo,
  type StopReason,
} from "./events.ts";
export { MAX_NESTING_DEPTH, MAX_STOP_STRING_LENGTH, MAX_STOP_STRINGS } from "./limits.ts";
export {
  type JsonValue,
  type PythonCall,
  PythonLiteralError,
  parsePythonCall,
  parsePythonLiteral,
} from "./python-literal.ts";
export { Cls, compileDecoderSpec, type DecoderSpec, type DecoderSpecOptions } from "./spec.ts";
export { compileStopStrings, StopStrings } from "./stop-matcher.ts";
export { ToolCallScanner, type ToolCallSink } from "./tool-call-scanner.ts";
export { ToolCallStreamHandler } from "./tool-call-stream.ts";
