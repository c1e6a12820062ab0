// What an engine is asked to honour besides the prompt. Every field is optional: an absent
// field means the engine's default. The decoder enforces `maxTokens` and `stop` itself, so an
// engine only has to stop when asked (abort) and may ignore them.

export interface SamplingOptions {
  /** Upper bound on generated tokens (max_completion_tokens, else max_tokens, else server default). */
  readonly maxTokens?: number;
  /** Stop strings (OpenAI `stop`, string or list), matched by the decoder across tokens. */
  readonly stop: readonly string[];
  readonly seed?: number;
  readonly temperature?: number;
  readonly topP?: number;
}
