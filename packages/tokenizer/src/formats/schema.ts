// Shared checks for the native message schemas (docs/cli-contract.md "encode-chat"). Every
// failure is TokenizerError("invalid-conversation") naming the message index and field.
import { quote, TokenizerError } from "../errors.ts";

export type JsonObject = Readonly<Record<string, unknown>>;

export interface ChatRequest {
  readonly messages: readonly unknown[];
  readonly tools?: readonly unknown[];
  readonly add_generation_prompt?: boolean;
  readonly [key: string]: unknown;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function invalid(message: string, at: { message?: number; field?: string } = {}): TokenizerError {
  const where =
    at.message === undefined
      ? ""
      : `messages[${at.message}]${at.field === undefined ? "" : `.${at.field}`}: `;
  const top = at.message === undefined && at.field !== undefined ? `${at.field}: ` : "";
  return new TokenizerError("invalid-conversation", `${where}${top}${message}`, at);
}

/** The request envelope: messages array, optional add_generation_prompt, and the extra top-level keys a format allows. */
export function checkRequest(
  request: unknown,
  extraKeys: readonly string[],
): { messages: JsonObject[]; addGenerationPrompt: boolean } {
  if (!isObject(request)) throw invalid("the request must be an object");
  for (const key of Object.keys(request)) {
    if (key !== "messages" && key !== "add_generation_prompt" && !extraKeys.includes(key)) {
      throw invalid(`unknown field ${quote(key)}`, { field: key });
    }
  }
  const msgs = request.messages;
  if (!Array.isArray(msgs)) throw invalid("must be an array of messages", { field: "messages" });
  const agp = request.add_generation_prompt;
  if (agp !== undefined && typeof agp !== "boolean")
    throw invalid("must be a boolean", { field: "add_generation_prompt" });
  const messages = msgs.map((m: unknown, i) => {
    if (!isObject(m)) throw invalid("a message must be an object", { message: i });
    return m;
  });
  return { messages, addGenerationPrompt: agp ?? true };
}

/** Unknown keys of a message are an error, never ignored. */
export function checkKeys(m: JsonObject, index: number, allowed: readonly string[]): void {
  for (const key of Object.keys(m)) {
    if (!allowed.includes(key)) throw invalid(`unknown field ${quote(key)}`, { message: index, field: key });
  }
}

export function requireString(m: JsonObject, index: number, field: string): string {
  const v = m[field];
  if (typeof v !== "string") throw invalid(`must be a string`, { message: index, field });
  return v;
}

export function optionalString(m: JsonObject, index: number, field: string): string | undefined {
  const v = m[field];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw invalid(`must be a string`, { message: index, field });
  return v;
}

export function checkRole(m: JsonObject, index: number, roles: readonly string[]): string {
  const role = requireString(m, index, "role");
  if (!roles.includes(role))
    throw invalid(`unknown role ${quote(role)}; expected one of ${roles.join(", ")}`, {
      message: index,
      field: "role",
    });
  return role;
}

/** A header value (name / metadata) is one line. */
export function checkOneLine(value: string, index: number, field: string): void {
  if (value.includes("\n")) throw invalid("must not contain a newline", { message: index, field });
}
