// Helpers for model output in error messages and parsed values, shared by the decoder and the
// body syntaxes (the reference decoder keeps its own, being an independent implementation).
import type { JsonValue } from "./python-literal.ts";

/** At most 40 characters of model output in an error message, as a JSON string. */
export function quote40(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** A parsed JSON value that is an object (not null, not a list). */
export function isJsonObject(v: unknown): v is { [key: string]: JsonValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
