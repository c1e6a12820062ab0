// A merge table read back from a table file (MergeTable.toStored / fromStored in
// src/models/bytelevel/bpe.ts): the same lookups as the table it was written from; a shape written
// for another merge count is refused; damaged arrays read without the verified flag are refused or
// still answer only ranks and ids in range (never an endless probe or a throw).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MergeTable, type StoredMergeTable } from "../src/models/bytelevel/bpe.ts";

const VOCAB = 4000;

/** Merges over ids below VOCAB (the packed and dense ranges; a table with overflow is not stored). */
const merges = fc.array(
  fc.tuple(
    fc.integer({ min: 0, max: VOCAB - 1 }),
    fc.integer({ min: 0, max: VOCAB - 1 }),
    fc.integer({ min: 0, max: VOCAB - 1 }),
  ),
  { minLength: 1, maxLength: 300 },
);

function built(list: readonly (readonly [number, number, number])[]): MergeTable {
  const t = new MergeTable(list.length);
  list.forEach(([a, b, m], r) => {
    t.set(a, b, r, m);
  });
  return t;
}

/** Copies, so damage to one never reaches the table it came from. */
function copy(s: StoredMergeTable): StoredMergeTable {
  return { ...s, slots: s.slots.slice(), small: s.small.slice(), mergedByRank: s.mergedByRank.slice() };
}

describe("stored merge table", () => {
  it("reads back with the same ranks and merged ids, verified or not", () => {
    fc.assert(
      fc.property(
        merges,
        fc.array(fc.integer({ min: 0, max: VOCAB - 1 }), { maxLength: 40 }),
        (list, probes) => {
          const t = built(list);
          const stored = t.toStored();
          expect(stored).toBeDefined();
          for (const verified of [true, false]) {
            const back = MergeTable.fromStored(
              copy(stored as StoredMergeTable),
              list.length,
              VOCAB,
              verified,
            );
            expect(back).toBeDefined();
            const r = back as MergeTable;
            expect(r.size).toBe(t.size);
            expect(Number.isNaN(r.mergedOffset)).toBe(Number.isNaN(t.mergedOffset));
            const pairs: [number, number][] = list.map(([a, b]) => [a, b]);
            for (let i = 0; i + 1 < probes.length; i++)
              pairs.push([probes[i] as number, probes[i + 1] as number]);
            expect(pairs.map(([a, b]) => r.find(a, b))).toEqual(pairs.map(([a, b]) => t.find(a, b)));
            for (let k = 0; k < list.length; k++) expect(r.mergedAt(k)).toBe(t.mergedAt(k));
            expect(r.small.every((v, k) => v === t.small[k])).toBe(true);
          }
        },
      ),
      { seed: 20261206, numRuns: 100 },
    );
  });

  it("a table written for another number of merges is refused", () => {
    const stored = built([[1, 2, 300]]).toStored() as StoredMergeTable;
    expect(MergeTable.fromStored(stored, 1, VOCAB, true)).toBeDefined();
    expect(MergeTable.fromStored(stored, 100, VOCAB, true)).toBeUndefined();
    expect(MergeTable.fromStored(stored, 2, VOCAB, true)).toBeUndefined();
    expect(MergeTable.fromStored({ ...stored, count: 2 }, 1, VOCAB, false)).toBeUndefined();
  });

  it("a table with an overflow pair is not stored", () => {
    const t = new MergeTable(1);
    t.set(2 ** 22, 1, 0, 5);
    expect(t.toStored()).toBeUndefined();
  });

  it("damaged arrays read unverified are refused or answer only ranks in range", () => {
    fc.assert(
      fc.property(
        merges,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.constantFrom("slots", "small", "mergedByRank") as fc.Arbitrary<"slots" | "small" | "mergedByRank">,
        (list, hits, part) => {
          const stored = copy(built(list).toStored() as StoredMergeTable);
          const array = stored[part];
          for (const [at, v] of hits) array[at % array.length] = v;
          // Every slot full: a lookup of a missing pair would probe forever.
          if (part === "slots" && hits.length > 4) stored.slots.fill(0);
          const back = MergeTable.fromStored(stored, list.length, VOCAB, false);
          if (back === undefined) return;
          let bad = 0;
          const pairs: [number, number][] = list.map(([a, b]) => [a, b]);
          for (let a = 0; a < 40; a++) for (let b = 0; b < 40; b++) pairs.push([a * 97, b * 89]);
          for (const [a, b] of pairs) {
            const r = back.find(a, b);
            if (r < -1 || r >= list.length || (r >= 0 && back.mergedAt(r) >= VOCAB)) bad++;
          }
          expect(bad).toBe(0);
        },
      ),
      { seed: 20261207, numRuns: 200 },
    );
  });
});
