// JSON responses and OpenAI-shaped error bodies.
import type { ServerResponse } from "node:http";
import { SSE_DONE, sseData } from "@chatwire/openai";
import type { EngineErrorType } from "../engine.ts";
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
  405: "invalid_request_error",
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
 * What a client is told when the engine fails: a fixed text per kind (details go to the log), or,
 * for "engine-refused" (message null), the error's own text: it is about the caller's request.
 */
const ENGINE_FAILURE: Readonly<Record<EngineErrorType, { status: number; message: string | null }>> = {
  "engine-unavailable": { status: 502, message: "the inference engine cannot be reached" },
  "engine-failed": { status: 502, message: "the inference engine failed" },
  "engine-protocol": { status: 502, message: "the inference engine sent an invalid answer" },
  "engine-timeout": { status: 504, message: "the inference engine sent nothing in time" },
  "engine-refused": { status: 400, message: null },
};

/**
 * The engine failed: on a stream already open (some ID arrived), an OpenAI-shaped SSE error
 * event, `[DONE]` and the end (the status line is already 200); otherwise HTTP 502 (504 for
 * `engine-timeout`, 400 for `engine-refused`). The code is the failure's kind; the message is
 * fixed, never the engine's own text (but for `engine-refused`, `detail`). Returns the HTTP status.
 */
export function sendEngineFailure(
  res: ServerResponse,
  sse: SseWriter | undefined,
  type: EngineErrorType = "engine-failed",
  detail = "",
): number {
  const f = ENGINE_FAILURE[type];
  const message = f.message ?? detail;
  if (sse === undefined) {
    sendError(res, f.status, type, message);
    return f.status;
  }
  sse.write(sseData({ error: { message, type: "server_error", param: null, code: type } }));
  sse.write(SSE_DONE);
  sse.end();
  return 200;
}
