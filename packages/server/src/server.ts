// The HTTP server (node:http: no framework — the surface is seven routes, SSE needs direct
// control of write()/'drain' for backpressure and of 'close' for aborts, and node:http adds no
// dependency to a package whose users put it in front of their own infrastructure).
//
// Routes: POST /v1/chat/completions, POST /v1/completions, GET /v1/models, POST /tokenize,
// POST /detokenize, GET /health. One JSON log line per request through `log` (default: stderr).
// close() drains: new requests get 503, running and queued generations finish, then the
// listener closes (after `drainTimeoutMs` the remaining connections are cut).
// Slow clients: node's own timers answer 408 and close a connection whose headers (or whole
// request) have not arrived in time; open connections are capped (node drops the extra ones);
// body bytes held before a slot are capped across all requests (http/budget.ts).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ToolCallStreaming } from "@chatwire/openai";
import type { AnyTokenizer } from "@chatwire/tokenizer";
import { makeAuthCheck } from "./auth.ts";
import { DEFAULT_LIMITS, type RequestLog, type ServeLimits, type ServerContext } from "./context.ts";
import type { Engine } from "./engine.ts";
import { readJsonBody } from "./http/body.ts";
import { ByteBudget, type Lease } from "./http/budget.ts";
import { sendError, sendJson } from "./http/respond.ts";
import { Limiter } from "./limiter.ts";
import { chatCompletions } from "./routes/chat-completions.ts";
import { completions } from "./routes/completions.ts";
import { detokenize, tokenize } from "./routes/tokenize.ts";
import { servedTokenizer } from "./served-tokenizer.ts";

export interface ServeOptions {
  /**
   * A native family's tokenizer, or a template-only model's (TemplateTokenizer: decoded by the
   * grammar a probe of its template finds, docs/serve.md "Template-only models").
   */
  readonly tokenizer: AnyTokenizer;
  readonly engine: Engine;
  /** The model id clients send and /v1/models lists. */
  readonly modelId: string;
  /** Where the tokenizer came from ("gguf:PATH", "directory:PATH", "builtin:NAME"), for /v1/models. */
  readonly tokenizerSource?: string;
  readonly limits?: Partial<ServeLimits>;
  /** Require `Authorization: Bearer <apiKey>` on every route but /health. Must not be empty. */
  readonly apiKey?: string;
  readonly reasoningField?: "reasoning_content" | "reasoning";
  /**
   * Streamed tool-call arguments (docs/openai.md "Tool-call streaming"): "incremental"
   * (default; ChatGLM3 stays per-call) or "per-call". Non-streaming responses are always per-call.
   */
  readonly toolCallStreaming?: ToolCallStreaming;
  /**
   * Unknown request and message fields (docs/serve.md "Unknown fields"): "reject" (default: a
   * 400) or "ignore" (dropped; named in the `x-chatwire-ignored-fields` header and the log line).
   */
  readonly unknownFields?: "reject" | "ignore";
  /**
   * Where the per-request log line goes. Default: one JSON line on stderr. A sink that throws
   * (or a stderr whose reader has gone: EPIPE) loses that line; the server goes on.
   */
  readonly log?: (line: RequestLog) => void;
  /** After close() starts, cut connections still open after this many ms. Default 30,000. */
  readonly drainTimeoutMs?: number;
}

export interface ChatwireServer {
  readonly server: Server;
  /** Listens on host (default 127.0.0.1) and port (0 = any free port); resolves with the URL. */
  listen(port: number, host?: string): Promise<string>;
  /** Graceful shutdown: refuse new requests (503), finish running ones, close. */
  close(): Promise<void>;
  /** Slots in use and requests queued (for tests and the load test). */
  readonly stats: () => { readonly active: number; readonly queued: number; readonly open: number };
}

// Set once stderr has failed (EPIPE: `chatwire serve 2>&1 | head` exited); later lines are dropped.
let stderrBroken = false;
let stderrWatched = false;

/** One JSON line on stderr; a failed write drops it. */
function stderrLog(line: RequestLog): void {
  if (!stderrWatched) {
    stderrWatched = true;
    // Without a listener a stream error is an uncaught exception: the process would exit.
    process.stderr.on("error", () => {
      stderrBroken = true;
    });
  }
  if (stderrBroken) return;
  try {
    process.stderr.write(`${JSON.stringify(line)}\n`);
  } catch {
    stderrBroken = true;
  }
}

/** The longest delay a Node timer takes. */
const MAX_TIMER_MS = 2_147_483_647;

function resolveLimits(given: Partial<ServeLimits> | undefined): ServeLimits {
  const maxBodyBytes = given?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  const limits: ServeLimits = {
    ...DEFAULT_LIMITS,
    maxPendingBodyBytes: 16 * maxBodyBytes,
    ...given,
  };
  for (const [k, v] of Object.entries(limits))
    if (!Number.isSafeInteger(v) || v < (k === "maxQueue" ? 0 : 1))
      throw new TypeError(`limits.${k} must be an integer >= ${k === "maxQueue" ? 0 : 1}`);
    // Node's timers take at most 2^31 - 1 ms; a longer one would fire after 1 ms.
    else if (k.endsWith("Ms") && v > MAX_TIMER_MS)
      throw new TypeError(`limits.${k} must be at most ${MAX_TIMER_MS} (ms)`);
  if (limits.maxPendingBodyBytes < limits.maxBodyBytes)
    throw new TypeError("limits.maxPendingBodyBytes must be >= limits.maxBodyBytes");
  return limits;
}

export function createChatwireServer(o: ServeOptions): ChatwireServer {
  if (o.apiKey === "") throw new TypeError("apiKey must not be empty (omit it for an open server)");
  const limits = resolveLimits(o.limits);
  const drainTimeoutMs = o.drainTimeoutMs ?? 30_000;
  if (!Number.isSafeInteger(drainTimeoutMs) || drainTimeoutMs < 0 || drainTimeoutMs > MAX_TIMER_MS)
    throw new TypeError(`drainTimeoutMs must be an integer from 0 to ${MAX_TIMER_MS}`);
  const limiter = new Limiter(limits.maxConcurrent, limits.maxQueue);
  const budget = new ByteBudget(limits.maxPendingBodyBytes);
  const served = servedTokenizer(o.tokenizer);
  const ctx: ServerContext = {
    tokenizer: served.tokenizer,
    spec: served.spec,
    specFor: served.specFor,
    startBlockClose: served.startBlockClose,
    grammar: served.grammar,
    prefill: served.prefill,
    engine: o.engine,
    modelId: o.modelId,
    limits,
    limiter,
    reasoningField: o.reasoningField ?? "reasoning_content",
    toolCallStreaming: o.toolCallStreaming ?? "incremental",
    unknownFields: o.unknownFields ?? "reject",
  };
  const authorized = makeAuthCheck(o.apiKey);
  const sink = o.log ?? stderrLog;
  const log = (line: RequestLog) => {
    try {
      sink(line);
    } catch {
      // A log line that cannot be written is dropped; serving goes on.
    }
  };
  let draining = false;
  let open = 0;

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    rec: RequestLog,
    t0: number,
    held: Lease,
  ): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    rec.path = path.slice(0, 200);
    if (path === "/health" && req.method === "GET") {
      if (draining) return sendError(res, 503, "shutting-down", "the server is shutting down");
      return sendJson(res, 200, { status: "ok", active: limiter.inUse, queued: limiter.queued });
    }
    if (!authorized(req))
      return sendError(res, 401, "invalid-api-key", "missing or wrong API key (Authorization: Bearer ...)");
    if (path === "/v1/models" && req.method === "GET")
      return sendJson(res, 200, {
        object: "list",
        data: [
          {
            id: ctx.modelId,
            object: "model",
            created: 0,
            owned_by: "chatwire",
            max_model_len: limits.maxModelLen,
            tokenizer: {
              format: o.tokenizer.format,
              ...(o.tokenizerSource === undefined ? {} : { source: o.tokenizerSource }),
            },
          },
        ],
      });
    const post = ["/v1/chat/completions", "/v1/completions", "/tokenize", "/detokenize"];
    if (!post.includes(path))
      return sendError(res, 404, "not-found", `no route ${req.method ?? ""} ${rec.path}`);
    if (req.method !== "POST")
      return sendError(res, 405, "method-not-allowed", `${rec.path} takes POST`, null, { allow: "POST" });
    if (draining)
      return sendError(res, 503, "shutting-down", "the server is shutting down", null, {
        "retry-after": "5",
      });
    const body = await readJsonBody(req, limits.maxBodyBytes, held);
    if (!body.ok) {
      // Under pressure from pending bodies the connection is shed (the client may see it cut).
      if (body.error === "busy")
        return sendError(res, 503, "server-busy", "too many request bodies are pending; retry later", null, {
          "retry-after": "1",
          connection: "close",
        });
      // The rest of an over-size body is read and dropped (body.ts), not cut off: a client still
      // sending it would get a broken pipe instead of this answer. The read timeout bounds it.
      if (body.error === "too-large")
        return sendError(
          res,
          413,
          "request-too-large",
          `the request body exceeds ${limits.maxBodyBytes} bytes`,
        );
      if (body.error === "invalid-json")
        return sendError(res, 400, "invalid-json", "the request body is not valid JSON");
      rec.outcome = "gone";
      return;
    }
    const deadline = AbortSignal.timeout(limits.requestTimeoutMs);
    switch (path) {
      case "/v1/chat/completions":
        return chatCompletions(ctx, body.value, req, res, rec, t0, deadline, held);
      case "/v1/completions":
        return completions(ctx, body.value, req, res, rec, t0, deadline, held);
      case "/tokenize":
        return tokenize(ctx, body.value, res, rec);
      default:
        return detokenize(ctx, body.value, res);
    }
  }

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // node's requestTimeout covers receiving the request (headers + body), not the response.
      requestTimeout: Math.max(limits.requestReadTimeoutMs, limits.headersTimeoutMs + 1),
      // How often node checks those two timers: their precision.
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(limits.headersTimeoutMs / 4)),
      keepAliveTimeout: 5_000,
    },
    (req, res) => {
      const t0 = performance.now();
      open++;
      const rec: RequestLog = {
        time: new Date().toISOString(),
        method: req.method ?? "",
        path: "",
        status: 0,
        ms: 0,
      };
      const held = budget.lease();
      route(req, res, rec, t0, held)
        .catch((e: unknown) => {
          rec.error = e instanceof Error ? e.message : String(e);
          if (!res.headersSent) sendError(res, 500, "internal-error", "internal error");
          else res.destroy();
        })
        .finally(() => {
          held.release();
          open--;
          rec.ms = Math.round(performance.now() - t0);
          rec.status = rec.outcome === "aborted" || rec.outcome === "gone" ? 499 : res.statusCode;
          log(rec);
        });
    },
  );

  server.maxConnections = limits.maxConnections;

  return {
    server,
    stats: () => ({ active: limiter.inUse, queued: limiter.queued, open }),
    listen(port, host = "127.0.0.1") {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const a = server.address() as AddressInfo;
          resolve(`http://${host}:${a.port}`);
        });
      });
    },
    async close() {
      // While generations finish, the listener stays open so that new requests (and /health)
      // are answered 503 rather than refused; idle keep-alive connections are closed now.
      draining = true;
      let closed: Promise<void> | undefined;
      const stopListening = () => {
        closed ??= new Promise<void>((r) => server.close(() => r()));
        return closed;
      };
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        void stopListening();
        server.closeAllConnections();
      }, drainTimeoutMs);
      timer.unref();
      await limiter.drain();
      const done = stopListening();
      server.closeIdleConnections();
      await done;
      clearTimeout(timer);
    },
  };
}
