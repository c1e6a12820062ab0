// Shared by the stream properties (bursts, conformance/fast-slow): random ID streams mixed with
// windows cut out of a grammar's sample streams, so that text markers and other multi-token
// structures are cut anywhere by the burst and chunk boundaries.
import fc from "fast-check";

/** `ids` alone without samples; else 1-6 parts, each 6 random IDs or a 1-40 ID window of a sample. */
export function withSampleWindows(
  ids: fc.Arbitrary<number[]>,
  samples: ReadonlyArray<{ readonly ids: readonly number[] }>,
): fc.Arbitrary<number[]> {
  if (samples.length === 0) return ids;
  const window = fc
    .tuple(fc.nat({ max: samples.length - 1 }), fc.nat(), fc.integer({ min: 1, max: 40 }))
    .map(([k, at, n]) => {
      const v = (samples[k] as { ids: readonly number[] }).ids;
      return v.slice(at % v.length, (at % v.length) + n);
    });
  return fc
    .array(
      fc.oneof(
        ids.map((x) => x.slice(0, 6)),
        window,
      ),
      { minLength: 1, maxLength: 6 },
    )
    .map((parts) => parts.flat());
}
