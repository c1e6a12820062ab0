// ChatCompletionCreateParams (untrusted JSON) -> the chat request chatwire encodes plus the
// sampling options an engine is asked to honour (docs/openai.md "Request mapping").
//
// Never throws: a request that cannot be honoured is a RequestError value (HTTP 400). Nothing
// is silently ignored except the fields listed in IGNORED (identifiers and bookkeeping that do
// not change what is generated). Reads own properties only (no prototype-chain lookups on
// caller keys). The messages themselves are validated by the tokenizer's encodeChat.

import {
  type ChatMessage,
  type ChatRequest,
  type ChatTemplateKwargs,
  MESSAGE_FIELDS,
  type ToolDefinition,
} from "@chatwire/tokenizer";
import { quote40, RequestError } from "./errors.ts";
import {
  ALL_SAMPLING_PARAMS,
  type ResponseFormat,
  type SamplingOptions,
  type SamplingParam,
  unhonoured,
} from "./sampling.ts";
import { mapToolChoice, type ToolChoice } from "./tool-choice.ts";

export interface MapOptions {
  /** max_tokens when the request gives none. Default 512. */
  readonly defaultMaxTokens?: number;
  /** Largest max_tokens accepted. Default 32,768. */
  readonly maxTokensLimit?: number;
  /** Most stop strings accepted. Default 16 (OpenAI allows 4; vLLM any number). */
  readonly maxStopStrings?: number;
  /**
   * The engine the request goes to: its name and the sampling parameters it honours. A request
   * setting another one is a 400 `unsupported-parameter` naming the engine and the field.
   * Default: every parameter (an engine that does not sample, such as replay).
   */
  readonly engine?: { readonly name: string; readonly honours: ReadonlySet<SamplingParam> };
  /**
   * Unknown request and message fields: "reject" (default: 400 `unknown-parameter`, or the
   * tokenizer's `invalid-conversation` for a message field) or "ignore" (dropped before
   * encoding and listed in MappedRequest.ignored).
   */
  readonly unknownFields?: "reject" | "ignore";
  /** The model's ID count: a logit_bias key at or above it is a 400. Default: not checked. */
  readonly vocabSize?: number;
}

/**
 * What encodeChat receives: the tokenizer's canonical ChatRequest, holding the request's
 * messages, tools and template fields as the caller sent them. Only their outer shape is checked
 * here (array / object); encodeChat validates every message and tool at run time and answers a
 * deviation with TokenizerError("invalid-conversation") naming the field (HTTP 400).
 */
export type ChatRequestInput = ChatRequest;

export interface MappedRequest {
  readonly model: string;
  readonly chat: ChatRequestInput;
  readonly sampling: SamplingOptions;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  /** false for tool_choice "none": the tools are left out of the prompt and calls stream as content. */
  readonly toolCalls: boolean;
  /** required / named: honoured by prefill (toolChoicePrefill, ./prefill.ts). */
  readonly toolChoice: ToolChoice;
  readonly parallelToolCalls: boolean;
  /** Unknown fields dropped under `unknownFields: "ignore"` ("foo", "messages[2].foo"); else empty. */
  readonly ignored: readonly string[];
}

/** Accepted and ignored: they name or file the request, they do not change the generation. */
export const IGNORED = new Set(["user", "metadata", "service_tier", "safety_identifier", "prompt_cache_key"]);

/** Understood, but only their "off" values can be honoured (no engine here does them). */
export const OFF_ONLY = new Set([
  "n",
  "logprobs",
  "top_logprobs",
  "store",
  "modalities",
  "audio",
  "prediction",
  "web_search_options",
  "functions",
  "function_call",
  "reasoning_effort",
  "verbosity",
]);

const HANDLED = new Set([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "stop",
  ...ALL_SAMPLING_PARAMS,
  // vLLM's extra parameters for the chat template
  "add_generation_prompt",
  "continue_final_message",
  "chat_template_kwargs",
  // the Qwen3 template variable at top level (the tokenizer's ChatRequest accepts it)
  "enable_thinking",
]);

export type Obj = { readonly [key: string]: unknown };

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function own(o: Obj, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

export function isOff(key: string, v: unknown): boolean {
  if (v === undefined || v === null || v === false) return true;
  switch (key) {
    case "n":
      return v === 1;
    case "top_logprobs":
      return v === 0;
    case "modalities":
      return Array.isArray(v) && v.length === 1 && v[0] === "text";
    default:
      return false;
  }
}

const bad = (param: string, message: string) =>
  new RequestError("invalid-parameter", `${param}: ${message}`, param);

function optNum(
  o: Obj,
  k: string,
  min: number,
  max: number,
  integer = false,
): number | undefined | RequestError {
  const v = own(o, k);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !(integer ? Number.isSafeInteger(v) : Number.isFinite(v)))
    return bad(k, integer ? "must be an integer" : "must be a number");
  if (v < min || v > max) return bad(k, `must be between ${min} and ${max}`);
  return v;
}

const optInt = (o: Obj, k: string, min: number, max: number): number | undefined | RequestError =>
  optNum(o, k, min, max, true);

export function optBool(o: Obj, k: string): boolean | undefined | RequestError {
  const v = own(o, k);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") return bad(k, "must be a boolean");
  return v;
}

function stops(v: unknown, max: number): string[] | RequestError {
  if (v === undefined || v === null) return [];
  const list = typeof v === "string" ? [v] : v;
  if (!Array.isArray(list)) return bad("stop", "must be a string or a list of strings");
  if (list.length > max) return bad("stop", `at most ${max} stop strings`);
  const out: string[] = [];
  for (const s of list) {
    if (typeof s !== "string" || s === "") return bad("stop", "every stop must be a non-empty string");
    if (s.length > 1000) return bad("stop", "a stop string is at most 1000 characters");
    out.push(s);
  }
  return out;
}

/** Maps one request body. A RequestError is returned, never thrown. */
export function mapChatCompletionParams(
  body: unknown,
  options: MapOptions = {},
): MappedRequest | RequestError {
  if (!isObj(body)) return new RequestError("invalid-request", "the request body must be a JSON object");
  const lenient = options.unknownFields === "ignore";
  const ignored: string[] = [];
  for (const key of Object.keys(body)) {
    if (HANDLED.has(key) || IGNORED.has(key)) continue;
    if (OFF_ONLY.has(key)) {
      if (!isOff(key, body[key]))
        return new RequestError(
          "unsupported-parameter",
          `${key}: this server cannot honour ${quote40(JSON.stringify(body[key]) ?? "")}`,
          key,
        );
      continue;
    }
    if (lenient) {
      ignored.push(key);
      continue;
    }
    return new RequestError("unknown-parameter", `unknown parameter ${quote40(key)}`, key);
  }
  const model = own(body, "model");
  if (typeof model !== "string" || model === "") return bad("model", "must be a non-empty string");
  const given = own(body, "messages");
  if (!Array.isArray(given) || given.length === 0) return bad("messages", "must be a non-empty array");
  const messages = lenient ? withoutUnknownFields(given, ignored) : given;

  const tools = own(body, "tools");
  if (tools !== undefined && tools !== null && !Array.isArray(tools)) return bad("tools", "must be an array");
  const toolChoice = mapToolChoice(own(body, "tool_choice"), tools);
  if (RequestError.isInstance(toolChoice)) return toolChoice;
  const toolCalls = toolChoice.type !== "none";

  const parallel = optBool(body, "parallel_tool_calls");
  if (RequestError.isInstance(parallel)) return parallel;
  const stream = optBool(body, "stream");
  if (RequestError.isInstance(stream)) return stream;
  const includeUsage = streamOptions(body);
  if (RequestError.isInstance(includeUsage)) return includeUsage;

  const sampling = mapSampling(body, options);
  if (RequestError.isInstance(sampling)) return sampling;

  const agp = optBool(body, "add_generation_prompt");
  if (RequestError.isInstance(agp)) return agp;
  const cfm = optBool(body, "continue_final_message");
  if (RequestError.isInstance(cfm)) return cfm;
  const kwargs = own(body, "chat_template_kwargs");
  if (kwargs !== undefined && kwargs !== null && !isObj(kwargs))
    return bad("chat_template_kwargs", "must be an object");

  const thinking = optBool(body, "enable_thinking");
  if (RequestError.isInstance(thinking)) return thinking;

  // The casts name what the caller claims to send; encodeChat checks it (see ChatRequestInput).
  const chat: ChatRequest = {
    messages: messages as readonly ChatMessage[],
    ...(toolCalls && Array.isArray(tools) && tools.length > 0
      ? { tools: tools as readonly ToolDefinition[] }
      : {}),
    ...(agp !== undefined ? { add_generation_prompt: agp } : {}),
    ...(cfm !== undefined ? { continue_final_message: cfm } : {}),
    ...(isObj(kwargs) ? { chat_template_kwargs: kwargs as ChatTemplateKwargs } : {}),
    ...(thinking !== undefined ? { enable_thinking: thinking } : {}),
  };
  return {
    model,
    chat,
    sampling,
    stream: stream ?? false,
    includeUsage: (stream ?? false) && includeUsage,
    toolCalls,
    toolChoice,
    // A named function is exactly one call (OpenAI's behaviour): stop after it.
    parallelToolCalls: toolChoice.type === "function" ? false : (parallel ?? true),
    ignored,
  };
}

const KNOWN_MESSAGE_FIELDS: ReadonlySet<string> = new Set(MESSAGE_FIELDS);

/** `stream_options` (chat and text completions alike): its include_usage, or why it is refused. */
export function streamOptions(body: { readonly [key: string]: unknown }): boolean | RequestError {
  const so = own(body, "stream_options");
  if (so === undefined || so === null) return false;
  if (!isObj(so)) return bad("stream_options", "must be an object");
  for (const k of Object.keys(so))
    if (k !== "include_usage" && k !== "include_obfuscation")
      return new RequestError(
        "unknown-parameter",
        `unknown parameter stream_options.${quote40(k)}`,
        `stream_options.${k}`,
      );
  const iu = optBool(so, "include_usage");
  if (RequestError.isInstance(iu))
    return new RequestError(iu.type, iu.message, "stream_options.include_usage");
  return iu ?? false;
}

/**
 * The messages without the fields no format knows (each listed in `ignored` as
 * "messages[i].key"); a message without any is kept as it is. Only the message's own keys are
 * looked at: a deeper unknown key (in a tool call) is still the tokenizer's error.
 */
function withoutUnknownFields(messages: readonly unknown[], ignored: string[]): unknown[] {
  return messages.map((m, i) => {
    if (!isObj(m)) return m;
    const unknown = Object.keys(m).filter((k) => !KNOWN_MESSAGE_FIELDS.has(k));
    if (unknown.length === 0) return m;
    const copy: Record<string, unknown> = {};
    for (const k of Object.keys(m)) {
      if (KNOWN_MESSAGE_FIELDS.has(k)) copy[k] = m[k];
      else ignored.push(`messages[${i}].${k.length > 40 ? `${k.slice(0, 40)}…` : k}`);
    }
    return copy;
  });
}

/** Most logit_bias entries accepted (OpenAI documents no limit; vLLM none either). */
const MAX_LOGIT_BIAS = 1024;
/** Deepest response_format json_schema accepted. */
const MAX_SCHEMA_DEPTH = 32;

function logitBias(v: unknown, vocabSize: number): ReadonlyMap<number, number> | undefined | RequestError {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) return bad("logit_bias", "must be an object {token ID: bias}");
  const keys = Object.keys(v);
  if (keys.length > MAX_LOGIT_BIAS) return bad("logit_bias", `at most ${MAX_LOGIT_BIAS} entries`);
  const out = new Map<number, number>();
  for (const k of keys) {
    if (!/^(0|[1-9]\d{0,9})$/.test(k)) return bad("logit_bias", `${quote40(k)} is not a token ID`);
    if (Number(k) >= vocabSize)
      return bad("logit_bias", `${k} is not an ID of the model (IDs 0..${vocabSize - 1})`);
    const b = v[k];
    if (typeof b !== "number" || !Number.isFinite(b) || b < -100 || b > 100)
      return bad("logit_bias", "every bias must be a number between -100 and 100");
    if (b !== 0) out.set(Number(k), b);
  }
  return out.size > 0 ? out : undefined;
}

function jsonDepth(v: unknown, depth: number): boolean {
  if (depth > MAX_SCHEMA_DEPTH) return false;
  if (Array.isArray(v)) return v.every((x) => jsonDepth(x, depth + 1));
  if (isObj(v)) return Object.keys(v).every((k) => jsonDepth(v[k], depth + 1));
  return true;
}

function responseFormat(v: unknown): ResponseFormat | undefined | RequestError {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) return bad("response_format", "must be an object");
  const type = own(v, "type");
  if (type === "text") return undefined;
  if (type === "json_object") return { type };
  if (type !== "json_schema")
    return bad("response_format", 'type must be "text", "json_object" or "json_schema"');
  const js = own(v, "json_schema");
  if (!isObj(js)) return bad("response_format", "json_schema must be an object {name, schema, strict?}");
  const name = own(js, "name");
  const schema = own(js, "schema");
  if (typeof name !== "string" || name === "")
    return bad("response_format", "json_schema.name must be a string");
  if (!isObj(schema)) return bad("response_format", "json_schema.schema must be a JSON Schema object");
  if (!jsonDepth(schema, 1))
    return bad("response_format", `json_schema.schema nests deeper than ${MAX_SCHEMA_DEPTH}`);
  return { type, name, schema };
}

/** The sampling fields shared by chat and text completions (docs/openai.md "Sampling"). */
export function mapSampling(body: Obj, options: MapOptions = {}): SamplingOptions | RequestError {
  const limit = options.maxTokensLimit ?? 32_768;
  const mt = optInt(body, "max_tokens", 1, limit);
  if (RequestError.isInstance(mt)) return mt;
  const mct = optInt(body, "max_completion_tokens", 1, limit);
  if (RequestError.isInstance(mct)) return mct;
  const stop = stops(own(body, "stop"), options.maxStopStrings ?? 16);
  if (RequestError.isInstance(stop)) return stop;
  const seed = optInt(body, "seed", Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  if (RequestError.isInstance(seed)) return seed;
  const temperature = optNum(body, "temperature", 0, 2);
  if (RequestError.isInstance(temperature)) return temperature;
  const topP = optNum(body, "top_p", 0, 1);
  if (RequestError.isInstance(topP)) return topP;
  const topK = optInt(body, "top_k", -1, 1_000_000);
  if (RequestError.isInstance(topK)) return topK;
  const minP = optNum(body, "min_p", 0, 1);
  if (RequestError.isInstance(minP)) return minP;
  const rep = optNum(body, "repetition_penalty", 0, 2);
  if (RequestError.isInstance(rep)) return rep;
  if (rep === 0) return bad("repetition_penalty", "must be greater than 0");
  const presence = optNum(body, "presence_penalty", -2, 2);
  if (RequestError.isInstance(presence)) return presence;
  const frequency = optNum(body, "frequency_penalty", -2, 2);
  if (RequestError.isInstance(frequency)) return frequency;
  const bias = logitBias(own(body, "logit_bias"), options.vocabSize ?? Number.POSITIVE_INFINITY);
  if (RequestError.isInstance(bias)) return bias;
  const format = responseFormat(own(body, "response_format"));
  if (RequestError.isInstance(format)) return format;

  // "Off" values are left out: no engine is asked for what changes nothing.
  const sampling: SamplingOptions = {
    maxTokens: mct ?? mt ?? options.defaultMaxTokens ?? 512,
    stop,
    ...(seed !== undefined ? { seed } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(topK !== undefined && topK > 0 ? { topK } : {}),
    ...(minP !== undefined && minP > 0 ? { minP } : {}),
    ...(rep !== undefined && rep !== 1 ? { repetitionPenalty: rep } : {}),
    ...(presence !== undefined && presence !== 0 ? { presencePenalty: presence } : {}),
    ...(frequency !== undefined && frequency !== 0 ? { frequencyPenalty: frequency } : {}),
    ...(bias !== undefined ? { logitBias: bias } : {}),
    ...(format !== undefined ? { responseFormat: format } : {}),
  };
  const engine = options.engine;
  const missing = unhonoured(sampling, engine?.honours ?? ALL_SAMPLING_PARAMS);
  if (missing !== undefined)
    return new RequestError(
      "unsupported-parameter",
      `${missing}: the ${engine?.name ?? "selected"} engine cannot honour it`,
      missing,
    );
  return sampling;
}
