// align.ts (the naive column's Myers diff) against a textbook O(N*M) LCS table on small
// random ID sequences: the matched IDs of b form a common subsequence of a and b whose length
// is the LCS length; past the edit bound it gives up instead of working on.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchedInB } from "../src/align.ts";

function lcsLength(a: readonly number[], b: readonly number[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j] as number;
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(up, row[j - 1] as number);
      diag = up;
    }
  }
  return row[b.length] as number;
}

function isSubsequence(sub: readonly number[], of: readonly number[]): boolean {
  let k = 0;
  for (const x of of) if (k < sub.length && sub[k] === x) k++;
  return k === sub.length;
}

const ids = fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 40 });

describe("matchedInB", () => {
  it("matches a longest common subsequence", () => {
    fc.assert(
      fc.property(ids, ids, (a, b) => {
        const matched = matchedInB(a, b);
        expect(matched).toBeDefined();
        const kept = b.filter((_, j) => matched?.[j] === 1);
        expect(isSubsequence(kept, a)).toBe(true);
        expect(kept.length).toBe(lcsLength(a, b));
      }),
      { seed: 13, numRuns: 500 },
    );
  });

  it("marks the forged marker in a chat-like pair", () => {
    // chatwire: <s> text... </s>; naive: the same with one marker (9) made from "<", "|", ">".
    const ours = [9, 1, 2, 3, 4, 5, 10, 9, 6, 10];
    const naive = [9, 1, 2, 9, 5, 10, 9, 6, 10];
    expect([...(matchedInB(ours, naive) ?? [])]).toEqual([1, 1, 1, 0, 1, 1, 1, 1, 1]);
  });

  it("gives up past maxEdits", () => {
    const a = Array.from({ length: 100 }, (_, i) => i);
    const b = Array.from({ length: 100 }, (_, i) => 1000 + i);
    expect(matchedInB(a, b, 50)).toBeUndefined();
    expect(matchedInB(a, b, 200)?.every((x) => x === 0)).toBe(true);
  });
});
