// Differential test of the hand-inlined per-token fast path: the same inputs through a normal
// decoder and through one with the fast path disabled (internal SLOW_PATH_ONLY: every push
// takes the checked path) must give exactly the same events, for every family grammar, on
// random ID streams (markers, text, newline pieces, bytes, IDs outside the vocabulary; random
// stop strings, stop IDs, maxTokens, tool-call streaming, tools, chunking) and on the golden
// ID sequences of the reference tools (test-vectors/golden: rendered conversations, decode
// vectors), decoded as whole conversations (no EOS) and as generations.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDecoder, type DecoderEvent, type DecoderOptions, eventCollector } from "../../src/index.ts";
import { SLOW_PATH_ONLY } from "../../src/internal.ts";
import { Cls, classOf, type DecoderSpec } from "../../src/spec.ts";
import { optionFields, optionsOf, StopSets, WEATHER_TOOLS as TOOLS } from "../drawn-options.ts";
import { expectEqual } from "../expect-equal.ts";
import { withSampleWindows } from "../sample-windows.ts";
import { FAMILY_CASES, type FamilyCase } from "./families.ts";

function decodeBoth(
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions,
  chunk: number,
): { fast: DecoderEvent[]; slow: DecoderEvent[] } {
  const go = (o: DecoderOptions): DecoderEvent[] => {
    const c = eventCollector();
    const d = createDecoder(spec, c, o);
    for (let i = 0; i < ids.length; i += chunk) d.pushMany(ids.slice(i, i + chunk));
    d.end();
    return c.events;
  };
  return { fast: go(options), slow: go({ ...options, [SLOW_PATH_ONLY]: true } as DecoderOptions) };
}

/** IDs that decode to text ending in "\n" (the newline rules' held runs; a byte piece 0x0A too). */
function newlineIds(spec: DecoderSpec, size: number): number[] {
  const out: number[] = [];
  for (let id = 0; id < size && out.length < 24; id++) {
    const t = spec.text[id];
    const b = spec.bytes[id];
    if (t?.endsWith("\n") || (b !== undefined && b.length === 1 && b[0] === 10)) out.push(id);
  }
  return out;
}

function streams(c: FamilyCase): fc.Arbitrary<number[]> {
  const size = c.vocabSize();
  const markers = [...c.markerIds()];
  const nl = newlineIds(c.spec("default"), size);
  const pool: Array<fc.WeightedArbitrary<number>> = [
    { weight: 8, arbitrary: fc.integer({ min: 0, max: size - 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(-1, size + 4096, 2 ** 31) },
  ];
  if (markers.length > 0) pool.push({ weight: 3, arbitrary: fc.constantFrom(...markers) });
  if (nl.length > 0) pool.push({ weight: 3, arbitrary: fc.constantFrom(...nl) });
  const ids = fc.array(fc.oneof(...pool), { maxLength: 90 });
  const samples = c.samples?.().filter((v) => v.ids.length > 0) ?? [];
  return withSampleWindows(ids, samples);
}

function optionsArb(
  c: FamilyCase,
): fc.Arbitrary<{ eos: "default" | "none"; options: DecoderOptions; chunk: number }> {
  const markers = [...c.markerIds()];
  return fc
    .record({
      eos: fc.constantFrom("default" as const, "none" as const),
      ...optionFields(markers),
      chunk: fc.integer({ min: 1, max: 8 }),
    })
    .map((r) => ({ eos: r.eos, options: optionsOf(r), chunk: r.chunk }));
}

for (const c of FAMILY_CASES) {
  describe.skipIf(!c.available)(`fast path = slow path: ${c.name}`, () => {
    it("random ID streams, options and chunking: identical events", () => {
      const stops = new StopSets();
      fc.assert(
        fc.property(streams(c), optionsArb(c), (ids, o) => {
          const spec = c.spec(o.eos);
          const r = decodeBoth(spec, ids, stops.options(spec, o.options), o.chunk);
          expectEqual(r.fast, r.slow);
        }),
        { numRuns: 150, seed: 8 },
      );
    });

    it("golden ID sequences of the reference tools: identical events (conversation and generation)", () => {
      const vectors = [...c.goldenIds(), ...(c.samples?.() ?? [])];
      for (const v of vectors) {
        for (const eos of ["none", "default"] as const) {
          for (const options of [{}, { streamToolCalls: true, tools: TOOLS }] as DecoderOptions[]) {
            const r = decodeBoth(c.spec(eos), v.ids, options, 1);
            expectEqual(r.fast, r.slow, v.name);
          }
        }
      }
    });

    it("the fast path is really taken by the normal decoder (and never by the slow-only one)", () => {
      const spec = c.spec("none");
      const size = c.vocabSize();
      // Plain text IDs: text classes, not ending in "\n".
      const text: number[] = [];
      for (let id = 0; id < size && text.length < 8; id++) {
        const t = spec.text[id];
        if (classOf(spec, id) === Cls.Text && t !== undefined && /^[a-z]+$/i.test(t)) text.push(id);
      }
      expect(text.length).toBeGreaterThan(2);
      // A "\n" first: it ends a metadata line where the grammar starts with one.
      const nl = newlineIds(spec, size)[0];
      if (nl !== undefined) text.unshift(nl);
      const fast = createDecoder(spec, eventCollector());
      const slow = createDecoder(spec, eventCollector(), { [SLOW_PATH_ONLY]: true } as DecoderOptions);
      let zero = 0;
      for (const id of text) {
        fast.push(id);
        slow.push(id);
        if (Reflect.get(fast, "slow") === 0) zero++;
        expect(Reflect.get(slow, "slow")).not.toBe(0);
      }
      // Where text markers are valid in content, every piece is scanned for them (markedText):
      // that content never takes the fast path.
      if (spec.textMarkers?.content != null) expect(zero).toBe(0);
      else expect(zero).toBeGreaterThan(0);
    });
  });
}
