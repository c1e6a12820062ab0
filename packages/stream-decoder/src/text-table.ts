// The per-ID string tables of the decoder's fast path (plain text, newline variants, a stop
// set's clear text). All are filled by push (undefinedTable), never made with `new Array(n)`:
// a holey array costs push()'s table read an extra check per ID.

/** n slots, all undefined, filled by push (not a holey array). */
export function undefinedTable(n: number): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let i = 0; i < n; i++) out.push(undefined);
  return out;
}
