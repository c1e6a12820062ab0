// Decoder events -> chat.completion.chunk objects, pushed to a sink (docs/openai.md).
//
// One writer per response. It is a DecoderHandler: hand it to createDecoder(spec, writer,
// {streamToolCalls: true}). Lifecycle: start() (the role chunk), the decoder's callbacks,
// finish(usage) (the finish_reason chunk, then the usage chunk when asked).
//
// Tool calls (the "hold per call" policy, docs/openai.md "Malformed tool calls"): a call's
// name and argument fragments are held until its action ends. Then
//   parsed   -> one delta {index, id, type: "function", function: {name, arguments: ""}},
//               then one delta {index, function: {arguments}} per held fragment, in order
//               (id, type and name are never sent again);
//   malformed (the decoder's action_end error, incl. a call cut by max_tokens/stop)
//            -> the action's raw text as ordinary content; no tool_calls delta at all.
// So a client never holds half a tool call, at the price of arguments arriving at the end of
// each call instead of token by token. Memory: the held fragments are bounded by the
// decoder's maxBufferedChars (it holds the same raw text).
//
// Actions that are not function calls (interpreter code; every action when tool calls are off,
// tool_choice "none") stream their raw text as content as it arrives.
import type { ActionEnd, DecoderError, DecoderHandler, StopInfo, StopReason } from "@chatwire/stream-decoder";
import type { FormatName } from "@chatwire/tokenizer";
import { finishReason } from "./finish-reason.ts";
import { type RandomHex, randomHex24, responseId, toolCallId } from "./ids.ts";
import { isToolCallKind } from "./tool-kinds.ts";
import type { ChatCompletionChunk, ChunkDelta, FinishReason, Usage } from "./wire.ts";

export interface ChunkSink {
  chunk(chunk: ChatCompletionChunk): void;
}

export interface ChunkWriterOptions {
  readonly format: FormatName;
  readonly model: string;
  /** Unix seconds; default now. */
  readonly created?: number;
  /** Default: 12 random bytes as hex (./ids.ts). */
  readonly random?: RandomHex;
  /** Where reasoning goes: "reasoning_content" (default; llama.cpp, DeepSeek) or "reasoning" (newer vLLM). */
  readonly reasoningField?: "reasoning_content" | "reasoning";
  /** false: function-call actions stream as content (tool_choice "none"). Default true. */
  readonly toolCalls?: boolean;
  /** false: ask to stop after the first complete call (see `wantsStop`). Default true. */
  readonly parallelToolCalls?: boolean;
  /** stream_options.include_usage: `usage: null` on each chunk, then a usage chunk with `choices: []`. */
  readonly includeUsage?: boolean;
}

const A_NONE = 0;
/** A function call: name and fragments held until action end. */
const A_CALL = 1;
/** Any other action: raw text streamed as content. */
const A_TEXT = 2;

export class ChunkWriter implements DecoderHandler {
  readonly id: string;
  private readonly hex: string;
  private readonly created: number;
  private readonly model: string;
  private readonly format: FormatName;
  private readonly sink: ChunkSink;
  private readonly reasoningField: "reasoning_content" | "reasoning";
  private readonly toolCalls: boolean;
  private readonly parallel: boolean;
  private readonly includeUsage: boolean;
  private action = A_NONE;
  private fragments: string[] = [];
  private calls = 0;
  private stopInfo: StopInfo | undefined;
  private started = false;
  private finished = false;
  private errorCount = 0;
  private firstError: DecoderError | undefined;
  private malformed = 0;

  constructor(sink: ChunkSink, options: ChunkWriterOptions) {
    this.sink = sink;
    this.hex = (options.random ?? randomHex24)();
    this.id = responseId(this.hex);
    this.created = options.created ?? Math.floor(Date.now() / 1000);
    this.model = options.model;
    this.format = options.format;
    this.reasoningField = options.reasoningField ?? "reasoning_content";
    this.toolCalls = options.toolCalls ?? true;
    this.parallel = options.parallelToolCalls ?? true;
    this.includeUsage = options.includeUsage ?? false;
  }

  /** The first chunk: `{role: "assistant", content: ""}` (vLLM's shape). */
  start(): void {
    if (this.started) throw new TypeError("start() called twice");
    this.started = true;
    this.emit({ role: "assistant", content: "" }, null);
  }

  /** true once parallel_tool_calls=false has its one call: stop the engine and end the decoder. */
  get wantsStop(): boolean {
    return !this.parallel && this.calls > 0;
  }

  get toolCallCount(): number {
    return this.calls;
  }

  get stopReason(): StopReason | undefined {
    return this.stopInfo?.reason;
  }

  get stop(): StopInfo | undefined {
    return this.stopInfo;
  }

  /** Decoder protocol errors seen (reported in the server's log line, not sent to the client). */
  get decoderErrors(): { readonly count: number; readonly first?: DecoderError } {
    return this.firstError === undefined
      ? { count: this.errorCount }
      : { count: this.errorCount, first: this.firstError };
  }

  /** Function-call actions that did not parse and went out as content. */
  get malformedCalls(): number {
    return this.malformed;
  }

  /** The finish_reason chunk, then (include_usage) the usage chunk. Returns the finish reason. */
  finish(promptTokens: number, completionTokens: number): FinishReason {
    if (!this.started) throw new TypeError("finish() before start()");
    if (this.finished) throw new TypeError("finish() called twice");
    this.finished = true;
    const reason = finishReason(this.stopInfo?.reason, this.calls);
    this.emit({}, reason);
    if (this.includeUsage) {
      const usage: Usage = {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      };
      this.sink.chunk({ ...this.base(), choices: [], usage });
    }
    return reason;
  }

  onMessageStart(_role: string, _metadata: string): void {}

  onText(text: string): void {
    this.emit({ content: text }, null);
  }

  onReasoning(text: string): void {
    this.emit(this.reasoningField === "reasoning" ? { reasoning: text } : { reasoning_content: text }, null);
  }

  onActionStart(kind: string): void {
    if (this.wantsStop) return;
    this.action = this.toolCalls && isToolCallKind(this.format, kind) ? A_CALL : A_TEXT;
    this.fragments = [];
  }

  onActionText(text: string): void {
    if (this.action === A_TEXT) this.emit({ content: text }, null);
  }

  onToolCallName(_name: string): void {
    // The name is taken from the parsed call at action end (the same string).
  }

  onToolCallArguments(text: string): void {
    if (this.action === A_CALL) this.fragments.push(text);
  }

  onActionEnd(end: ActionEnd): void {
    const mode = this.action;
    this.action = A_NONE;
    if (mode !== A_CALL) return;
    const fragments = this.fragments;
    this.fragments = [];
    if (end.call === undefined || end.error !== undefined) {
      this.malformed++;
      if (end.raw !== "") this.emit({ content: end.raw }, null);
      return;
    }
    if (this.wantsStop) return;
    const index = this.calls++;
    this.emit(
      {
        tool_calls: [
          {
            index,
            id: toolCallId(this.hex, index),
            type: "function",
            function: { name: end.call.name, arguments: "" },
          },
        ],
      },
      null,
    );
    // The streamed fragments are the raw arguments value; OpenAI clients expect a JSON object
    // text. Anything else (no arguments key, a string or array value) goes out as the parsed
    // call's arguments object, compact. One JSON.parse per call end, linear in its size.
    const pieces = isObjectText(fragments) ? fragments : [JSON.stringify(end.call.arguments)];
    for (const arguments_ of pieces)
      this.emit({ tool_calls: [{ index, function: { arguments: arguments_ } }] }, null);
  }

  onMessageEnd(): void {}

  onStop(stop: StopInfo): void {
    this.stopInfo = stop;
  }

  onError(error: DecoderError): void {
    this.errorCount++;
    this.firstError ??= error;
  }

  private base(): Omit<ChatCompletionChunk, "choices"> {
    return { id: this.id, object: "chat.completion.chunk", created: this.created, model: this.model };
  }

  private emit(delta: ChunkDelta, finish: FinishReason | null): void {
    const chunk: ChatCompletionChunk = {
      ...this.base(),
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(this.includeUsage ? { usage: null } : {}),
    };
    this.sink.chunk(chunk);
  }
}

function isObjectText(fragments: readonly string[]): boolean {
  if (fragments.length === 0) return false;
  try {
    const v: unknown = JSON.parse(fragments.join(""));
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}
