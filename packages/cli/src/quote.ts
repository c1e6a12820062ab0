// Caller input quoted in a message (stderr line or error line): at most 40 characters of it,
// JSON-escaped, with "…" when cut (docs/cli-contract.md "Errors").

export const QUOTE_MAX = 40;

export function quoteInput(input: string): string {
  if (input.length <= QUOTE_MAX) return JSON.stringify(input);
  // Do not cut a surrogate pair in half.
  let end = QUOTE_MAX;
  const last = input.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return JSON.stringify(`${input.slice(0, end)}…`);
}
