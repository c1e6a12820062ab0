// The per-ID string tables of the decoder's fast path (plain text, newline variants, a stop
// set's clear text). All are packed arrays of undefined (undefinedTable), never made with
// `new Array(n)`: a holey array costs push()'s table read an extra check per ID.

/** The last table length asked for, as a packed array of undefined: copied, never handed out. */
let blank: (string | undefined)[] = [];

/**
 * n slots, all undefined, in a packed array. A copy of `blank` (slice keeps the packed kind): a
 * stop set makes one per set, and copying costs a fraction of filling. Array.from fills natively
 * (a push loop runs cold, interpreted, over the whole vocabulary for the first decoder of a spec).
 */
export function undefinedTable(n: number): (string | undefined)[] {
  if (blank.length !== n) blank = Array.from({ length: n });
  return blank.slice();
}
