// @chatwire/openai: the public API (runtime-neutral; no node:* import). Request mapping
// (ChatCompletionCreateParams -> chat request + sampling), decoder events -> chat.completion.chunk
// (ChunkWriter) and chat.completion (CompletionBuilder), SSE framing. See docs/openai.md.
export {
  type ChunkSink,
  ChunkWriter,
  type ChunkWriterOptions,
  type StreamError,
  type ToolCallStreaming,
} from "./chunk-writer.ts";
export { CompletionBuilder } from "./completion.ts";
export { type CompletionPrompt, type MappedCompletion, mapCompletionParams } from "./completion-request.ts";
export { type ErrorBody, quote40, RequestError, type RequestErrorType } from "./errors.ts";
export { finishReason } from "./finish-reason.ts";
export { type RandomHex, randomHex24, responseId, toolCallId } from "./ids.ts";
export { JsonFenceFilter } from "./json-fence.ts";
export {
  type Prefill,
  type PrefillSource,
  type ResolvedCallOpening,
  type ResolvedPart,
  toolChoicePrefill,
} from "./prefill.ts";
export {
  type ChatRequestInput,
  type MapOptions,
  type MappedRequest,
  mapChatCompletionParams,
  mapSampling,
} from "./request.ts";
export {
  ALL_SAMPLING_PARAMS,
  type ResponseFormat,
  SAMPLING_PARAMS,
  type SamplingOptions,
  type SamplingParam,
  unhonoured,
} from "./sampling.ts";
export { SSE_DONE, sseData } from "./sse.ts";
export { templateCallOpening } from "./template-opening.ts";
export { mapToolChoice, type ToolChoice } from "./tool-choice.ts";
export { isToolCallKind } from "./tool-kinds.ts";
export type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessage,
  ChunkChoice,
  ChunkDelta,
  FinishReason,
  ToolCall,
  ToolCallDelta,
  Usage,
} from "./wire.ts";
