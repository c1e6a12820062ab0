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
import { getInt, getString, UsageError } from "../args.ts";
import type { Command } from "../command.ts";
import { SERVE_LIMIT_OPTIONS, serveLimitValues } from "../serve-limit-options.ts";
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
    port: { kind: "int", description: "TCP port (default 8000; 0 = any free port)" },
    host: { kind: "string", description: "bind address (default 127.0.0.1)" },
    engine: { kind: "string", choices: ENGINE_NAMES, description: "the inference engine (default replay)" },
    model: { kind: "string", description: "llama-cpp: the GGUF model file" },
    upstream: { kind: "string", description: "vllm / sglang: the upstream server's base URL" },
    "upstream-model": { kind: "string", description: "vllm: the upstream model name (default: its first)" },
    "model-name": {
      kind: "string",
      description: "the model id clients send (default: the GGUF file name or chatwire-<engine>)",
    },
    "api-key": { kind: "string", description: "require Authorization: Bearer KEY (or set CHATWIRE_API_KEY)" },
    "max-concurrent": {
      kind: "int",
      description: "generations at once",
      default: String(DEFAULT_LIMITS.maxConcurrent),
    },
    "max-queue": {
      kind: "int",
      description: "requests waiting for a slot before 429",
      default: String(DEFAULT_LIMITS.maxQueue),
    },
    "max-tokens": {
      kind: "int",
      description: "max_tokens when a request gives none",
      default: String(DEFAULT_LIMITS.defaultMaxTokens),
    },
    "max-model-len": {
      kind: "int",
      description: "prompt + max_tokens limit",
      default: `${DEFAULT_LIMITS.maxModelLen}; llama-cpp: ${LLAMA_CPP_MAX_MODEL_LEN}`,
    },
    "max-body-bytes": {
      kind: "int",
      description: "request body limit",
      default: String(DEFAULT_LIMITS.maxBodyBytes),
    },
    "timeout-ms": {
      kind: "int",
      description: "per-request time limit",
      default: String(DEFAULT_LIMITS.requestTimeoutMs),
    },
    ...SERVE_LIMIT_OPTIONS,
    threads: { kind: "int", description: "llama-cpp CPU threads (default 1)" },
    "replay-delay-ms": { kind: "int", description: "replay: pause between IDs (default 0)" },
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
    const { tokenizer, source } = await loadServeTokenizer(opts, engineName, model);
    const upstream = getString(opts, "upstream");
    const maxConcurrent = getInt(opts, "max-concurrent") ?? DEFAULT_LIMITS.maxConcurrent;
    const positive = (name: string, v: number | undefined) => {
      if (v !== undefined && v < 1) throw new UsageError(`--${name} must be >= 1`);
      return v;
    };
    positive("max-concurrent", maxConcurrent);
    const maxModelLen =
      positive("max-model-len", getInt(opts, "max-model-len")) ??
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
      throw new UsageError(e instanceof Error ? e.message : String(e));
    }
    const modelId =
      getString(opts, "model-name") ??
      (model !== undefined
        ? (model.split("/").pop() ?? model).replace(/\.gguf$/, "")
        : `chatwire-${engineName}`);
    const limit = (name: string) => positive(name, getInt(opts, name));
    const maxQueue = getInt(opts, "max-queue");
    if (maxQueue !== undefined && maxQueue < 0) throw new UsageError("--max-queue must be >= 0");
    const limits = {
      ...limitValues.limits,
      maxConcurrent,
      maxModelLen,
      ...(maxQueue !== undefined ? { maxQueue } : {}),
      ...(limit("max-tokens") !== undefined
        ? { defaultMaxTokens: getInt(opts, "max-tokens") as number }
        : {}),
      ...(limit("max-body-bytes") !== undefined
        ? { maxBodyBytes: getInt(opts, "max-body-bytes") as number }
        : {}),
      ...(limit("timeout-ms") !== undefined
        ? { requestTimeoutMs: getInt(opts, "timeout-ms") as number }
        : {}),
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
    const url = await server.listen(getInt(opts, "port") ?? 8000, getString(opts, "host") ?? "127.0.0.1");
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
