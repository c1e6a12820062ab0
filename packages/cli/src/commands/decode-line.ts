// The ID fields of a decode input line: "ids" (pushed one at a time) or "chunks" (one
// pushMany per chunk, as a server with stream_interval or speculative decoding delivers them;
// the events are the same by the decoder's contract), exactly one of them; and the optional
// "chat_template_kwargs" object. Checked in one pass, errors name the field and index.
import { LineError } from "../command.ts";

export interface LineIds {
  /** The bursts in order ("ids": one list pushed ID by ID). */
  readonly ids: readonly (readonly number[])[];
  readonly chunked: boolean;
}

function checkIds(value: unknown, field: string): number[] {
  if (!Array.isArray(value))
    throw new LineError("invalid-input", `"${field}" must be an array of token IDs`, { field });
  for (let i = 0; i < value.length; i++)
    if (!Number.isSafeInteger(value[i]))
      throw new LineError("invalid-input", `"${field}"[${i}] is not an integer`, { field, index: i });
  return value as number[];
}

export function burstsOfLine(ids: unknown, chunks: unknown): LineIds {
  if (chunks === undefined) return { ids: [checkIds(ids, "ids")], chunked: false };
  if (ids !== undefined)
    throw new LineError("invalid-input", 'a line has "ids" or "chunks", not both', { field: "chunks" });
  if (!Array.isArray(chunks))
    throw new LineError("invalid-input", '"chunks" must be an array of arrays of token IDs', {
      field: "chunks",
    });
  return { ids: chunks.map((c: unknown, i) => checkIds(c, `chunks[${i}]`)), chunked: true };
}

/** undefined when the line has none; else the object (its values are the template's business). */
export function kwargsOfLine(value: unknown): Readonly<Record<string, unknown>> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value))
    throw new LineError("invalid-input", '"chat_template_kwargs" must be an object', {
      field: "chat_template_kwargs",
    });
  return value as Readonly<Record<string, unknown>>;
}
