// JSON responses and OpenAI-shaped error bodies.
import type { ServerResponse } from "node:http";

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
