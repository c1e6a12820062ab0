// What chatwire needs from an inference engine: prompt IDs and sampling options in, an async
// stream of generated token IDs out, abort through the signal. Nothing else: chatwire encodes
// the prompt (the engine's tokenizer never sees caller text) and decodes the output.
import type { SamplingOptions, SamplingParam } from "@chatwire/openai";

export interface GenerateRequest {
  readonly promptIds: readonly number[];
  readonly sampling: SamplingOptions;
  /** Aborted when the client goes away, the decoder stopped, or a time limit passed. */
  readonly signal: AbortSignal;
}

export interface Engine {
  /** For logs and /v1/models ("replay", "llama-cpp", "vllm", "sglang"). */
  readonly name: string;
  /**
   * The sampling parameters it honours; a request setting another one is a 400 naming the
   * engine and the field. Absent: all (an engine that does not sample, such as replay).
   */
  readonly sampling?: ReadonlySet<SamplingParam>;
  /**
   * Generated IDs in batches, in order, until the engine stops (its EOS, maxTokens) or the
   * signal aborts. Pulled: an engine generates no further than its consumer has read (plus
   * what is in flight), which is how HTTP backpressure reaches it. Errors reject the iterator.
   */
  generate(request: GenerateRequest): AsyncIterable<readonly number[]>;
  /** Frees the engine's resources (model, context, sockets). */
  close(): Promise<void>;
}

/**
 * Why an engine failed: unreachable, answered with an error, broke its protocol, or sent nothing
 * within a time limit. The message is for the log only (it may quote the upstream); clients get
 * a fixed text per type (http/respond.ts). "engine-refused" is the exception: the engine cannot
 * do what this request asks (a response_format schema it cannot make a grammar of); its message,
 * written by chatwire about the caller's own request, is the client's 400.
 */
export type EngineErrorType =
  | "engine-unavailable"
  | "engine-failed"
  | "engine-protocol"
  | "engine-timeout"
  | "engine-refused";

const MARK = Symbol.for("chatwire.server.EngineError");

export class EngineError extends Error {
  override readonly name = "EngineError";
  readonly type: EngineErrorType;
  readonly [MARK] = true;
  constructor(type: EngineErrorType, message: string) {
    super(message);
    this.type = type;
  }

  static isInstance(v: unknown): v is EngineError {
    return typeof v === "object" && v !== null && (v as { [MARK]?: unknown })[MARK] === true;
  }
}
