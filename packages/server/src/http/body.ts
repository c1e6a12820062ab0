// Reading a request body with a size limit: chunks are kept until the limit and joined once.
// Over the limit -> "too-large" (HTTP 413) and the rest is not read; invalid JSON -> "invalid-json".
import type { IncomingMessage } from "node:http";

export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: "too-large" | "invalid-json" | "aborted" };

export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
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
    req.on("data", (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > maxBytes) {
        done = true;
        chunks.length = 0;
        resolve({ ok: false, error: "too-large" });
        req.resume();
        return;
      }
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
    req.on("error", () => {
      if (done) return;
      done = true;
      resolve({ ok: false, error: "aborted" });
    });
  });
}
