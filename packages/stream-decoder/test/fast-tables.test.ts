// The fast path's piece copies (src/fast-tables.ts flatText): a copy equals its piece for any
// piece a model file can hold, however long (a vocabulary entry is not bounded by the loaders).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flatText } from "../src/fast-tables.ts";

describe("flatText", () => {
  it("equals its piece: random strings, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 64 }), (s) => {
        expect(flatText(s)).toBe(s);
      }),
      { numRuns: 500, seed: 20261206 },
    );
  });

  it("equals its piece at every length around its copy bound and far past it (no throw)", () => {
    for (const n of [4095, 4096, 4097, 200_000, 1_000_000]) {
      const s = "ab😀".repeat(Math.ceil(n / 4)).slice(0, n);
      expect(flatText(s)).toBe(s);
    }
  });
});
