// Where each token of a chat encoding came from, read from encodeChat's `spans` (never from
// whether the ID is reserved: that is what the page checks).
//   format   - a reserved ID placed by format code (span field "marker")
//   template - text written by format code (role names, newlines, the tools prompt)
//   caller   - text from the request (content, name, tools, tool_calls, ...)
import type { ChatSpan } from "@chatwire/tokenizer";

export type Origin = "format" | "template" | "caller";

const TEMPLATE_FIELDS: ReadonlySet<string> = new Set(["role", "template"]);

export function originOfField(field: string): Origin {
  if (field === "marker") return "format";
  return TEMPLATE_FIELDS.has(field) ? "template" : "caller";
}

/** Per token: the span that holds it (spans cover [0, length) in order). */
export function spanPerToken(spans: readonly ChatSpan[], length: number): (ChatSpan | undefined)[] {
  const out = new Array<ChatSpan | undefined>(length).fill(undefined);
  for (const s of spans) for (let i = s.start; i < s.end && i < length; i++) out[i] = s;
  return out;
}
