// The per-ID string tables of the decoder's fast path (plain text, newline variants, a stop
// set's clear text). None is made with `new Array(n)`: a holey array costs push()'s table read an
// extra check per ID.

/**
 * n slots, all undefined, not a holey array. Array.from makes it natively: a push loop runs cold
 * (interpreted) over the whole vocabulary when the first decoder of a spec is made.
 */
export function undefinedTable(n: number): (string | undefined)[] {
  return Array.from({ length: n });
}
