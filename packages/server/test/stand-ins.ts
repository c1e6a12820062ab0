// STAND-IN upstream servers, written by us to the engines' published protocols (no vLLM or
// SGLang runs here). They replay a fixed ID script and record what chatwire sent them.
//   vLLM:   POST /v1/completions {prompt: [ids], stream, return_tokens_as_token_ids, logprobs}
//           -> SSE text_completion chunks whose choices[0].logprobs.tokens are "token_id:N",
//              a final chunk with finish_reason, then data: [DONE]; GET /v1/models; GET /health.
//   SGLang: POST /generate {input_ids, stream, sampling_params: {max_new_tokens, ...}}
//           -> SSE objects {text, output_ids, meta_info: {prompt_tokens, completion_tokens,
//              finish_reason}}; output_ids cumulative (default) or incremental
//              (--incremental-streaming-output); then data: [DONE]; GET /health.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StandIn {
  readonly url: string;
  readonly requests: Record<string, unknown>[];
  /** Requests whose connection closed before the script ended. */
  readonly aborted: () => number;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let s = "";
  for await (const c of req) s += String(c);
  return JSON.parse(s) as Record<string, unknown>;
}

const pause = () => new Promise((r) => setTimeout(r, 1));

function listen(
  server: Server,
  requests: Record<string, unknown>[],
  aborted: () => number,
): Promise<StandIn> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        aborted,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    }),
  );
}

export function vllmStandIn(script: readonly number[], perChunk = 1): Promise<StandIn> {
  const requests: Record<string, unknown>[] = [];
  let aborted = 0;
  const server = createServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/health") return res.end();
    if (req.method === "GET" && req.url === "/v1/models")
      return res.end(JSON.stringify({ object: "list", data: [{ id: "Qwen/Qwen3-8B", object: "model" }] }));
    if (req.method !== "POST" || req.url !== "/v1/completions") {
      res.statusCode = 404;
      return res.end();
    }
    const b = await body(req);
    requests.push(b);
    if (
      !Array.isArray(b.prompt) ||
      b.return_tokens_as_token_ids !== true ||
      b.logprobs !== 0 ||
      b.stream !== true
    ) {
      res.statusCode = 400;
      return res.end(
        JSON.stringify({ error: "stand-in: expected a token-ID prompt with return_tokens_as_token_ids" }),
      );
    }
    const max = typeof b.max_tokens === "number" ? b.max_tokens : 16;
    const out = script.slice(0, max);
    const gone = eventStream(res, () => aborted++);
    for (let i = 0; i < out.length && !gone(); i += perChunk) {
      const ids = out.slice(i, i + perChunk);
      const chunk = {
        id: "cmpl-standin",
        object: "text_completion",
        created: 0,
        model: b.model,
        choices: [
          {
            index: 0,
            text: "(text elided by the stand-in)",
            logprobs: {
              text_offset: ids.map(() => 0),
              token_logprobs: ids.map(() => -0.5),
              tokens: ids.map((id) => `token_id:${id}`),
              top_logprobs: ids.map((id) => ({ [`token_id:${id}`]: -0.5 })),
            },
            finish_reason: null,
            stop_reason: null,
          },
        ],
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      await pause();
    }
    if (gone()) return;
    const finish = out.length < script.length ? "length" : "stop";
    res.write(
      `data: ${JSON.stringify({ id: "cmpl-standin", object: "text_completion", created: 0, model: b.model, choices: [{ index: 0, text: "", logprobs: null, finish_reason: finish, stop_reason: null }] })}\n\n`,
    );
    res.end("data: [DONE]\n\n");
  });
  return listen(server, requests, () => aborted);
}

/** Starts an event-stream answer; the function returned says whether the client left before its end (`onGone` counts it). */
function eventStream(res: ServerResponse, onGone: () => void): () => boolean {
  res.writeHead(200, { "content-type": "text/event-stream" });
  let closed = false;
  res.on("close", () => {
    if (!res.writableFinished) {
      closed = true;
      onGone();
    }
  });
  return () => closed;
}

export function sglangStandIn(script: readonly number[], incremental = false): Promise<StandIn> {
  const requests: Record<string, unknown>[] = [];
  let aborted = 0;
  const server = createServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/health") return res.end();
    if (req.method !== "POST" || req.url !== "/generate") {
      res.statusCode = 404;
      return res.end();
    }
    const b = await body(req);
    requests.push(b);
    const sp = (b.sampling_params ?? {}) as Record<string, unknown>;
    if (!Array.isArray(b.input_ids) || b.stream !== true) {
      res.statusCode = 400;
      return res.end(JSON.stringify({ error: "stand-in: expected input_ids and stream" }));
    }
    const max = typeof sp.max_new_tokens === "number" ? sp.max_new_tokens : 128;
    const out = script.slice(0, max);
    const gone = eventStream(res, () => aborted++);
    for (let k = 1; k <= out.length && !gone(); k++) {
      const last = k === out.length;
      const finish = last
        ? out.length < script.length
          ? { type: "length", length: max }
          : { type: "stop", matched: out[k - 1] }
        : null;
      const chunk = {
        text: "(text elided by the stand-in)",
        output_ids: incremental ? out.slice(k - 1, k) : out.slice(0, k),
        meta_info: {
          id: "standin",
          prompt_tokens: b.input_ids.length,
          completion_tokens: k,
          finish_reason: finish,
        },
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      await pause();
    }
    if (!gone()) res.end("data: [DONE]\n\n");
  });
  return listen(server, requests, () => aborted);
}
