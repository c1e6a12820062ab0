// Shared checks of a JSONL input object: an object with exactly the known keys.
import { LineError } from "../command.ts";

export function inputObject(input: unknown, allowed: readonly string[]): Readonly<Record<string, unknown>> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new LineError("invalid-input", "each input line must be a JSON object");
  }
  for (const key of Object.keys(input)) {
    if (!allowed.includes(key))
      throw new LineError("invalid-input", `unknown field ${JSON.stringify(key.slice(0, 40))}`, {
        field: key,
      });
  }
  return input as Readonly<Record<string, unknown>>;
}
