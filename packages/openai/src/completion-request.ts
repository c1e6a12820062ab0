// The legacy text completions request (POST /v1/completions) -> prompt + sampling. `prompt` is
// a string (encoded by chatwire as ordinary text) or a list of token IDs (vLLM's token-ID
// prompt, passed to the engine as is after a range check); one prompt per request. Same rules
// as ./request.ts: a RequestError value for anything that cannot be honoured.
import { quote40, RequestError } from "./errors.ts";
import {
  IGNORED,
  isObj,
  isOff,
  type MapOptions,
  mapSampling,
  OFF_ONLY,
  optBool,
  own,
  streamOptions,
} from "./request.ts";
import { ALL_SAMPLING_PARAMS, type SamplingOptions } from "./sampling.ts";

export type CompletionPrompt = { readonly text: string } | { readonly ids: readonly number[] };

export interface MappedCompletion {
  readonly model: string;
  readonly prompt: CompletionPrompt;
  readonly sampling: SamplingOptions;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  /** Unknown fields dropped under `unknownFields: "ignore"`; else empty (an unknown field is refused). */
  readonly ignored: readonly string[];
}

const HANDLED = new Set([
  "model",
  "prompt",
  "stream",
  "stream_options",
  "max_tokens",
  "stop",
  ...ALL_SAMPLING_PARAMS,
]);
/** Completions-only fields whose "off" value is fine. */
const OFF_HERE = new Set(["echo", "suffix", "best_of"]);

export function mapCompletionParams(
  body: unknown,
  options: MapOptions & { readonly vocabSize: number },
): MappedCompletion | RequestError {
  if (!isObj(body)) return new RequestError("invalid-request", "the request body must be a JSON object");
  const ignored: string[] = [];
  for (const key of Object.keys(body)) {
    if (HANDLED.has(key) || IGNORED.has(key)) continue;
    const v = body[key];
    const off = OFF_HERE.has(key)
      ? v === undefined || v === null || v === false || v === 1
      : OFF_ONLY.has(key) && isOff(key, v);
    if (OFF_HERE.has(key) || OFF_ONLY.has(key)) {
      if (!off) return new RequestError("unsupported-parameter", `${key}: this server cannot honour it`, key);
      continue;
    }
    if (options.unknownFields === "ignore") {
      ignored.push(key);
      continue;
    }
    return new RequestError("unknown-parameter", `unknown parameter ${quote40(key)}`, key);
  }
  const model = own(body, "model");
  if (typeof model !== "string" || model === "")
    return new RequestError("invalid-parameter", "model: must be a non-empty string", "model");
  let raw = own(body, "prompt");
  if (Array.isArray(raw) && raw.length === 1 && (typeof raw[0] === "string" || Array.isArray(raw[0])))
    raw = raw[0];
  let prompt: CompletionPrompt;
  if (typeof raw === "string") prompt = { text: raw };
  else if (Array.isArray(raw) && raw.length > 0) {
    for (const id of raw)
      if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0 || id >= options.vocabSize)
        return new RequestError(
          "invalid-parameter",
          `prompt: token IDs must be integers in [0, ${options.vocabSize})`,
          "prompt",
        );
    prompt = { ids: raw as number[] };
  } else
    return new RequestError(
      "invalid-parameter",
      "prompt: must be a string or a non-empty list of token IDs (one prompt per request)",
      "prompt",
    );
  const sampling = mapSampling(body, { defaultMaxTokens: 16, ...options });
  if (RequestError.isInstance(sampling)) return sampling;
  const stream = optBool(body, "stream");
  if (RequestError.isInstance(stream)) return stream;
  const iu = streamOptions(body);
  if (RequestError.isInstance(iu)) return iu;
  return { model, prompt, sampling, stream: stream ?? false, includeUsage: (stream ?? false) && iu, ignored };
}
