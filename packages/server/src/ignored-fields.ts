// The unknown fields a request sent under unknownFields "ignore" (docs/serve.md "Unknown
// fields"): named in the `x-chatwire-ignored-fields` response header and the request's log line.
// The list is bounded (a body can hold thousands of fields) and the header value is printable
// ASCII whatever the caller's field names are.
import type { ServerResponse } from "node:http";
import type { RequestLog } from "./context.ts";

export const IGNORED_FIELDS_HEADER = "x-chatwire-ignored-fields";

/** Names reported at most; the rest is counted. */
const MAX_NAMES = 16;
/** Characters of one name reported at most (before escaping). */
const MAX_NAME = 80;

/**
 * Sets the header (before any response is written, so errors and streams carry it too) and the
 * log fields. Names are comma-separated; `%`, `,`, `+` and every byte outside printable ASCII are
 * percent-encoded (UTF-8); more than 16 names end with `+N` (N names not listed).
 */
export function reportIgnored(ignored: readonly string[], res: ServerResponse, log: RequestLog): void {
  const names = ignored.slice(0, MAX_NAMES).map((n) => (n.length > MAX_NAME ? n.slice(0, MAX_NAME) : n));
  log.ignored_fields = names;
  if (ignored.length > names.length) log.ignored_fields_count = ignored.length;
  const parts = names.map(escapeName);
  if (ignored.length > names.length) parts.push(`+${ignored.length - names.length}`);
  if (!res.headersSent) res.setHeader(IGNORED_FIELDS_HEADER, parts.join(","));
}

const encoder = new TextEncoder();

function escapeName(name: string): string {
  let out = "";
  for (const ch of name) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp > 0x20 && cp < 0x7f && ch !== "%" && ch !== "," && ch !== "+") out += ch;
    else for (const b of encoder.encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
