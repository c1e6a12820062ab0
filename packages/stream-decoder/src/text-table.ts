// The per-ID tables of the decoder's fast path (plain text, newline variants, a stop set's clear
// text, byte splits). All are packed arrays of undefined (undefinedTable), never made with
// `new Array(n)`: a holey array costs push()'s table read an extra check per ID.

/** A packed array of n undefined, kept once a second table of that length is asked for. */
let blank: undefined[] = [];
/** The length of the last table made without keeping `blank`. */
let lastLength = -1;

/**
 * n slots, all undefined, in a packed array. Array.from fills natively (a push loop runs cold,
 * interpreted, over the whole vocabulary for the first decoder of a spec). The first table of a
 * length is handed out as made: a process with one spec and no stop strings (a cold start) makes
 * one table per length, and a kept copy would be one more vocabulary-sized array to allocate. From
 * the second on (a stop set makes one per set), copies of a kept `blank` (slice keeps the packed
 * kind; copying costs a fraction of filling).
 */
export function undefinedTable<T = string>(n: number): (T | undefined)[] {
  if (blank.length === n) return blank.slice();
  if (lastLength !== n) {
    lastLength = n;
    return Array.from({ length: n });
  }
  blank = Array.from({ length: n });
  return blank.slice();
}
