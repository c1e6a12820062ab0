// ChatCompletionCreateParams (untrusted JSON) -> the chat request chatwire encodes plus the
// sampling options an engine is asked to honour (docs/openai.md "Request mapping").
//
// Never throws: a request that cannot be honoured is a RequestError value (HTTP 400). Nothing
// is silently ignored except the fields listed in IGNORED (identifiers and bookkeeping that do
// not change what is generated). Reads own properties only (no prototype-chain lookups on
// caller keys). The messages themselves are validated by the tokenizer's encodeChat.

import type { ChatMessage, ChatRequest, ChatTemplateKwargs, ToolDefinition } from "@chatwire/tokenizer";
import { quote40, RequestError } from "./errors.ts";
import type { SamplingOptions } from "./sampling.ts";
import { mapToolChoice, type ToolChoice } from "./tool-choice.ts";

export interface MapOptions {
  /** max_tokens when the request gives none. Default 512. */
  readonly defaultMaxTokens?: number;
  /** Largest max_tokens accepted. Default 32,768. */
  readonly maxTokensLimit?: number;
  /** Most stop strings accepted. Default 16 (OpenAI allows 4; vLLM any number). */
  readonly maxStopStrings?: number;
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
}

/** Accepted and ignored: they name or file the request, they do not change the generation. */
export const IGNORED = new Set(["user", "metadata", "service_tier", "safety_identifier", "prompt_cache_key"]);

/** Understood, but only their "off" values can be honoured (no engine here does them). */
export const OFF_ONLY = new Set([
  "n",
  "logprobs",
  "top_logprobs",
  "response_format",
  "frequency_penalty",
  "presence_penalty",
  "logit_bias",
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
  "seed",
  "temperature",
  "top_p",
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
    case "frequency_penalty":
    case "presence_penalty":
      return v === 0;
    case "logit_bias":
      return isObj(v) && Object.keys(v).length === 0;
    case "response_format":
      return isObj(v) && own(v, "type") === "text";
    case "modalities":
      return Array.isArray(v) && v.length === 1 && v[0] === "text";
    default:
      return false;
  }
}

const bad = (param: string, message: string) =>
  new RequestError("invalid-parameter", `${param}: ${message}`, param);

function optInt(o: Obj, k: string, min: number, max: number): number | undefined | RequestError {
  const v = own(o, k);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v)) return bad(k, "must be an integer");
  if (v < min || v > max) return bad(k, `must be between ${min} and ${max}`);
  return v;
}

function optNum(o: Obj, k: string, min: number, max: number): number | undefined | RequestError {
  const v = own(o, k);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return bad(k, "must be a number");
  if (v < min || v > max) return bad(k, `must be between ${min} and ${max}`);
  return v;
}

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
    return new RequestError("unknown-parameter", `unknown parameter ${quote40(key)}`, key);
  }
  const model = own(body, "model");
  if (typeof model !== "string" || model === "") return bad("model", "must be a non-empty string");
  const messages = own(body, "messages");
  if (!Array.isArray(messages) || messages.length === 0) return bad("messages", "must be a non-empty array");

  const tools = own(body, "tools");
  if (tools !== undefined && tools !== null && !Array.isArray(tools)) return bad("tools", "must be an array");
  const toolChoice = mapToolChoice(own(body, "tool_choice"), tools);
  if (RequestError.isInstance(toolChoice)) return toolChoice;
  const toolCalls = toolChoice.type !== "none";

  const parallel = optBool(body, "parallel_tool_calls");
  if (RequestError.isInstance(parallel)) return parallel;
  const stream = optBool(body, "stream");
  if (RequestError.isInstance(stream)) return stream;
  const so = own(body, "stream_options");
  let includeUsage = false;
  if (so !== undefined && so !== null) {
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
    includeUsage = iu ?? false;
  }

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
  };
}

/** The sampling fields shared by chat and text completions (max_tokens, stop, seed, temperature, top_p). */
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

  return {
    maxTokens: mct ?? mt ?? options.defaultMaxTokens ?? 512,
    stop,
    ...(seed !== undefined ? { seed } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
  };
}
