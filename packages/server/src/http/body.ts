// Reading a request body with a size limit: chunks are kept until the limit and joined once.
// Over the limit -> "too-large" (HTTP 413) and the rest is read and dropped (kept nowhere);
// invalid JSON -> "invalid-json".
// Every byte kept is first taken from the request's lease on the shared pre-slot budget: when the
// budget cannot cover a chunk -> "busy" (HTTP 503) and the bytes read so far are dropped. The
// time the body may take is node's request read timeout (server.ts), which ends the socket.
import type { IncomingMessage } from "node:http";
import type { Lease } from "./budget.ts";

export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: "too-large" | "invalid-json" | "busy" | "aborted" };

export function readJsonBody(req: IncomingMessage, maxBytes: number, lease: Lease): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > maxBytes) {
      resolve({ ok: false, error: "too-large" });
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const refuse = (error: "too-large" | "busy") => {
      done = true;
      chunks.length = 0;
      lease.release();
      resolve({ ok: false, error });
      req.resume();
    };
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > maxBytes) return refuse("too-large");
      if (!lease.take(c.length)) return refuse("busy");
      chunks.push(c);
    });
    req.on("end", () => {
      if (done) return;
      done = true;
      try {
        resolve({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown });
      } catch {
        resolve({ ok: false, error: "invalid-json" });
      }
    });
    const gone = () => {
      if (done) return;
      done = true;
      chunks.length = 0;
      resolve({ ok: false, error: "aborted" });
    };
    req.on("error", gone);
    // node's read timeout and a client that leaves mid-body both end here ('close' without 'end').
    req.on("close", gone);
  });
}
