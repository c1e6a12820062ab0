// What the Llama templates read from a chat request beyond the common normalization
// (../../request/normalize.ts):
// - role "ipython" is the Llama name of a tool result; the 3.1+ template renders "tool" and
//   "ipython" alike. It is accepted here and normalized as "tool" (the index is remembered:
//   the 3.0 template writes the role as given).
// - chat_template_kwargs the 3.1+ template reads: `date_string` (a caller string, written after
//   "Today Date: "), `tools_in_user_message` (default true). `custom_tools` (which replaces
//   `tools` in the template) is refused: pass `tools`. Other kwargs are ignored, as the
//   template ignores them.
// Read after normalizeRequest has validated the request, so the shapes are known JSON.
import { invalid, isObject, items, own } from "../../request/schema.ts";

/** The request with every role "ipython" replaced by "tool", and those message indexes. */
export function ipythonAsTool(request: unknown): {
  readonly request: unknown;
  readonly ipython: ReadonlySet<number>;
} {
  const ipython = new Set<number>();
  if (!isObject(request)) return { request, ipython };
  const msgs = own(request, "messages");
  if (!Array.isArray(msgs)) return { request, ipython };
  const mapped = items(msgs).map((m, i) => {
    if (!isObject(m) || own(m, "role") !== "ipython") return m;
    ipython.add(i);
    return { ...m, role: "tool" };
  });
  if (ipython.size === 0) return { request, ipython };
  return { request: { ...request, messages: mapped }, ipython };
}

export interface LlamaKwargs {
  /** chat_template_kwargs.date_string, when given. */
  readonly dateString: string | undefined;
  readonly toolsInUserMessage: boolean;
}

export function llamaKwargs(request: unknown): LlamaKwargs {
  const kw = isObject(request) ? own(request, "chat_template_kwargs") : undefined;
  if (!isObject(kw)) return { dateString: undefined, toolsInUserMessage: true };
  const date = own(kw, "date_string");
  if (date !== undefined && typeof date !== "string")
    throw invalid("must be a string", { field: "chat_template_kwargs.date_string" });
  const inUser = own(kw, "tools_in_user_message");
  if (inUser !== undefined && typeof inUser !== "boolean")
    throw invalid("must be a boolean", { field: "chat_template_kwargs.tools_in_user_message" });
  if (own(kw, "custom_tools") !== undefined)
    throw invalid("is not supported; pass the tools as `tools`", {
      field: "chat_template_kwargs.custom_tools",
    });
  return { dateString: date, toolsInUserMessage: inUser ?? true };
}
