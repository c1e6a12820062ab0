// An action's raw text kept as code units (src/raw-text.ts) is the plain concatenation of the
// appended pieces, unit for unit: lone surrogates, pairs cut between pieces, every length
// (the short fromCharCode path, Node's Buffer, the sliced fromCharCode path used without it)
// and buffer growth across actions.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NODE_BUFFER, RawText, unitsToString } from "../src/raw-text.ts";

/** Any UTF-16 code unit, lone surrogates included. */
const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const piece = fc.string({ unit, maxLength: 12 });
/** Pieces with long runs too, so totals cross the short path and the slice size. */
const pieces = fc.array(fc.oneof(piece, piece, fc.string({ unit, minLength: 200, maxLength: 3000 })), {
  maxLength: 40,
});

describe("RawText", () => {
  it("take() is the concatenation of the appended pieces (fast-check)", () => {
    const raw = new RawText();
    fc.assert(
      fc.property(pieces, (ps) => {
        for (const p of ps) raw.append(p);
        expect(raw.length).toBe(ps.join("").length);
        const s = raw.take();
        expect(s).toBe(ps.join(""));
        expect(raw.length).toBe(0);
      }),
      { seed: 40_2, numRuns: 300 },
    );
  });

  it("clear() empties it; the next action starts from nothing", () => {
    const raw = new RawText();
    raw.append("\ud83d");
    raw.append("x".repeat(70_000));
    raw.clear();
    raw.append("\ude00a");
    expect(raw.take()).toBe("\ude00a");
  });

  it("decoders interleaved: a buffer one action gives back is reused by another, never shared", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(2), fc.boolean(), piece), { maxLength: 200 }), (steps) => {
        const raws = [new RawText(), new RawText(), new RawText()];
        const want = ["", "", ""];
        for (const [k, take, p] of steps) {
          const r = raws[k] as RawText;
          if (take) {
            expect(r.take()).toBe(want[k]);
            want[k] = "";
          } else {
            r.append(p.repeat(40));
            want[k] += p.repeat(40);
          }
        }
        for (let k = 0; k < 3; k++) expect((raws[k] as RawText).take()).toBe(want[k]);
      }),
      { seed: 40_4, numRuns: 200 },
    );
  });

  it("with and without Node's Buffer the string is the same code units", () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 20_000 }), (us) => {
        const b = new Uint16Array(us.length + 3);
        for (let i = 0; i < us.length; i++) b[i] = us[i]?.charCodeAt(0) ?? 0;
        const want = us.join("");
        expect(unitsToString(b, us.length, undefined)).toBe(want);
        if (NODE_BUFFER !== undefined) expect(unitsToString(b, us.length, NODE_BUFFER)).toBe(want);
      }),
      { seed: 40_3, numRuns: 60 },
    );
  });
});
