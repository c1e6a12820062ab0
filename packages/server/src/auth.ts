// Optional API key: `Authorization: Bearer <key>`, compared in constant time (hashes of equal
// length, so the key's length does not leak through timing either). The scheme name is
// case-insensitive (RFC 9110 11.1), so `bearer KEY` is the same credential.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export function makeAuthCheck(apiKey: string | undefined): (req: IncomingMessage) => boolean {
  if (apiKey === undefined || apiKey === "") return () => true;
  const want = createHash("sha256").update(apiKey).digest();
  return (req) => {
    const h = req.headers.authorization ?? "";
    const m = /^Bearer (.+)$/i.exec(h);
    if (m === null) return false;
    const got = createHash("sha256")
      .update(m[1] ?? "")
      .digest();
    return timingSafeEqual(got, want);
  };
}
