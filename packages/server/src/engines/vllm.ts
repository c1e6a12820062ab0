// vLLM as a token-ID upstream: POST {upstream}/v1/completions with the prompt as token IDs
// (chatwire encoded it; vLLM's tokenizer never sees caller text), streamed, with
// `return_tokens_as_token_ids` + `logprobs: 0` so every generated token arrives as the string
// "token_id:<id>" in choices[0].logprobs.tokens; a chunk's choices[0].token_ids (the newer
// `return_token_ids` field) is used instead when present. `skip_special_tokens: false` and
// `include_stop_str_in_output`-free defaults: chatwire's decoder applies stops itself.
// Published protocol: vLLM's OpenAI-compatible server, "Completions API" extra parameters.
import { ALL_SAMPLING_PARAMS, type SamplingOptions, type SamplingParam } from "@chatwire/openai";
import { type Engine, EngineError } from "../engine.ts";
import { type UpstreamSamplingShape, upstreamSampling } from "./sampling-body.ts";
import {
  checkErrorEvent,
  checkId,
  discoverModel,
  idStreamEngine,
  isObj,
  type UpstreamOptions,
} from "./upstream.ts";

export type { UpstreamOptions };

/** IDs of one vLLM completions chunk: choices[0].token_ids, else "token_id:N" logprob tokens. */
export function vllmChunkIds(chunk: unknown): number[] {
  checkErrorEvent("vLLM", chunk);
  if (!isObj(chunk) || !Array.isArray(chunk.choices))
    throw new EngineError("engine-protocol", "vLLM chunk without choices");
  const c: unknown = chunk.choices[0];
  if (c === undefined) return [];
  if (!isObj(c)) throw new EngineError("engine-protocol", "vLLM choice is not an object");
  if (Array.isArray(c.token_ids)) return c.token_ids.map(checkId);
  const lp = c.logprobs;
  if (lp === null || lp === undefined) return [];
  if (!isObj(lp) || !Array.isArray(lp.tokens))
    throw new EngineError("engine-protocol", "vLLM chunk without logprobs.tokens");
  return lp.tokens.map((t: unknown) => {
    const m = typeof t === "string" ? /^token_id:(\d+)$/.exec(t) : null;
    if (m === null)
      throw new EngineError(
        "engine-protocol",
        "vLLM token is not token_id:N (return_tokens_as_token_ids off?)",
      );
    return checkId(Number(m[1]));
  });
}

/** Every sampling parameter: vLLM's completions API takes them all (passed through as named). */
export const VLLM_SAMPLING: ReadonlySet<SamplingParam> = ALL_SAMPLING_PARAMS;

const VLLM_SHAPE: UpstreamSamplingShape = {
  seedKey: "seed",
  responseFormat: (f) =>
    f.type === "json_object"
      ? { response_format: { type: "json_object" } }
      : { response_format: { type: "json_schema", json_schema: { name: f.name, schema: f.schema } } },
};

/** The sampling part of a vLLM /v1/completions body (vLLM's own parameter names). */
export function vllmSampling(s: SamplingOptions): Record<string, unknown> {
  return upstreamSampling(s, VLLM_SHAPE);
}

export async function createVllmEngine(o: UpstreamOptions): Promise<Engine> {
  const model = await discoverModel(o);
  return idStreamEngine(o, {
    name: "vllm",
    who: "vLLM",
    path: "/v1/completions",
    sampling: VLLM_SAMPLING,
    body: (req) => ({
      model,
      prompt: req.promptIds,
      stream: true,
      max_tokens: req.sampling.maxTokens,
      logprobs: 0,
      return_tokens_as_token_ids: true,
      skip_special_tokens: false,
      ...vllmSampling(req.sampling),
    }),
    reader: () => vllmChunkIds,
  });
}
