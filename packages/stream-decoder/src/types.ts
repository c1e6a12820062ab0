// The decoder's public shapes: its options and the per-stream interface every createDecoder()
// result has. In their own file so the engine files, the turn layer and createDecoder import
// them without importing each other.
import type { StopStrings } from "./stop-matcher.ts";

export interface DecoderOptions {
  /**
   * Stop strings, matched across tokens in text/reasoning/action text (not across markers).
   * Either the strings (compiled once per distinct set and spec, then cached) or a set
   * compiled with `compileStopStrings(spec, strings)` for the same spec.
   */
  readonly stopStrings?: readonly string[] | StopStrings;
  /** Extra stop IDs, added to the format's EOS IDs (reason "stop_token"). */
  readonly stopTokenIds?: readonly number[];
  /** Stop after this many pushed IDs (reason "max_tokens"). */
  readonly maxTokens?: number;
  /** Emit the matched stop string as text before stopping. */
  readonly includeStopString?: boolean;
  /**
   * Cap on held text (header line + header name, metadata line, action raw text). Default
   * 1,000,000 chars. Beyond it: a "buffer-overflow" error event (docs/decoder.md).
   */
  readonly maxBufferedChars?: number;
  /**
   * Report tool calls for OpenAI-style streaming: onToolCallName / onToolCallArguments (the
   * body syntax of the block streams them, ./syntax/). Default false: then no sink exists and
   * body parsers only parse at the block's close.
   */
  readonly streamToolCalls?: boolean;
  /**
   * The request's tools (OpenAI tool objects `{type: "function", function: {name, parameters}}`
   * or bare `{name, parameters}`). They enable the grammar's plainTextToolCall (a call written
   * as plain JSON text) and reach body parsers as JSON schemas by name (typing of values the
   * model writes as text). Without them, such text is content.
   */
  readonly tools?: readonly unknown[];
}

export interface Decoder {
  /**
   * One generated token ID. Never throws for an integer (any integer: IDs outside the
   * vocabulary are "unknown-token" error events). Caller misuse throws TypeError: an ID that
   * is not an integer number (a string such as "5" included), or push() after end().
   */
  push(id: number): void;
  /** push() for each ID in order (same rules). */
  pushMany(ids: ArrayLike<number>): void;
  /** Flushes what is held and stops ("end_of_input" unless already stopped). Idempotent. */
  end(): void;
  reset(): void;
  readonly stopped: boolean;
}
