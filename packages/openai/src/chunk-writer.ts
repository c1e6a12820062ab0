// Decoder events -> chat.completion.chunk objects, pushed to a sink (docs/openai.md).
//
// One writer per response. It is a DecoderHandler: hand it to createDecoder(spec, writer,
// {streamToolCalls: true}). Lifecycle: start() (the role chunk), the decoder's callbacks,
// finish(usage) (the finish_reason chunk, then the usage chunk when asked).
//
// Tool calls, two policies (option toolCallStreaming, docs/openai.md "Tool-call streaming"):
//
// "per-call" (default here; always for a format whose call body is converted to JSON at its end,
// such as ChatGLM3's Python tool_call(...): tool-kinds.ts streamsCallArguments): a call's name and argument fragments are held until its action
// ends. Then
//   parsed   -> one delta {index, id, type: "function", function: {name, arguments: ""}}
//               (id: the call id the model wrote, when its format writes one, else ours),
//               then one delta {index, function: {arguments}} per held fragment, in order
//               (id, type and name are never sent again);
//   malformed (the decoder's action_end error, incl. a call cut by max_tokens/stop)
//            -> the action's raw text as ordinary content; no tool_calls delta at all.
//
// "incremental" (calls written as JSON): the decoder's scanner validates the JSON as it
// arrives and forwards argument text only while the text so far is a valid JSON prefix. The
// header delta goes out once the name is known AND the arguments value has begun as an object
// ("{"); from then on every fragment is forwarded as it comes. Its id is always ours: a call
// id the model writes may come after the arguments, when the header is out. Held until then (and sent per
// call at the end): calls whose arguments come before the name, are absent, or are not an
// object. A call whose header went out and that then fails (malformed JSON later on, cut by
// max_tokens / stop / end of input, or a streamed value that differs from the parsed call:
// duplicate keys) cannot be taken back: the writer then sends nothing more for the response
// and finish() reports it through sink.error() instead of a finish_reason chunk (the server
// sends an SSE error event, so the official client throws instead of completing with half a
// call). `failedCall` tells the caller to stop the engine.
//
// Memory: the held fragments are bounded by the decoder's maxBufferedChars (it holds the same
// raw text); incremental mode also keeps the streamed text of the open call for the final
// check (same bound).
//
// Actions that are not function calls (interpreter code; every action when tool calls are off,
// tool_choice "none") stream their raw text as content as it arrives.
//
// jsonContent (a response_format request): the content goes through ./json-fence.ts, which
// drops a Markdown fence around the JSON (held: a possible opening at the start, a possible
// closing at the end; anything held goes out before an action's text and at finish()).
import type { ActionEnd, DecoderError, DecoderHandler, StopInfo, StopReason } from "@chatwire/stream-decoder";
import type { FormatName, Grammar } from "@chatwire/tokenizer";
import { finishReason } from "./finish-reason.ts";
import { type RandomHex, randomHex24, responseId, toolCallId } from "./ids.ts";
import { JsonFenceFilter } from "./json-fence.ts";
import { familyGrammar, streamsCallArguments, toolCallKinds } from "./tool-kinds.ts";
import type { ChatCompletionChunk, ChunkDelta, FinishReason, Usage } from "./wire.ts";

export interface ChunkSink {
  chunk(chunk: ChatCompletionChunk): void;
  /**
   * Incremental tool-call streaming only: a call whose header was sent turned out malformed;
   * the response must end with this error instead of a finish_reason (see above).
   */
  error?(error: StreamError): void;
}

/** The body of the SSE error event that ends a response whose streamed call failed. */
export interface StreamError {
  readonly error: {
    readonly message: string;
    readonly type: "server_error";
    readonly param: null;
    readonly code: "malformed-tool-call";
  };
}

export type ToolCallStreaming = "incremental" | "per-call";

export interface ChunkWriterOptions {
  /** The format's name; its grammar (a known family's) decides which actions are calls. */
  readonly format: FormatName;
  /** The format's decoder grammar, when it is not a known family's (e.g. a template format's). */
  readonly grammar?: Grammar;
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
  /** Tool-call argument streaming (see above). Default "per-call", and always for calls converted at their end. */
  readonly toolCallStreaming?: ToolCallStreaming;
  /**
   * The request asked for JSON (response_format json_object / json_schema): content the model
   * wrapped in a ```json fence goes out without the fence (./json-fence.ts). Default false.
   */
  readonly jsonContent?: boolean;
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
  /** Whether an action kind is a function call (from the format's grammar). */
  private readonly isCall: (kind: string) => boolean;
  private readonly sink: ChunkSink;
  private readonly reasoningField: "reasoning_content" | "reasoning";
  private readonly toolCalls: boolean;
  private readonly parallel: boolean;
  private readonly includeUsage: boolean;
  private readonly incremental: boolean;
  private action = A_NONE;
  private fragments: string[] = [];
  /** Tool-call headers sent (the next call's index). */
  private calls = 0;
  /** Calls that completed (parsed and fully sent). */
  private completed = 0;
  // ---- the open call, incremental mode ----
  private callName: string | undefined;
  /** Index of the open call once its header went out, else -1. */
  private openIndex = -1;
  /** The arguments value starts with "{" (known with the first fragment). */
  private objectArgs = false;
  private sawArgs = false;
  /** Every argument fragment of the open call (for the end check). */
  private streamed: string[] = [];
  private failure: StreamError | undefined;
  private stopInfo: StopInfo | undefined;
  private started = false;
  private finished = false;
  private errorCount = 0;
  private firstError: DecoderError | undefined;
  private malformed = 0;
  /** jsonContent: the content's fence filter, else null. */
  private readonly fence: JsonFenceFilter | null;

  constructor(sink: ChunkSink, options: ChunkWriterOptions) {
    this.sink = sink;
    this.hex = (options.random ?? randomHex24)();
    this.id = responseId(this.hex);
    this.created = options.created ?? Math.floor(Date.now() / 1000);
    this.model = options.model;
    const grammar = options.grammar ?? familyGrammar(options.format);
    this.isCall = grammar === undefined ? () => false : toolCallKinds(grammar);
    this.reasoningField = options.reasoningField ?? "reasoning_content";
    this.toolCalls = options.toolCalls ?? true;
    this.parallel = options.parallelToolCalls ?? true;
    this.includeUsage = options.includeUsage ?? false;
    this.incremental = options.toolCallStreaming === "incremental" && streamsCallArguments(grammar);
    this.fence = options.jsonContent === true ? new JsonFenceFilter() : null;
  }

  /** The first chunk: `{role: "assistant", content: ""}` (vLLM's shape). */
  start(): void {
    if (this.started) throw new TypeError("start() called twice");
    this.started = true;
    this.emit({ role: "assistant", content: "" }, null);
  }

  /** true once parallel_tool_calls=false has its one call: stop the engine and end the decoder. */
  get wantsStop(): boolean {
    return this.failure !== undefined || (!this.parallel && this.completed > 0);
  }

  /** Incremental mode: a call whose header was sent failed; the response ends with an error. */
  get failedCall(): StreamError | undefined {
    return this.failure;
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
    if (this.failure !== undefined) {
      this.sink.error?.(this.failure);
      return "stop";
    }
    const rest = this.fence?.end() ?? "";
    if (rest !== "") this.emit({ content: rest }, null);
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
    if (this.failure !== undefined) return;
    if (this.fence === null) this.emit({ content: text }, null);
    else {
      const t = this.fence.push(text);
      if (t !== "") this.emit({ content: t }, null);
    }
  }

  onReasoning(text: string): void {
    if (this.failure !== undefined) return;
    this.emit(this.reasoningField === "reasoning" ? { reasoning: text } : { reasoning_content: text }, null);
  }

  onActionStart(kind: string): void {
    // Content held by the fence filter goes out before anything the action may send.
    const held = this.fence?.release() ?? "";
    if (held !== "" && this.failure === undefined) this.emit({ content: held }, null);
    if (this.wantsStop) return;
    this.action = this.toolCalls && this.isCall(kind) ? A_CALL : A_TEXT;
    this.fragments = [];
    this.callName = undefined;
    this.openIndex = -1;
    this.objectArgs = false;
    this.sawArgs = false;
    this.streamed = [];
  }

  onActionText(text: string): void {
    if (this.action === A_TEXT) this.emit({ content: text }, null);
  }

  onToolCallName(name: string): void {
    if (this.action !== A_CALL || !this.incremental) return;
    // Per-call mode takes the name from the parsed call at action end (the same string).
    this.callName = name;
    this.open();
  }

  onToolCallArguments(text: string): void {
    if (this.action !== A_CALL) return;
    if (!this.incremental) {
      this.fragments.push(text);
      return;
    }
    if (!this.sawArgs) {
      this.sawArgs = true;
      this.objectArgs = text.charCodeAt(0) === 123;
    }
    this.streamed.push(text);
    if (this.openIndex >= 0) this.sendArgs(this.openIndex, text);
    else {
      this.fragments.push(text);
      this.open();
    }
  }

  onActionEnd(end: ActionEnd): void {
    const mode = this.action;
    this.action = A_NONE;
    if (mode !== A_CALL) return;
    const fragments = this.fragments;
    this.fragments = [];
    if (this.openIndex >= 0) {
      this.endOpenCall(end);
      return;
    }
    if (end.call === undefined || end.error !== undefined) {
      this.malformed++;
      if (end.raw !== "") this.emit({ content: end.raw }, null);
      return;
    }
    if (this.wantsStop) return;
    const index = this.header(end.call.name, end.call.id);
    // The streamed fragments are the raw arguments value; OpenAI clients expect a JSON object
    // text. Anything else (no arguments key, a string or array value) goes out as the parsed
    // call's arguments object, compact. One JSON.parse per call end, linear in its size.
    const pieces = isObjectText(fragments) ? fragments : [JSON.stringify(end.call.arguments)];
    for (const arguments_ of pieces) this.sendArgs(index, arguments_);
    this.completed++;
  }

  /** Incremental: the header once the name is known and the arguments began as an object. */
  private open(): void {
    if (this.openIndex >= 0 || this.callName === undefined || !this.objectArgs || this.wantsStop) return;
    this.openIndex = this.header(this.callName);
    if (this.fragments.length > 0) this.sendArgs(this.openIndex, this.fragments.join(""));
    this.fragments = [];
  }

  /** Incremental: the end of a call whose header was sent. */
  private endOpenCall(end: ActionEnd): void {
    const index = this.openIndex;
    this.openIndex = -1;
    const streamed = this.streamed.join("");
    this.streamed = [];
    let problem: string | undefined;
    if (end.call === undefined || end.error !== undefined) problem = end.error ?? "the call did not parse";
    else if (end.call.name !== this.callName) problem = "the call names two functions";
    else if (!sameArguments(streamed, end.call.arguments))
      problem = "the streamed arguments differ from the parsed call (duplicate keys)";
    if (problem === undefined) {
      this.completed++;
      return;
    }
    this.malformed++;
    this.failure = {
      error: {
        message: `tool call ${index} was malformed after its arguments began streaming: ${problem.slice(0, 200)}`,
        type: "server_error",
        param: null,
        code: "malformed-tool-call",
      },
    };
  }

  /** A call's header delta; `id`: the call id the model wrote (ActionCall.id), else one of ours. */
  private header(name: string, id?: string): number {
    const index = this.calls++;
    this.emit(
      {
        tool_calls: [
          {
            index,
            id: id ?? toolCallId(this.hex, index),
            type: "function",
            function: { name, arguments: "" },
          },
        ],
      },
      null,
    );
    return index;
  }

  private sendArgs(index: number, text: string): void {
    this.emit({ tool_calls: [{ index, function: { arguments: text } }] }, null);
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

/** The streamed arguments text is JSON for exactly the parsed call's arguments (key order too). */
function sameArguments(text: string, args: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(args);
  } catch {
    return false;
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
