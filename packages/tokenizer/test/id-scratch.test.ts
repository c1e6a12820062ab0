// id-scratch.ts: the ID array encode() and the chat builder keep between calls. What the model
// tests (encode-at.test.ts) cannot see is checked here: the copy handed out is the caller's own,
// and room above KEEP_IDS is let go while room up to it is kept.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KEEP_IDS, takeIds, trimIds } from "../src/models/id-scratch.ts";

describe("takeIds / trimIds", () => {
  it("hands out the first n IDs as a new array, whatever stale IDs follow them", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 200 }), fc.nat(), (all, k) => {
        const scratch = all.slice();
        const n = all.length === 0 ? 0 : k % (all.length + 1);
        const ids = takeIds(scratch, n);
        expect(ids).toEqual(all.slice(0, n));
        expect(ids).not.toBe(scratch);
        // Writing into the scratch afterwards (the next call) leaves the result alone.
        scratch.fill(-1);
        expect(ids).toEqual(all.slice(0, n));
      }),
      { numRuns: 200, seed: 0x1d5 },
    );
  });

  it("keeps room up to KEEP_IDS", () => {
    const scratch = new Array<number>(KEEP_IDS).fill(7);
    expect(takeIds(scratch, 3)).toEqual([7, 7, 7]);
    expect(scratch.length).toBe(KEEP_IDS);
    trimIds(scratch);
    expect(scratch.length).toBe(KEEP_IDS);
  });

  it("lets go of room above KEEP_IDS, after the copy is taken", () => {
    const scratch = new Array<number>(KEEP_IDS + 1).fill(5);
    const ids = takeIds(scratch, KEEP_IDS + 1);
    expect(ids.length).toBe(KEEP_IDS + 1);
    expect(ids[KEEP_IDS]).toBe(5);
    expect(scratch.length).toBe(0);
    const buf = new Array<number>(KEEP_IDS + 10).fill(1);
    trimIds(buf);
    expect(buf.length).toBe(0);
  });
});
