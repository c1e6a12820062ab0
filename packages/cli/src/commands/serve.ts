// serve: the OpenAI-compatible server (@chatwire/server) on 127.0.0.1 (docs/serve.md).
//   chatwire serve --port N --engine llama-cpp --model FILE.gguf [--tokenizer DIR|NAME|FILE.gguf]
//   chatwire serve --engine replay | --engine vllm --upstream URL | --engine sglang --upstream URL
// Prints exactly one line `listening on http://127.0.0.1:N` on stdout when ready; request logs go
// to stderr, one JSON line each. SIGTERM / SIGINT drain: new requests get 503, running ones
// finish, then the process exits 0. prepare() resolves only after the drain.
import {
  createChatwireServer,
  DEFAULT_LIMITS,
  ENGINE_NAMES,
  type EngineName,
  selectEngine,
} from "@chatwire/server";
import { DELAY_MS, getInt, getString, type ParsedOptions, POSITIVE, TIME_MS, UsageError } from "../args.ts";
import type { Command } from "../command.ts";
import { quoteInput } from "../quote.ts";
import { SERVE_LIMIT_OPTIONS, serveLimitValues } from "../serve-limit-options.ts";
import { listenOn } from "../serve-listen.ts";
import { loadServeTokenizer } from "../serve-tokenizer.ts";
import { CHAT_FORMAT_OPTION } from "../template-option.ts";
import { DEFAULT_TOKENIZER } from "../tokenizer-option.ts";

/** --max-model-len when not given, with llama-cpp. */
const LLAMA_CPP_MAX_MODEL_LEN = 4096;

export const command: Command = {
  name: "serve",
  summary: "OpenAI-compatible HTTP server over node-llama-cpp, vLLM, SGLang or a replay engine",
  jsonl: false,
  options: {
    tokenizer: {
      kind: "string",
      description: `a tokenizer directory, a built-in name or a GGUF file; default: with --engine llama-cpp the --model GGUF's own tokenizer, else ${DEFAULT_TOKENIZER}. With --engine llama-cpp a tokenizer whose vocabulary differs from the GGUF's is a startup error`,
    },
    format: {
      kind: "string",
      choices: CHAT_FORMAT_OPTION.format?.choices ?? [],
      description:
        "the model family, or auto (the default, also when omitted): the family detected from the files, else the model's own chat template (served with every engine); template: that template",
    },
    port: { kind: "int", min: 0, max: 65_535, description: "TCP port (default 8000; 0 = any free port)" },
    host: { kind: "string", description: "bind address (default 127.0.0.1)" },
    engine: { kind: "string", choices: ENGINE_NAMES, description: "the inference engine (default replay)" },
    model: { kind: "string", description: "llama-cpp: the GGUF model file" },
    upstream: { kind: "string", description: "vllm / sglang: the upstream server's base URL" },
    "upstream-model": {
      kind: "string",
      description: "vllm / sglang: the upstream model name (default: its first)",
    },
    "model-name": {
      kind: "string",
      description: "the model id clients send (default: the GGUF file name or chatwire-<engine>)",
    },
    "api-key": { kind: "string", description: "require Authorization: Bearer KEY (or set CHATWIRE_API_KEY)" },
    "max-concurrent": {
      ...POSITIVE,
      description: "generations at once",
      default: String(DEFAULT_LIMITS.maxConcurrent),
    },
    "max-queue": {
      kind: "int",
      min: 0,
      description: "requests waiting for a slot before 429",
      default: String(DEFAULT_LIMITS.maxQueue),
    },
    "max-tokens": {
      ...POSITIVE,
      description: "max_tokens when a request gives none",
      default: String(DEFAULT_LIMITS.defaultMaxTokens),
    },
    "max-model-len": {
      ...POSITIVE,
      description: "prompt + max_tokens limit",
      default: `${DEFAULT_LIMITS.maxModelLen}; llama-cpp: ${LLAMA_CPP_MAX_MODEL_LEN}`,
    },
    "max-body-bytes": {
      ...POSITIVE,
      description: "request body limit",
      default: String(DEFAULT_LIMITS.maxBodyBytes),
    },
    "timeout-ms": {
      ...TIME_MS,
      description: "per-request time limit",
      default: String(DEFAULT_LIMITS.requestTimeoutMs),
    },
    ...SERVE_LIMIT_OPTIONS,
    threads: { ...POSITIVE, description: "llama-cpp CPU threads (default 1)" },
    "replay-delay-ms": { ...DELAY_MS, description: "replay: pause between IDs (default 0)" },
    "reasoning-field": {
      kind: "string",
      choices: ["reasoning_content", "reasoning"],
      description: "where streamed reasoning goes (default reasoning_content)",
    },
    "tool-call-streaming": {
      kind: "string",
      choices: ["incremental", "per-call"],
      description: "streamed tool-call arguments: incremental (default) or per-call",
    },
    "unknown-fields": {
      kind: "string",
      choices: ["reject", "ignore"],
      description:
        "unknown request and message fields: reject (default: 400) or ignore (dropped, named in the x-chatwire-ignored-fields header and the log line)",
    },
  },
  async prepare(opts, io) {
    const apiKey = getString(opts, "api-key") ?? process.env.CHATWIRE_API_KEY;
    // An empty key would be an open server that looks protected.
    if (apiKey === "")
      throw new UsageError(
        "--api-key / CHATWIRE_API_KEY is empty; omit it for an open server",
        "invalid-option-value",
      );
    const limitValues = serveLimitValues(opts, getInt(opts, "max-body-bytes") ?? DEFAULT_LIMITS.maxBodyBytes);
    const engineName = (getString(opts, "engine") ?? "replay") as EngineName;
    const model = getString(opts, "model");
    const upstream = getString(opts, "upstream");
    checkEngineOptions(opts, engineName);
    const { tokenizer, source } = await loadServeTokenizer(opts, engineName, model);
    const maxConcurrent = getInt(opts, "max-concurrent") ?? DEFAULT_LIMITS.maxConcurrent;
    const maxModelLen =
      getInt(opts, "max-model-len") ??
      (engineName === "llama-cpp" ? LLAMA_CPP_MAX_MODEL_LEN : DEFAULT_LIMITS.maxModelLen);
    let engine: Awaited<ReturnType<typeof selectEngine>>;
    try {
      engine = await selectEngine({
        engine: engineName,
        tokenizer,
        ...(model !== undefined ? { model } : {}),
        ...(upstream !== undefined ? { upstream } : {}),
        ...(getString(opts, "upstream-model") !== undefined
          ? { upstreamModel: getString(opts, "upstream-model") as string }
          : {}),
        ...(limitValues.upstreamIdleTimeoutMs !== undefined
          ? { upstreamIdleTimeoutMs: limitValues.upstreamIdleTimeoutMs }
          : {}),
        sequences: maxConcurrent,
        contextSize: maxModelLen,
        ...(getInt(opts, "threads") !== undefined ? { threads: getInt(opts, "threads") as number } : {}),
        ...(getInt(opts, "replay-delay-ms") !== undefined
          ? { replayDelayMs: getInt(opts, "replay-delay-ms") as number }
          : {}),
      });
    } catch (e) {
      // The options were checked above: what is left is an engine that cannot start (an
      // unreachable upstream, a model node-llama-cpp cannot load, node-llama-cpp not installed).
      throw new UsageError(
        `--engine ${engineName} cannot start: ${(e instanceof Error ? e.message : String(e)).split("\n")[0] ?? ""}`,
        "engine-unavailable",
      );
    }
    const modelId =
      getString(opts, "model-name") ??
      (model !== undefined
        ? (model.split("/").pop() ?? model).replace(/\.gguf$/, "")
        : `chatwire-${engineName}`);
    const maxQueue = getInt(opts, "max-queue");
    const maxTokens = getInt(opts, "max-tokens");
    const maxBodyBytes = getInt(opts, "max-body-bytes");
    const timeoutMs = getInt(opts, "timeout-ms");
    const limits = {
      ...limitValues.limits,
      maxConcurrent,
      maxModelLen,
      ...(maxQueue !== undefined ? { maxQueue } : {}),
      ...(maxTokens !== undefined ? { defaultMaxTokens: maxTokens } : {}),
      ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
      ...(timeoutMs !== undefined ? { requestTimeoutMs: timeoutMs } : {}),
    };
    const server = createChatwireServer({
      tokenizer,
      engine,
      modelId,
      tokenizerSource: source,
      limits,
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(getString(opts, "reasoning-field") === "reasoning" ? { reasoningField: "reasoning" as const } : {}),
      ...(getString(opts, "tool-call-streaming") === "per-call"
        ? { toolCallStreaming: "per-call" as const }
        : {}),
      ...(getString(opts, "unknown-fields") === "ignore" ? { unknownFields: "ignore" as const } : {}),
    });
    let url: string;
    try {
      url = await listenOn(server, getInt(opts, "port") ?? 8000, getString(opts, "host") ?? "127.0.0.1");
    } catch (err) {
      await engine.close();
      throw err;
    }
    io.stdout.write(`listening on ${url}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off("SIGTERM", stop);
        process.off("SIGINT", stop);
        server
          .close()
          .then(() => engine.close())
          .then(resolve, resolve);
      };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);
    });
    return () => undefined;
  },
};

/** Options only some engines read: given with another engine they would do nothing, so they are refused. */
const ENGINE_ONLY: Readonly<Record<string, readonly EngineName[]>> = {
  model: ["llama-cpp"],
  threads: ["llama-cpp"],
  upstream: ["vllm", "sglang"],
  "upstream-model": ["vllm", "sglang"],
  "upstream-idle-timeout-ms": ["vllm", "sglang"],
  "replay-delay-ms": ["replay"],
};

/**
 * The options the engine needs, checked before anything loads: a missing one, or one of another
 * engine (ENGINE_ONLY), is a usage error (a bad option combination), an --upstream that is not an
 * http(s) URL `invalid-option-value`. Whether the engine then starts (the upstream answers, the
 * model loads) is `engine-unavailable`.
 */
function checkEngineOptions(opts: ParsedOptions, engine: EngineName): void {
  for (const [name, engines] of Object.entries(ENGINE_ONLY))
    if (opts.has(name) && !engines.includes(engine))
      throw new UsageError(`--${name} is an option of --engine ${engines.join(" / ")}, not ${engine}`);
  if (engine === "llama-cpp" && getString(opts, "model") === undefined)
    throw new UsageError("--engine llama-cpp needs --model FILE.gguf");
  if (engine !== "vllm" && engine !== "sglang") return;
  const upstream = getString(opts, "upstream");
  if (upstream === undefined) throw new UsageError(`--engine ${engine} needs --upstream URL`);
  let protocol: string | undefined;
  try {
    protocol = new URL(upstream).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== "http:" && protocol !== "https:")
    throw new UsageError(
      `--upstream takes an http:// or https:// URL, got ${quoteInput(upstream)}`,
      "invalid-option-value",
    );
}
