// WordCache (src/models/bytelevel/word-cache.ts) against a Map<string, number> model on random spans of
// random texts (few distinct units, so many keys share prefixes, lengths and probe runs), with
// clears; plus the encoder with a tiny cache (cleared every few words) against the uncached one.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadByteLevelModel } from "../src/models/bytelevel/index.ts";
import { MAX_PROBES, MISS, WordCache } from "../src/models/bytelevel/word-cache.ts";
import { QWEN3_FILE, QWEN3_JSON } from "./bytelevel-support.ts";

const op = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(fc.constant("span" as const), fc.nat(), fc.integer({ min: 1, max: 9 })) },
  { weight: 1, arbitrary: fc.tuple(fc.constant("clear" as const), fc.constant(0), fc.constant(0)) },
);

describe("WordCache", () => {
  it("answers as a Map of the span's string (get after set, MISS otherwise, clear)", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("a", "b", "\u4e2d", "\ud83d", "\ude00", " "),
          minLength: 1,
          maxLength: 60,
        }),
        fc.array(op, { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        (text, ops, maxWords) => {
          const cache = new WordCache(maxWords, 8);
          const model = new Map<string, number>();
          let next = 0;
          for (const [kind, a, len] of ops) {
            if (kind === "clear" || model.size >= maxWords) {
              cache.clear();
              model.clear();
              if (kind === "clear") continue;
            }
            const start = a % text.length;
            const stop = Math.min(text.length, start + len);
            const key = text.slice(start, stop);
            const h = WordCache.hash(text, start, stop);
            expect(h).toBe(WordCache.hash(key, 0, key.length));
            const got = cache.get(text, start, stop, h);
            expect(got, JSON.stringify(key)).toBe(model.get(key) ?? MISS);
            expect(cache.size).toBe(model.size);
            if (got === MISS && key.length <= 8) {
              const value = next++ % 3 === 0 ? -next : next;
              cache.set(text, start, stop, h, value);
              model.set(key, value);
            }
          }
        },
      ),
      { numRuns: 400, seed: 919 },
    );
  });

  it("a hash collision is no hit (keys compared unit by unit)", () => {
    const cache = new WordCache(8, 8);
    cache.set("ab", 0, 2, 12345, 7);
    expect(cache.get("ab", 0, 2, 12345)).toBe(7);
    expect(cache.get("ba", 0, 2, 12345)).toBe(MISS);
    expect(cache.get("abc", 0, 3, 12345)).toBe(MISS);
    expect(cache.get("cb", 0, 2, 12345)).toBe(MISS);
    expect(cache.get("a", 0, 1, 12345)).toBe(MISS);
  });

  it("keeps every key while its unit store grows", () => {
    const cache = new WordCache(5000, 8);
    const key = (i: number): string => `k${i.toString(36).padStart(6, "0")}`;
    for (let i = 0; i < 5000; i++) {
      const k = key(i);
      cache.set(k, 0, k.length, WordCache.hash(k, 0, k.length), i);
    }
    for (let i = 0; i < 5000; i++) {
      const k = key(i);
      expect(cache.get(k, 0, k.length, WordCache.hash(k, 0, k.length))).toBe(i);
    }
  });

  it("words that all share one home slot: a lookup stops after MAX_PROBES slots, never a wrong value", () => {
    // The hash has no secret seed, so caller text can collide on purpose; here every key gets
    // the same hash. The first MAX_PROBES are stored and found; the rest are not stored (MISS),
    // so one word never costs more than MAX_PROBES comparisons.
    const cache = new WordCache(4096, 16);
    const h = 12345;
    const key = (i: number) => `w${i}`;
    for (let i = 0; i < 1000; i++) {
      const k = key(i);
      if (cache.get(k, 0, k.length, h) === MISS) cache.set(k, 0, k.length, h, i);
    }
    expect(cache.size).toBe(MAX_PROBES);
    for (let i = 0; i < 1000; i++) {
      const k = key(i);
      expect(cache.get(k, 0, k.length, h)).toBe(i < MAX_PROBES ? i : MISS);
    }
  });

  it("the encoder with a cache cleared every few words gives the uncached IDs", () => {
    const tiny = loadByteLevelModel(QWEN3_JSON, { file: QWEN3_FILE, cacheWords: 3 });
    const uncached = loadByteLevelModel(QWEN3_JSON, { file: QWEN3_FILE, cacheWords: 0 });
    const word = fc.constantFrom(" the", " cat", "中文", " 中文", "ab", "1", "\n", "!!", " Hello", "😀", "x");
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), (ws) => {
        const s = ws.join("");
        expect(tiny.encode(s)).toEqual(uncached.encode(s));
      }),
      { numRuns: 300, seed: 920 },
    );
  });
});
