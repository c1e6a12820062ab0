// Text deltas of a span concatenate to the reference-equivalent one-shot decode of its IDs,
// for random ID sequences (biased to byte pieces and cut UTF-8) and for the golden vectors
// produced by the reference tools (test-vectors/golden/*.decode.json).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type TextModel, TokenKind } from "@chatwire/tokenizer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDecoder, eventCollector } from "../src/index.ts";
import { MODELS, repoRoot, run, spanSpec, textOf } from "./models.ts";

interface Pools {
  text: number[];
  control: number[];
  bytes: number[];
  /** byte value -> an ID contributing exactly that byte (for building cut UTF-8). */
  byteId: Map<number, number>;
}

function pools(model: TextModel, limit: number): Pools {
  const t = model.decodeTable;
  const p: Pools = { text: [], control: [], bytes: [], byteId: new Map() };
  const enc = new TextEncoder();
  for (let id = 0; id < Math.min(t.size, limit); id++) {
    const k = t.kind[id];
    if (k === TokenKind.Bytes) {
      p.bytes.push(id);
      const b = t.bytes[id];
      if (b !== undefined && b.length === 1) p.byteId.set(b[0] as number, id);
    } else if (k === TokenKind.Control) p.control.push(id);
    else {
      p.text.push(id);
      const b = enc.encode(t.text[id] ?? "");
      if (b.length === 1 && !p.byteId.has(b[0] as number)) p.byteId.set(b[0] as number, id);
    }
  }
  return p;
}

/** One ID of `pool` as a one-ID sequence (an index: a vocabulary-sized spread would overflow a small stack). */
const oneOf = (pool: readonly number[]): fc.Arbitrary<number[]> =>
  fc.nat(pool.length - 1).map((i) => [pool[i] as number]);

function idSequences(p: Pools): fc.Arbitrary<number[]> {
  const enc = new TextEncoder();
  const cutChar = fc
    .tuple(fc.integer({ min: 0x80, max: 0x10ffff }), fc.nat(4), fc.boolean())
    .map(([cp, cut, whole]) => {
      const c = cp >= 0xd800 && cp < 0xe000 ? 0x4e2d : cp;
      const b = enc.encode(String.fromCodePoint(c));
      const bytes = whole ? b : b.subarray(0, Math.min(cut, b.length));
      const out: number[] = [];
      for (const x of bytes) {
        const id = p.byteId.get(x);
        if (id !== undefined) out.push(id);
      }
      return out;
    });
  const arbs: fc.WeightedArbitrary<number[]>[] = [
    { weight: 4, arbitrary: oneOf(p.text) },
    { weight: 4, arbitrary: cutChar },
  ];
  if (p.bytes.length > 0) arbs.push({ weight: 3, arbitrary: oneOf(p.bytes) });
  if (p.control.length > 0) arbs.push({ weight: 1, arbitrary: oneOf(p.control) });
  return fc.array(fc.oneof(...arbs), { maxLength: 24 }).map((xs) => xs.flat());
}

for (const m of MODELS) {
  describe.skipIf(!m.available)(`span decode equals one-shot decode: ${m.name}`, () => {
    it("random ID sequences (seeded)", () => {
      const model = m.model();
      // Qwen3 added tokens (151643..) are markers in any spec: keep the random IDs below them.
      const p = pools(model, m.name === "qwen3" ? 151643 : model.decodeTable.size);
      const spec = spanSpec(model);
      fc.assert(
        fc.property(idSequences(p), (ids) => {
          const whole = run(spec, ids);
          expect(textOf(whole)).toBe(model.decode(ids));
          // One at a time gives the same events.
          const c = eventCollector();
          const d = createDecoder(spec, c);
          for (const id of ids) d.push(id);
          d.end();
          expect(c.events).toEqual(whole);
        }),
        { seed: 20240611, numRuns: 300 },
      );
    });

    it("golden vectors from the reference tool", () => {
      const model = m.model();
      const spec = spanSpec(model);
      const file = resolve(repoRoot, `test-vectors/golden/${m.name}.decode.json`);
      const golden = JSON.parse(readFileSync(file, "utf8")) as {
        vectors: { name: string; ids: number[]; decoded: string }[];
      };
      expect(golden.vectors.length).toBeGreaterThan(0);
      for (const v of golden.vectors) {
        const got = textOf(run(spec, v.ids));
        if (got !== v.decoded) {
          throw new Error(
            `${v.name}: ids ${JSON.stringify(v.ids)}\n expected ${JSON.stringify(v.decoded)}\n got      ${JSON.stringify(got)}`,
          );
        }
      }
    });
  });
}
