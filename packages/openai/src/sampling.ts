// What an engine is asked to honour besides the prompt. Every field is optional: an absent
// field means the engine's default. The decoder enforces `maxTokens` and `stop` itself, so an
// engine only has to stop when asked (abort) and may ignore them. The other fields are the
// OpenAI / vLLM sampling parameters; an engine declares which of them it honours
// (`SamplingParam`), and a request setting one it does not is a 400 naming the engine and the
// field (docs/openai.md "Sampling").

/** `response_format` other than text: a JSON object, or one that validates against `schema`. */
export type ResponseFormat =
  | { readonly type: "json_object" }
  | {
      readonly type: "json_schema";
      readonly name: string;
      readonly schema: { readonly [k: string]: unknown };
    };

export interface SamplingOptions {
  /** Upper bound on generated tokens (max_completion_tokens, else max_tokens, else server default). */
  readonly maxTokens?: number;
  /** Stop strings (OpenAI `stop`, string or list), matched by the decoder across tokens. */
  readonly stop: readonly string[];
  readonly seed?: number;
  readonly temperature?: number;
  readonly topP?: number;
  /** vLLM `top_k`: keep the k most likely tokens (absent, 0 or -1: off). */
  readonly topK?: number;
  /** vLLM `min_p`: drop tokens below min_p x the top probability. */
  readonly minP?: number;
  /** vLLM `repetition_penalty` (1: off). */
  readonly repetitionPenalty?: number;
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
  /** OpenAI `logit_bias`: token ID -> bias added to its logit (-100..100). */
  readonly logitBias?: ReadonlyMap<number, number>;
  readonly responseFormat?: ResponseFormat;
}

/** The request parameter each optional sampling field comes from (what an engine declares). */
export const SAMPLING_PARAMS = {
  seed: "seed",
  temperature: "temperature",
  topP: "top_p",
  topK: "top_k",
  minP: "min_p",
  repetitionPenalty: "repetition_penalty",
  presencePenalty: "presence_penalty",
  frequencyPenalty: "frequency_penalty",
  logitBias: "logit_bias",
  responseFormat: "response_format",
} as const;

export type SamplingParam = (typeof SAMPLING_PARAMS)[keyof typeof SAMPLING_PARAMS];

/** Every sampling parameter (an engine that honours them all, or does not sample: replay). */
export const ALL_SAMPLING_PARAMS: ReadonlySet<SamplingParam> = new Set(Object.values(SAMPLING_PARAMS));

/**
 * The first parameter `s` sets that the engine does not honour, or undefined. A parameter at its
 * "off" value (penalties 0, repetition_penalty 1, top_k 0/-1, empty logit_bias) is never asked for:
 * mapSampling leaves it out.
 */
export function unhonoured(
  s: SamplingOptions,
  honours: ReadonlySet<SamplingParam>,
): SamplingParam | undefined {
  for (const [field, param] of Object.entries(SAMPLING_PARAMS) as [
    keyof typeof SAMPLING_PARAMS,
    SamplingParam,
  ][])
    if (s[field] !== undefined && !honours.has(param)) return param;
  return undefined;
}
