// Differential test of the per-token fast path on REAL text (the random ID streams of
// ./fast-slow.test.ts rarely put a stop string, a held newline run or a max_tokens cut inside a
// run of plain-text pieces): text encoded by the family's own encoder, the pieces of a pool
// chosen so that the stop strings occur in it (inside pieces and across piece boundaries),
// with newlines, CJK and emoji (byte pieces in SentencePiece vocabularies), between random
// reserved markers. A normal decoder and one with the fast path disabled (internal
// SLOW_PATH_ONLY) must give exactly the same events, for every family with an encoder here.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DecoderOptions } from "../../src/index.ts";
import { SLOW_PATH_ONLY } from "../../src/internal.ts";
import { optionsOf, StopSets } from "../drawn-options.ts";
import { expectEqual } from "../expect-equal.ts";
import { decodeAll } from "./decode-all.ts";
import { FAMILY_CASES } from "./families.ts";

/** Text pieces: the stop strings below occur in them and across them. */
const POOL = [
  "Hello there",
  " the answer",
  " is below",
  ".\n",
  "\n\n",
  "\n",
  "hello world",
  " lo",
  "w and behold",
  '{"name": "get_weather", "arguments": {"city": "Paris"}}',
  "}",
  " 東京の天気",
  "は晴れです。",
  " 😀🎉",
  "END",
  " OF ANSWER",
  "\n\nHuman:",
  " plain words",
  // Stop strings cut across pieces (a held prefix, then pieces that cannot start one).
  "EN",
  "D OF",
  "\nHum",
  "an: yes",
  "天",
  "気",
];
const STOPS = ["the", "lo", "\n\n", "}", "天気", "END OF", "😀", "Human:", "D OF"];

const withText = FAMILY_CASES.filter((c) => c.available && c.tokenizer !== undefined);

describe("fast path = slow path on encoded text", () => {
  it("families with an encoder are covered", () => {
    expect(withText.length).toBeGreaterThan(0);
  });

  for (const c of withText) {
    it(`${c.name}: text runs between markers, with stop strings, maxTokens and tools`, () => {
      const tok = (c.tokenizer as NonNullable<typeof c.tokenizer>)();
      const encoded = POOL.map((p) => tok.textModel.encode(p));
      const markers = [...c.markerIds()];
      const segment: fc.Arbitrary<readonly number[]> =
        markers.length > 0
          ? fc.oneof(
              { weight: 6, arbitrary: fc.constantFrom(...encoded) },
              { weight: 1, arbitrary: fc.constantFrom(...markers).map((m) => [m]) },
            )
          : fc.constantFrom(...encoded);
      const stops = new StopSets();
      fc.assert(
        fc.property(
          fc.array(segment, { maxLength: 40 }),
          fc.record({
            eos: fc.constantFrom("default" as const, "none" as const),
            stops: fc.subarray(STOPS, { maxLength: 3 }),
            maxTokens: fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
            include: fc.boolean(),
            tools: fc.boolean(),
            stream: fc.boolean(),
          }),
          (segments, r) => {
            const ids = segments.flat();
            const spec = c.spec(r.eos);
            const o = stops.options(spec, optionsOf(r));
            const slow = decodeAll(spec, ids, { ...o, [SLOW_PATH_ONLY]: true } as DecoderOptions);
            // Twice: the fast path's tables fill at an ID's first sight, so the second run
            // takes the fast path where the first took the checked one.
            expectEqual(decodeAll(spec, ids, o), slow);
            expectEqual(decodeAll(spec, ids, o), slow);
          },
        ),
        { numRuns: 120, seed: 15 },
      );
    });
  }
});
