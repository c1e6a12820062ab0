// The OpenAI error `param` of a TokenizerError from encodeChat: the message and field it names
// ("messages[2].content"), a top-level field ("add_generation_prompt"), else "messages".
import type { TokenizerError } from "@chatwire/tokenizer";

export function tokenizerErrorParam(e: TokenizerError): string {
  const f = e.fields as { field?: string; message?: number };
  if (f.message !== undefined) return `messages[${f.message}]${f.field ? `.${f.field}` : ""}`;
  return f.field ?? "messages";
}
