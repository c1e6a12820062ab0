// What every route needs, built once per server: the tokenizer and its compiled decoder spec,
// the engine, the limits, the limiter, and the per-request log record.
import type { ToolCallStreaming } from "@chatwire/openai";
import type { Engine } from "./engine.ts";
import type { Limiter } from "./limiter.ts";
import type { ServedTokenizer } from "./served-tokenizer.ts";

export interface ServeLimits {
  /** Generations running at once. Default 4. */
  readonly maxConcurrent: number;
  /** Requests waiting for a slot; beyond it 429. Default 64. */
  readonly maxQueue: number;
  /** Request body bytes; beyond it 413. Default 4 MiB. */
  readonly maxBodyBytes: number;
  /**
   * Body bytes held by all requests that have no generation slot yet (being read, parsed or
   * queued); a request that would go beyond it gets 503 `server-busy`. Default 16 x maxBodyBytes.
   */
  readonly maxPendingBodyBytes: number;
  /** Open connections; beyond it new ones are closed at once. Default 256. */
  readonly maxConnections: number;
  /** A request's headers must arrive within this many ms of its start, else 408. Default 10,000. */
  readonly headersTimeoutMs: number;
  /** A request's headers and body must arrive within this many ms, else 408. Default 30,000. */
  readonly requestReadTimeoutMs: number;
  /** Whole-request time limit, ms (queue wait + generation); then the generation is stopped. Default 300,000. */
  readonly requestTimeoutMs: number;
  /** max_tokens when a request gives none. Default 512. */
  readonly defaultMaxTokens: number;
  /** Prompt + max_tokens must fit; beyond it 400. Default 32,768. */
  readonly maxModelLen: number;
}

export const DEFAULT_LIMITS: ServeLimits = {
  maxConcurrent: 4,
  maxQueue: 64,
  maxBodyBytes: 4 * 1024 * 1024,
  maxPendingBodyBytes: 16 * 4 * 1024 * 1024,
  maxConnections: 256,
  headersTimeoutMs: 10_000,
  requestReadTimeoutMs: 30_000,
  requestTimeoutMs: 300_000,
  defaultMaxTokens: 512,
  maxModelLen: 32_768,
};

/** One structured log line per request (docs/serve.md "Logs"). Fields are filled as known. */
export interface RequestLog {
  time: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  stream?: boolean;
  prompt_tokens?: number;
  completion_tokens?: number;
  /** Request received -> first engine ID. */
  engine_first_ms?: number;
  /** Request received -> first chunk with model output written. */
  ttft_ms?: number;
  /**
   * Time chatwire itself spent before the client saw the first output: reading + encoding the
   * request, plus decode/chunk/write time from the arrival of the engine batch that produced the
   * first output to its chunk being written. Engine time (prefill, IDs before any output such as
   * a lone <think>) and queue wait are excluded.
   */
  chatwire_ttft_ms?: number;
  queue_ms?: number;
  stop?: string;
  finish_reason?: string;
  /** Caller text that looked like a reserved token (encoded as text). */
  audit?: number;
  decoder_errors?: number;
  malformed_tool_calls?: number;
  outcome?: string;
  error?: string;
  /** Unknown fields dropped under unknownFields "ignore" (at most 16 names; ./ignored-fields.ts). */
  ignored_fields?: string[];
  /** How many unknown fields were dropped, when more than the names listed. */
  ignored_fields_count?: number;
}

/**
 * The served tokenizer's parts every route reads (./served-tokenizer.ts: a native family's
 * tokenizer or a template-only model's), and the server's own settings.
 */
export interface ServerContext
  extends Pick<
    ServedTokenizer,
    "tokenizer" | "spec" | "specFor" | "startBlockClose" | "grammar" | "prefill"
  > {
  readonly engine: Engine;
  readonly modelId: string;
  readonly limits: ServeLimits;
  readonly limiter: Limiter;
  /** Reasoning field of chat chunks: "reasoning_content" (default) or "reasoning". */
  readonly reasoningField: "reasoning_content" | "reasoning";
  /** Streamed tool-call arguments: "incremental" or "per-call" (non-streaming: always per-call). */
  readonly toolCallStreaming: ToolCallStreaming;
  /** Unknown request and message fields: "reject" (400) or "ignore" (dropped and reported). */
  readonly unknownFields: "reject" | "ignore";
}
