// The per-ID string tables of the decoder's fast path (plain text, newline variants, a stop
// set's clear text). All have ONE array map (PACKED_ELEMENTS), so push()'s table read stays
// monomorphic and needs no hole check: `new Array(n).fill(undefined)` makes a HOLEY array,
// and V8 then tests every element read for the hole before testing it for undefined.

/** n slots, all undefined, PACKED_ELEMENTS (filled by push, never from a holey array). */
export function undefinedTable(n: number): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let i = 0; i < n; i++) out.push(undefined);
  return out;
}
