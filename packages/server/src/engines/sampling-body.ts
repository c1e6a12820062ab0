// The sampling part of an upstream request body, shared by the HTTP engines: every parameter
// under its OpenAI / vLLM name (SAMPLING_PARAMS), logit_bias as a JSON object keyed by token ID.
// What differs per engine is data: the name of the seed field and the shape of response_format.
import { type ResponseFormat, SAMPLING_PARAMS, type SamplingOptions } from "@chatwire/openai";

export interface UpstreamSamplingShape {
  /** The body field the seed goes in. */
  readonly seedKey: string;
  /** The body fields that carry a response_format other than text. */
  readonly responseFormat: (f: ResponseFormat) => Record<string, unknown>;
}

export function upstreamSampling(s: SamplingOptions, shape: UpstreamSamplingShape): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, param] of Object.entries(SAMPLING_PARAMS) as [keyof typeof SAMPLING_PARAMS, string][]) {
    if (field === "seed" || field === "responseFormat") continue;
    const v = s[field];
    if (v !== undefined) body[param] = v instanceof Map ? Object.fromEntries(v) : v;
  }
  if (s.seed !== undefined) body[shape.seedKey] = s.seed;
  if (s.responseFormat !== undefined) Object.assign(body, shape.responseFormat(s.responseFormat));
  return body;
}
