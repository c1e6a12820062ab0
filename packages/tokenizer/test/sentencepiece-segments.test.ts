// The segmented SentencePiece encoder (cut before "▁" where no piece can straddle the cut, a
// cache of short segments, a bypass of that cache on cold text) gives exactly the IDs of the
// whole-text path, on random text built to stress the cuts: piece fragments, runs of spaces,
// USER_DEFINED and reserved strings, random Unicode, lone surrogates, and repeats (cache hits).
// Both sides are our code; agreement with Google's C++ is crosscheck-sentencepiece.test.ts.
// One segmented encoder serves every run of a suite, so its cache carries over between runs.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { BpeEncoder } from "../src/models/sentencepiece/bpe-encoder.ts";
import { PieceType, readModelProto } from "../src/models/sentencepiece/model-proto.ts";

const VECTORS = resolve(import.meta.dirname, "../../../test-vectors");
const SUITES = [
  { name: "tiny-ilm", path: () => resolve(VECTORS, "models/tiny-ilm.model"), always: true },
  { name: "tiny-glm", path: () => resolve(VECTORS, "models/tiny-glm.model"), always: true },
  { name: "internlm2", path: () => fixturePath("internlm2/tokenizer.model"), always: false },
  { name: "chatglm3", path: () => fixturePath("chatglm3/tokenizer.model"), always: false },
];

for (const suite of SUITES) {
  describe.skipIf(!suite.always && !haveFixtures())(`SentencePiece segments: ${suite.name}`, () => {
    const file = suite.path();
    const proto = readModelProto(readFileSync(file), file);
    const reserved = JSON.parse(readFileSync(resolve(VECTORS, `golden/${suite.name}.text.json`), "utf8"))
      .reserved_ids as number[];
    const fragments = proto.pieces.filter((_, i) => i % 7 === 0).map((p) => p.replaceAll("\u2581", " "));
    const word = fc.oneof(
      fc.constantFrom(...fragments),
      fc.constantFrom(" ", "  ", "   ", "\n", "\t", "▁", "▁▁", "\ud800", "\udc00x", "😀", "𠀀"),
      fc.constantFrom(...proto.pieces.filter((_, i) => proto.types[i] === 4).slice(0, 50), "<s>", "</s>"),
      fc.string({ unit: "grapheme", maxLength: 6 }),
      fc.string({ unit: "binary", maxLength: 4 }),
    );
    const text = fc.array(word, { maxLength: 40 }).map((ws) => ws.join(""));

    it("a cut after a newline (cutsAfterNewline) gives the IDs of the joined text", () => {
      const enc = new BpeEncoder(proto, { blocked: new Set(reserved) });
      const whole = new BpeEncoder(proto, { blocked: new Set(reserved), segment: false });
      let cuts = 0;
      fc.assert(
        fc.property(text, text, (p, c) => {
          const head = `${p}\n`;
          if (!enc.cutsAfterNewline(c)) return;
          cuts++;
          expect([...enc.encode(head), ...enc.encode(c)]).toEqual(whole.encode(head + c));
        }),
        { numRuns: 600, seed: 16 },
      );
      // Only a model without a dummy prefix or whitespace removal, whose "\n" is a piece, cuts
      // (of the four: InternLM2; tiny-ilm has no "\n" piece, the ChatGLM3 pair a dummy prefix).
      const nl = proto.pieces.indexOf("\n");
      const cutting =
        !proto.normalizer.addDummyPrefix &&
        !proto.normalizer.removeExtraWhitespaces &&
        nl >= 0 &&
        (proto.types[nl] === PieceType.Normal || proto.types[nl] === PieceType.UserDefined);
      if (cutting) expect(cuts).toBeGreaterThan(100);
      else expect(cuts).toBe(0);
      // A unit that follows "\n" inside some piece (InternLM2: "\n\n", "\n▁") is never a cut.
      const at = proto.pieces.findIndex((q, i) => proto.types[i] === PieceType.Normal && /\n./su.test(q));
      if (at >= 0) {
        const inPiece = proto.pieces[at] as string;
        const after = inPiece.slice(inPiece.indexOf("\n") + 1).replaceAll("\u2581", " ");
        expect(enc.cutsAfterNewline(after)).toBe(false);
      }
    });

    for (const blocked of [new Set<number>(), new Set(reserved)]) {
      it(`equals the whole-text path (${blocked.size} blocked)`, () => {
        const segmented = new BpeEncoder(proto, { blocked });
        const whole = new BpeEncoder(proto, { blocked, segment: false });
        expect(whole.segmented).toBe(false);
        if (suite.always === false) expect(segmented.segmented).toBe(true);
        fc.assert(
          fc.property(text, fc.integer({ min: 1, max: 3 }), (s, times) => {
            const t = s.repeat(times);
            expect(segmented.encode(t)).toEqual(whole.encode(t));
          }),
          { numRuns: 400, seed: 15 },
        );
      });
    }
  });
}
