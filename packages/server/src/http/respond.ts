// JSON responses and OpenAI-shaped error bodies.
import type { ServerResponse } from "node:http";
import { SSE_DONE, sseData } from "@chatwire/openai";
import type { SseWriter } from "./sse.ts";

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const OPENAI_TYPE: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  404: "not_found_error",
  413: "invalid_request_error",
  429: "rate_limit_error",
  500: "server_error",
  502: "server_error",
  503: "server_error",
  504: "server_error",
};

export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  param: string | null = null,
  headers: Record<string, string> = {},
): void {
  sendJson(
    res,
    status,
    { error: { message, type: OPENAI_TYPE[status] ?? "server_error", param, code } },
    headers,
  );
}

/**
 * The engine failed mid-generation: on a stream, an OpenAI-shaped SSE error event, `[DONE]` and
 * the end (the status line is already 200); otherwise HTTP 502 `engine-failed`.
 */
export function sendEngineFailure(
  res: ServerResponse,
  sse: SseWriter | undefined,
  error: string | undefined,
): void {
  if (sse === undefined) {
    sendError(res, 502, "engine-failed", `engine failed: ${error ?? ""}`);
    return;
  }
  sse.write(
    sseData({
      error: { message: `engine failed: ${error}`, type: "server_error", param: null, code: "engine-failed" },
    }),
  );
  sse.write(SSE_DONE);
  sse.end();
}
