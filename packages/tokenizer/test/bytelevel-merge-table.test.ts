// MergeTable + WordMerger (src/models/bytelevel/bpe.ts: packed slots, the dense small-id table, the
// overflow map for ids >= 2^21 - 1, the array path and the heap path) against a naive BPE written
// here from the rule of HF tokenizers' Word::merge_all (a re-implementation, labelled as such:
// lowest rank first, leftmost among equal ranks; a later duplicate merge replaces an earlier one).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MergeTable, WordMerger } from "../src/models/bytelevel/bpe.ts";

type Merge = readonly [number, number, number];

function naive(merges: readonly Merge[], word: readonly number[]): number[] {
  const rank = new Map<string, [number, number]>();
  merges.forEach(([a, b, m], r) => {
    rank.set(`${a},${b}`, [r, m]);
  });
  const w = [...word];
  for (;;) {
    let best = -1;
    let at = -1;
    for (let i = 0; i + 1 < w.length; i++) {
      const hit = rank.get(`${w[i]},${w[i + 1]}`);
      if (hit !== undefined && (best < 0 || hit[0] < best)) {
        best = hit[0];
        at = i;
      }
    }
    if (at < 0) return w;
    w.splice(at, 2, (rank.get(`${w[at]},${w[at + 1]}`) as [number, number])[1]);
  }
}

/** Ids from the dense range, the packed range and past it (the overflow map). */
const id = fc.oneof(
  fc.integer({ min: 0, max: 255 }),
  fc.integer({ min: 256, max: 3000 }),
  fc.integer({ min: (1 << 21) - 3, max: (1 << 21) + 3 }),
  fc.integer({ min: 2 ** 30, max: 2 ** 31 - 1 }),
);
const setup = fc
  .record({
    base: fc.uniqueArray(id, { minLength: 2, maxLength: 6 }),
    picks: fc.array(fc.tuple(fc.nat(), fc.nat(), id), { minLength: 1, maxLength: 40 }),
    // Merged id = rank + 5000 for every merge (as GPT-2-style files: the offset path).
    uniform: fc.boolean(),
  })
  .chain(({ base, picks, uniform }) => {
    // Merges over symbols that exist by then (the base, then earlier merges' results).
    const known = [...base];
    const merges: Merge[] = [];
    for (const [i, j, picked] of picks) {
      const m = uniform ? 5000 + merges.length : picked;
      merges.push([known[i % known.length] as number, known[j % known.length] as number, m]);
      known.push(m);
    }
    const sym = fc.constantFrom(...base);
    const word = fc.oneof(
      fc.array(sym, { minLength: 0, maxLength: 12 }),
      fc.array(sym, { minLength: 90, maxLength: 300 }),
    );
    return fc.tuple(fc.constant(merges), fc.array(word, { minLength: 1, maxLength: 6 }));
  });

describe("MergeTable + WordMerger", () => {
  it("merge like a naive BPE (both paths, every id range, duplicate merges)", () => {
    fc.assert(
      fc.property(setup, ([merges, words]) => {
        const table = new MergeTable(merges.length);
        merges.forEach(([a, b, m], rank) => {
          table.set(a, b, rank, m);
        });
        const merger = new WordMerger(table);
        for (const word of words) {
          const syms = Int32Array.from(word);
          const n = merger.merge(syms, word.length);
          expect(Array.from(syms.subarray(0, n))).toEqual(naive(merges, word));
        }
      }),
      { numRuns: 600, seed: 1117 },
    );
  });

  it("find: the rank of a stored pair, -1 for any other (a full table of near-miss keys)", () => {
    const table = new MergeTable(5000);
    const stored = new Map<string, number>();
    for (let r = 0; r < 5000; r++) {
      const a = (r * 7919) % 4099;
      const b = (r * 104729) % (1 << 20);
      table.set(a, b, r, r + 1);
      stored.set(`${a},${b}`, r);
    }
    for (let r = 0; r < 5000; r++) {
      const a = (r * 7919) % 4099;
      const b = (r * 104729) % (1 << 20);
      const rank = stored.get(`${a},${b}`) as number;
      expect(table.find(a, b)).toBe(rank);
      expect(table.mergedByRank[rank]).toBe(rank + 1);
      // Same packed high word, other low bits of b; other a.
      for (const [x, y] of [
        [a, b ^ 1],
        [a, b ^ 512],
        [a + 1, b],
        [a, b + (1 << 20)],
      ] as const) {
        expect(table.find(x, y)).toBe(stored.get(`${x},${y}`) ?? -1);
      }
    }
  });
});
