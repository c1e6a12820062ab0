// SGLang as a token-ID upstream: POST {upstream}/generate with `input_ids` (chatwire's prompt
// IDs), `stream: true`, sampling_params {max_new_tokens, temperature, top_p, sampling_seed};
// the stream's `data:` objects carry `output_ids` and meta_info.completion_tokens. By default
// SGLang sends the cumulative output so far; with --incremental-streaming-output only the new
// IDs. Both are handled: the index of output_ids[0] in the whole output is
// completion_tokens - output_ids.length, so the new IDs are those past what was already yielded
// (without meta_info, cumulative is assumed); the IDs before them must be those yielded. Published protocol: SGLang's native /generate API.
import { ALL_SAMPLING_PARAMS, type SamplingOptions, type SamplingParam } from "@chatwire/openai";
import { type Engine, EngineError } from "../engine.ts";
import { type UpstreamSamplingShape, upstreamSampling } from "./sampling-body.ts";
import {
  checkErrorEvent,
  checkId,
  idStreamEngine,
  isObj,
  probeHealth,
  type UpstreamOptions,
} from "./upstream.ts";

/**
 * The IDs of one SGLang chunk not yielded yet, given the IDs yielded so far. A chunk must agree
 * with them where it overlaps (output that rewrites earlier tokens is a protocol error), and
 * meta_info.completion_tokens, when present, must be a whole count covering output_ids.
 */
export function sglangNewIds(chunk: unknown, yielded: readonly number[]): number[] {
  checkErrorEvent("SGLang", chunk);
  if (!isObj(chunk)) throw new EngineError("engine-protocol", "SGLang chunk is not an object");
  if (!Array.isArray(chunk.output_ids))
    throw new EngineError("engine-protocol", "SGLang chunk without output_ids");
  const ids = chunk.output_ids.map(checkId);
  const meta = chunk.meta_info;
  const count = isObj(meta) ? meta.completion_tokens : undefined;
  if (
    count !== undefined &&
    (typeof count !== "number" || !Number.isSafeInteger(count) || count < ids.length)
  )
    throw new EngineError("engine-protocol", "SGLang meta_info.completion_tokens is not a whole count");
  const total = count ?? ids.length;
  const offset = total - ids.length;
  if (offset > yielded.length) throw new EngineError("engine-protocol", "SGLang output_ids skip tokens");
  // The overlap with what was already yielded (cumulative output): it must not change.
  const seen = yielded.length - offset;
  for (let i = 0; i < seen && i < ids.length; i++)
    if (ids[i] !== yielded[offset + i])
      throw new EngineError("engine-protocol", "SGLang output_ids rewrite earlier tokens");
  return ids.slice(seen);
}

/** Every sampling parameter: SGLang's sampling_params take them all (JSON schemas as text). */
export const SGLANG_SAMPLING: ReadonlySet<SamplingParam> = ALL_SAMPLING_PARAMS;

const SGLANG_SHAPE: UpstreamSamplingShape = {
  seedKey: "sampling_seed",
  responseFormat: (f) => ({
    json_schema: JSON.stringify(f.type === "json_schema" ? f.schema : { type: "object" }),
  }),
};

/** The sampling part of SGLang's sampling_params (its own names: sampling_seed, json_schema text). */
export function sglangSampling(s: SamplingOptions): Record<string, unknown> {
  return upstreamSampling(s, SGLANG_SHAPE);
}

export async function createSglangEngine(o: UpstreamOptions): Promise<Engine> {
  await probeHealth(o);
  return idStreamEngine(o, {
    name: "sglang",
    who: "SGLang",
    path: "/generate",
    sampling: SGLANG_SAMPLING,
    body: (req) => ({
      input_ids: req.promptIds,
      stream: true,
      sampling_params: {
        max_new_tokens: req.sampling.maxTokens,
        skip_special_tokens: false,
        ...sglangSampling(req.sampling),
      },
    }),
    reader() {
      // Every ID yielded, to check cumulative chunks against (the decoder ends the run at max_tokens).
      const yielded: number[] = [];
      return (chunk) => {
        const ids = sglangNewIds(chunk, yielded);
        for (const id of ids) yielded.push(id);
        return ids;
      };
    },
  });
}
