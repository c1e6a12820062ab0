// Shared checks of a JSONL input object: an object with exactly the known keys.
import { TokenizerError } from "@chatwire/tokenizer";
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

/**
 * A TokenizerError as this line's error. Its `message` field (a message index) would overwrite
 * the one-sentence `message` in TokenizerError.toJSON, so it is written as `message_index`.
 */
export function lineErrorOf(err: unknown): unknown {
  if (!TokenizerError.isInstance(err)) return err;
  const { message, ...rest } = err.fields;
  return new LineError(
    err.type,
    err.message,
    message === undefined ? rest : { ...rest, message_index: message },
  );
}
