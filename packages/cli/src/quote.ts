// Caller input quoted in a message (stderr line or error line): at most 40 characters of it,
// JSON-escaped, with "…" when cut (docs/cli-contract.md "Errors").
import { resolve } from "node:path";

export const QUOTE_MAX = 40;

export function quoteInput(input: string): string {
  if (input.length <= QUOTE_MAX) return JSON.stringify(input);
  return JSON.stringify(cut(input));
}

/** The first 40 characters and "…" (a surrogate pair is not cut in half). */
function cut(input: string): string {
  let end = QUOTE_MAX;
  const last = input.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${input.slice(0, end)}…`;
}

/**
 * The first line of a library error about the model at `name` (a path or a name), with that path
 * (as given and resolved) cut to 40 characters wherever the library wrote it, and the line to 300.
 */
export function loadErrorDetail(message: string, name: string): string {
  let line = message.split("\n")[0] ?? "";
  for (const p of [resolve(name), name]) if (p.length > QUOTE_MAX) line = line.split(p).join(cut(p));
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
