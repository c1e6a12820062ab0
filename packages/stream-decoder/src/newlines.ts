// Counting and building runs of "\n" for the newline rules (held runs are counts, built once
// when they go out).

/** "\n".repeat(n) for short runs, made once (a run of two or three goes out often). */
const SHORT_NEWLINES: readonly string[] = Array.from({ length: 9 }, (_, n) => "\n".repeat(n));

/** n newlines (held runs are counted, never built, until they go out). */
export function newlines(n: number): string {
  return n < SHORT_NEWLINES.length ? (SHORT_NEWLINES[n] as string) : "\n".repeat(n);
}

export function trailingNewlines(s: string): number {
  let n = 0;
  while (n < s.length && s.charCodeAt(s.length - 1 - n) === 10) n++;
  return n;
}
