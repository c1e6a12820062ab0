// Shared checks of a JSONL input object: an object with exactly the known keys. Keys come from
// the caller: checked against a list (never used to index an object), echoed to 40 characters.
import { LineError } from "../command.ts";
import { quoteInput } from "../quote.ts";

export function inputObject(input: unknown, allowed: readonly string[]): Readonly<Record<string, unknown>> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new LineError("invalid-input", "each input line must be a JSON object");
  }
  for (const key of Object.keys(input)) {
    if (!allowed.includes(key))
      throw new LineError("invalid-input", `unknown field ${quoteInput(key)}`, { field: key.slice(0, 40) });
  }
  return input as Readonly<Record<string, unknown>>;
}
