// Stop strings on hostile sizes: documented limits on count and length
// with a TypeError beyond them, compiled memory linear in the pattern length (never length x
// alphabet), a per-spec cache bounded in bytes, and the matcher still equal to a plain
// reference (the stop that ends first; at equal ends the longest) with many patterns.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileStopStrings, createDecoder, type DecoderEvent, eventCollector } from "../src/index.ts";
// A namespace import: on code without the byte-bounded cache only that test fails.
import * as stopMatcher from "../src/stop-matcher.ts";
import { familyOn } from "./models.ts";
import { timeRatio } from "./ratio-support.ts";
import { firstStop } from "./stop-reference.ts";
import { synthetic } from "./synthetic.ts";

/** The documented limits (docs/decoder.md). */
const MAX_COUNT = 64;
const MAX_LENGTH = 1024;

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const s = synthetic([...LETTERS], false);
const spec = familyOn(s.model, "qwen3", { eosIds: [] }).spec;

/** A string of n distinct code units (CJK block: one unit each). */
function distinct(n: number, from = 0x4e00): string {
  let out = "";
  for (let i = 0; i < n; i++) out += String.fromCharCode(from + i);
  return out;
}

/** Bytes in the typed arrays a compiled set holds (independent of its own byteLength). */
function typedBytes(o: object): number {
  let n = 0;
  for (const v of Object.values(o)) if (ArrayBuffer.isView(v)) n += v.byteLength;
  return n;
}

describe("stop-string limits (TypeError beyond them)", () => {
  it(`at most ${MAX_COUNT} strings of at most ${MAX_LENGTH} UTF-16 units`, () => {
    const many = Array.from({ length: MAX_COUNT + 1 }, (_, i) => `s${i}`);
    expect(() => compileStopStrings(spec, many)).toThrow(TypeError);
    expect(() => createDecoder(spec, {}, { stopStrings: many })).toThrow(TypeError);
    for (const long of ["x".repeat(MAX_LENGTH + 1), distinct(16_000)]) {
      expect(() => compileStopStrings(spec, [long])).toThrow(TypeError);
      expect(() => createDecoder(spec, {}, { stopStrings: ["ok", long] })).toThrow(TypeError);
    }
    expect(() => compileStopStrings(spec, many.slice(0, MAX_COUNT))).not.toThrow();
    expect(() => compileStopStrings(spec, [distinct(MAX_LENGTH)])).not.toThrow();
  });
});

describe("stop-string memory", () => {
  it("a stop string of distinct units costs memory linear in its length, not length x alphabet", () => {
    const vocab = spec.text.length;
    for (const n of [16, 256, MAX_LENGTH]) {
      const set = compileStopStrings(spec, [distinct(n)]);
      // Two 8 KB unit bitmaps, a byte per vocabulary ID, and a few dozen bytes per unit.
      expect(typedBytes(set), `length ${n}`).toBeLessThan(2 * 8192 + vocab + 64 * (n + 1));
      expect(set.byteLength).toBeGreaterThanOrEqual(typedBytes(set));
    }
    // The largest set the limits allow: 64 strings of 1024 distinct units.
    const big = compileStopStrings(
      spec,
      Array.from({ length: MAX_COUNT }, (_, i) => distinct(MAX_LENGTH, 0x4e00 + i * 64)),
    );
    expect(typedBytes(big)).toBeLessThan(2 * 8192 + vocab + 64 * MAX_COUNT * MAX_LENGTH);
  });

  it("the per-spec cache of compiled sets is bounded in bytes", () => {
    const { CACHE_BYTES, stopStringCacheBytes } = stopMatcher;
    const own = familyOn(s.model, "qwen3", { eosIds: [] }).spec;
    for (let k = 0; k < 40; k++) {
      compileStopStrings(
        own,
        Array.from({ length: MAX_COUNT }, (_, i) => distinct(MAX_LENGTH, 0x4e00 + ((k * 7 + i) % 900) * 16)),
      );
      expect(stopStringCacheBytes(own)).toBeLessThanOrEqual(CACHE_BYTES);
    }
    expect(stopStringCacheBytes(own)).toBeGreaterThan(CACHE_BYTES / 2);
  });
});

describe("stop-string matching with many and long patterns", () => {
  function text(events: readonly DecoderEvent[]): string {
    return events.reduce((a, e) => a + (e.type === "text" ? e.text : ""), "");
  }

  it("equals the reference: the stop that ends first, at equal ends the longest", () => {
    const alphabet = fc.constantFrom(..."abcdefghijkl");
    const str = (max: number) => fc.array(alphabet, { minLength: 1, maxLength: max }).map((a) => a.join(""));
    fc.assert(
      fc.property(
        fc.array(str(60), { maxLength: 10 }).map((a) => a.join("")),
        fc.array(fc.oneof(str(3), str(12), fc.constantFrom("aaaaab", "abababac", "aaaa")), {
          minLength: 1,
          maxLength: MAX_COUNT,
        }),
        (full, stopStrings) => {
          const c = eventCollector();
          const d = createDecoder(spec, c, { stopStrings });
          d.pushMany(s.enc(full));
          d.end();
          const best = firstStop(full, stopStrings);
          const stop = c.events.at(-1);
          if (best === undefined) {
            expect(stop).toEqual({ type: "stop", reason: "end_of_input" });
            expect(text(c.events)).toBe(full);
          } else {
            expect(stop).toEqual({ type: "stop", reason: "stop_string", text: best.s });
            expect(text(c.events)).toBe(full.slice(0, best.end - best.s.length));
          }
        },
      ),
      { seed: 41, numRuns: 400 },
    );
  });

  it("a long self-overlapping stop string costs what a non-matching one costs per token", () => {
    const n = 200_000;
    const ids = s.enc("a".repeat(n));
    const hostileStops = [`${"a".repeat(MAX_LENGTH - 1)}b`, "ab".repeat(MAX_LENGTH / 2)];
    const benignStops = [`${"c".repeat(MAX_LENGTH - 1)}b`, "cb".repeat(MAX_LENGTH / 2)];
    const run = (stopStrings: string[]) => () => {
      const d = createDecoder(spec, {}, { stopStrings });
      d.pushMany(ids);
      d.end();
    };
    // Both sides feed every unit through the automaton ("a" is a unit of both sets).
    benignStops.push("a!");
    hostileStops.push("a!");
    const r = timeRatio(run(hostileStops), run(benignStops));
    console.log(
      `stop strings: self-overlapping 1024-unit pattern / non-matching, ${n} tokens: ${r.toFixed(2)}x`,
    );
    expect(r).toBeLessThan(5);
  });
});
