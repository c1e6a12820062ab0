// HOSTILE upstream servers for the vLLM / SGLang engines, written by us: each answers the
// generation request in one broken way (huge or endless error bodies, a 200 that is not an event
// stream, CR-only line endings, a line that never ends, no `[DONE]`, a stall, SGLang output that
// rewrites earlier tokens or counts fractional tokens). GET /health and GET /v1/models answer
// normally. Writes respect backpressure, so `written()` says how much of a body the reader pulled.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Hostility =
  | "error-huge"
  | "error-endless"
  | "error-secret"
  | "json-200"
  | "html-200"
  | "cr-only"
  | "endless-line"
  | "no-done"
  | "stall-before"
  | "stall-after"
  | "sglang-rewrite"
  | "sglang-fractional";

export interface Hostile {
  readonly url: string;
  /** Bytes of generation-answer bodies the server managed to hand to the socket. */
  readonly written: () => number;
  close(): Promise<void>;
}

/** Text the upstream puts in its error body; a client of chatwire must never see it. */
export const SECRET = "upstream-internal-detail-7f3a";

export function hostileUpstream(
  mode: Hostility,
  o: { readonly hugeBytes?: number; readonly tokenId?: number } = {},
): Promise<Hostile> {
  let written = 0;
  const id = o.tokenId ?? 9707;
  const vllmChunk = (ids: number[]) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, text: "", token_ids: ids, finish_reason: null }] })}`;
  const write = (res: ServerResponse, s: string | Buffer): Promise<boolean> => {
    if (res.destroyed) return Promise.resolve(false);
    written += s.length;
    if (res.write(s)) return Promise.resolve(true);
    return new Promise((r) => {
      const done = (v: boolean) => () => {
        res.off("drain", onDrain);
        res.off("close", onClose);
        r(v);
      };
      const onDrain = done(true);
      const onClose = done(false);
      res.once("drain", onDrain);
      res.once("close", onClose);
    });
  };
  const server = createServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/health") return res.end();
    if (req.method === "GET" && req.url === "/v1/models")
      return res.end(JSON.stringify({ object: "list", data: [{ id: "m", object: "model" }] }));
    for await (const _ of req) {
      // drain the request body
    }
    const chunk = Buffer.alloc(64 * 1024, "x");
    switch (mode) {
      case "error-huge": {
        res.writeHead(500, { "content-type": "text/plain" });
        const total = o.hugeBytes ?? 300 * 1024 * 1024;
        for (let n = 0; n < total; n += chunk.length) if (!(await write(res, chunk))) return;
        return res.end();
      }
      case "error-endless":
        res.writeHead(500, { "content-type": "text/plain" });
        for (;;) if (!(await write(res, chunk))) return;
      case "error-secret":
        res.writeHead(400, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: `${SECRET} ${"y".repeat(300)}` } }));
      case "json-200":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ choices: [{ index: 0, text: "hi", token_ids: [id] }] }));
      case "html-200":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end(`<html><body>${SECRET}</body></html>`);
      case "cr-only":
        res.writeHead(200, { "content-type": "text/event-stream" });
        return res.end(`${vllmChunk([id])}\r\r${vllmChunk([id])}\r\rdata: [DONE]\r\r`);
      case "endless-line":
        res.writeHead(200, { "content-type": "text/event-stream" });
        await write(res, "data: ");
        for (;;) if (!(await write(res, chunk))) return;
      case "no-done":
        res.writeHead(200, { "content-type": "text/event-stream" });
        await write(res, `${vllmChunk([id])}\n\n`);
        return res.end(`${vllmChunk([id])}\n\n`);
      case "stall-before":
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.flushHeaders();
        return; // never writes a body; the connection stays open until the reader leaves
      case "stall-after":
        res.writeHead(200, { "content-type": "text/event-stream" });
        await write(res, `${vllmChunk([id])}\n\n`);
        return;
      case "sglang-rewrite": {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const c = (ids: number[]) =>
          `data: ${JSON.stringify({ text: "", output_ids: ids, meta_info: { completion_tokens: ids.length } })}\n\n`;
        await write(res, c([id]));
        await write(res, c([id + 1, id]));
        return res.end("data: [DONE]\n\n");
      }
      case "sglang-fractional": {
        res.writeHead(200, { "content-type": "text/event-stream" });
        await write(
          res,
          `data: ${JSON.stringify({ text: "", output_ids: [id], meta_info: { completion_tokens: 1.5 } })}\n\n`,
        );
        return res.end("data: [DONE]\n\n");
      }
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        written: () => written,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    }),
  );
}
