// Chunk invariance and stop-string properties (seeded fast-check).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InternLM2Key } from "../../tokenizer/src/families/internlm2/definition.ts";
import { createDecoder, type DecoderEvent, eventCollector } from "../src/index.ts";
import { familyOn } from "./models.ts";
import { firstStop } from "./stop-reference.ts";
import { synthetic } from "./synthetic.ts";

const s = synthetic(["a", "b", "ab", "ba", "abc", "c", "\n", "bca", "é"], false);
const { spec, id: I } = familyOn<InternLM2Key>(s.model, "internlm2");
const MARKERS = [I.actionStart, I.plugin, I.interpreter, I.actionEnd, I.imEnd, I.imStart, I.bos, I.eos];
const textIds = Array.from({ length: 9 }, (_, i) => 259 + i);
/** Byte pieces of "é" / "中" (cut sequences appear when they are interleaved). */
const byteIds = [3 + 0xc3, 3 + 0xa9, 3 + 0xe4, 3 + 0xb8, 3 + 0xad, 3 + 0xff];

const ids = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...textIds) },
    { weight: 3, arbitrary: fc.constantFrom(...byteIds) },
    { weight: 1, arbitrary: fc.constantFrom(...MARKERS, 1_000_000) },
  ),
  { maxLength: 40 },
);

function events(push: (d: ReturnType<typeof createDecoder>) => void, opts = {}): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(spec, c, opts);
  push(d);
  d.end();
  return c.events;
}

describe("chunk invariance", () => {
  it("whole, one at a time and seeded random splits give the same events", () => {
    fc.assert(
      fc.property(ids, fc.array(fc.nat(6), { maxLength: 40 }), fc.boolean(), (xs, cuts, withStops) => {
        const opts = withStops ? { stopStrings: ["bca", "a\nb"], stopTokenIds: [I.actionEnd] } : {};
        const whole = events((d) => d.pushMany(xs), opts);
        expect(
          events((d) => {
            for (const x of xs) d.push(x);
          }, opts),
        ).toEqual(whole);
        const chunked = events((d) => {
          let i = 0;
          let k = 0;
          while (i < xs.length) {
            const n = 1 + (cuts[k++ % Math.max(1, cuts.length)] ?? 0);
            d.pushMany(xs.slice(i, i + n));
            i += n;
          }
        }, opts);
        expect(chunked).toEqual(whole);
        // Exactly one stop, and it is last.
        expect(whole.filter((e) => e.type === "stop").length).toBe(1);
        expect(whole[whole.length - 1]?.type).toBe("stop");
      }),
      { seed: 7, numRuns: 400 },
    );
  });
});

describe("stop strings", () => {
  const textOnly = fc.array(fc.constantFrom(...textIds), { maxLength: 30 });
  const stops = fc.array(fc.stringMatching(/^[abc\n]{1,4}$/), { minLength: 1, maxLength: 3 });

  it("never leak a partial prefix; text before the stop is the full text cut at the first match", () => {
    fc.assert(
      fc.property(textOnly, stops, fc.boolean(), (xs, stopStrings, include) => {
        const full = events((d) => d.pushMany(xs)).reduce(
          (a, e) => a + (e.type === "text" ? e.text : ""),
          "",
        );
        const ev = events((d) => d.pushMany(xs), { stopStrings, includeStopString: include });
        const texts = ev.flatMap((e) => (e.type === "text" ? [e.text] : []));
        const stop = ev[ev.length - 1];
        const best = firstStop(full, stopStrings);
        if (best === undefined) {
          expect(stop).toEqual({ type: "stop", reason: "end_of_input" });
          expect(texts.join("")).toBe(full);
          return;
        }
        expect(stop).toEqual({ type: "stop", reason: "stop_string", text: best.s });
        const before = full.slice(0, best.end - best.s.length);
        expect(texts.join("")).toBe(include ? before + best.s : before);
        const deltas = include ? texts.slice(0, -1) : texts;
        for (const t of deltas) for (const p of stopStrings) expect(t.includes(p)).toBe(false);
        // Nothing held longer than needed: what was emitted before the stop never includes
        // a prefix that is then cut (the concatenation check above), and no delta is empty.
        for (const t of texts) expect(t).not.toBe("");
      }),
      { seed: 11, numRuns: 500 },
    );
  });

  it("held text is released as soon as it can no longer start a stop string", () => {
    const c = eventCollector();
    const d = createDecoder(spec, c, { stopStrings: ["abcd"] });
    d.pushMany(s.enc("ab"));
    expect(c.events.filter((e) => e.type === "text")).toEqual([]);
    d.pushMany(s.enc("c"));
    expect(c.events.filter((e) => e.type === "text")).toEqual([]);
    d.pushMany(s.enc("a"));
    expect(c.events.filter((e) => e.type === "text").map((e) => (e.type === "text" ? e.text : ""))).toEqual([
      "abc",
    ]);
    d.end();
    expect(c.events.slice(-2)).toEqual([
      { type: "text", text: "a" },
      { type: "stop", reason: "end_of_input" },
    ]);
  });

  it("a marker flushes held text (stop strings do not span markers)", () => {
    const ev = events((d) => d.pushMany([...s.enc("ab"), I.actionStart, I.plugin, ...s.enc("c")]), {
      stopStrings: ["abc"],
    });
    expect(ev.map((e) => e.type)).toEqual([
      "message_start",
      "text",
      "action_start",
      "action_text",
      "action_end",
      "stop",
    ]);
  });
});
