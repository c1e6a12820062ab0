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

/** A JSON string literal in a message: how the library quotes a value (its quote() is JSON.stringify). */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/**
 * The first line of a library error about the model at `name` (a path or a name), with only the
 * caller's values in it cut to 40 characters: that path (as given and resolved) wherever the
 * library wrote it, and every quoted value (a string read from the caller's files). The library's
 * own words (e.g. the list of families) are kept whole.
 */
export function loadErrorDetail(message: string, name: string): string {
  let line = message.split("\n")[0] ?? "";
  for (const p of [resolve(name), name]) if (p.length > QUOTE_MAX) line = line.split(p).join(cut(p));
  return line.replace(QUOTED, (literal) => {
    if (literal.length <= QUOTE_MAX + 2) return literal;
    try {
      return quoteInput(JSON.parse(literal) as string);
    } catch {
      return `"${cut(literal.slice(1, -1))}"`; // not JSON after all (a stray pair of quotes): cut as written
    }
  });
}
