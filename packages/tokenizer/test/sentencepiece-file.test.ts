// Bad .model files: every failure is TokenizerError("bad-tokenizer-file") naming the file and
// saying what is wrong; nothing else escapes (no RangeError from a truncated buffer).

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/errors.ts";
import { loadSentencePieceModel, readModelProto } from "../src/models/sentencepiece/index.ts";

const TINY = resolve(import.meta.dirname, "../../../test-vectors/models/tiny-ilm.model");
const FILE = "models/broken.model";

function badFile(bytes: Uint8Array): TokenizerError {
  try {
    loadSentencePieceModel(bytes, { file: FILE });
  } catch (e) {
    if (!TokenizerError.isInstance(e)) throw e;
    expect(e.type).toBe("bad-tokenizer-file");
    expect(e.fields.file).toBe(FILE);
    expect(e.message).toContain(FILE);
    return e;
  }
  return expect.fail("no error for a bad file");
}

// Minimal protobuf writer for hand-made models.
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}
function field(num: number, payload: number[] | string): number[] {
  const bytes = typeof payload === "string" ? [...new TextEncoder().encode(payload)] : payload;
  return [...varint((num << 3) | 2), ...varint(bytes.length), ...bytes];
}
function varField(num: number, value: number): number[] {
  return [...varint(num << 3), ...varint(value)];
}
function piece(text: string, type: number): number[] {
  return field(1, [...field(1, text), ...varField(3, type)]);
}

describe("SentencePiece model file errors", () => {
  const good = new Uint8Array(readFileSync(TINY));

  it("loads the tiny model", () => {
    expect(loadSentencePieceModel(good, { file: TINY }).vocabSize).toBe(1200);
  });

  it("empty file", () => {
    expect(badFile(new Uint8Array()).message).toMatch(/empty file/);
  });

  it("every truncation of a real model is rejected", () => {
    const cuts = new Set<number>([1, 2, 3, 10, 100, good.length - 1, good.length - 2]);
    for (let cut = 1; cut < good.length; cut += 97) cuts.add(cut);
    for (const cut of cuts) badFile(good.subarray(0, cut));
  });

  it("a truncated varint and a length past the end are named", () => {
    expect(badFile(Uint8Array.of(0x0a, 0x80)).message).toMatch(/truncated varint/);
    expect(badFile(Uint8Array.of(0x0a, 0x05, 0x01)).message).toMatch(/length 5 past end/);
  });

  it("random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        fc.pre(bytes.length > 0);
        badFile(bytes);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it("not BPE, empty piece table, no UNKNOWN piece, charsmap", () => {
    const unigram = [...piece("<unk>", 2), ...piece("a", 1), ...field(2, varField(3, 1))];
    expect(badFile(Uint8Array.from(unigram)).message).toMatch(/UNIGRAM is not supported, only BPE/);
    expect(badFile(Uint8Array.from(field(2, varField(3, 2)))).message).toMatch(/empty piece table/);
    const noUnk = [...piece("a", 1), ...field(2, varField(3, 2))];
    expect(badFile(Uint8Array.from(noUnk)).message).toMatch(/no UNKNOWN piece/);
    // A second normalizer_spec is merged into the first (proto2), adding a charsmap.
    const charsmap = [...good, ...field(3, field(2, [1, 2, 3, 4, 5]))];
    expect(badFile(Uint8Array.from(charsmap)).message).toMatch(
      /precompiled charsmap .* only the identity normalizer/,
    );
    const dup = [...piece("<unk>", 2), ...piece("a", 1), ...piece("a", 1), ...field(2, varField(3, 2))];
    expect(badFile(Uint8Array.from(dup)).message).toMatch(/"a" is already defined/);
  });

  it("unknown fields of every wire type are skipped; defaults are the proto2 defaults", () => {
    const extra = [
      ...piece("<unk>", 2),
      ...varField(99, 300),
      ...[...varint((98 << 3) | 1), 1, 2, 3, 4, 5, 6, 7, 8],
      ...[...varint((97 << 3) | 5), 1, 2, 3, 4],
      ...field(96, "ignored"),
      ...piece("a", 1),
      ...field(2, [...varField(3, 2), ...varField(43, -1)]),
      ...field(3, field(1, "identity")),
    ];
    const proto = readModelProto(Uint8Array.from(extra), FILE);
    expect(proto.pieces).toEqual(["<unk>", "a"]);
    expect(proto.normalizer.addDummyPrefix).toBe(true);
    expect(proto.normalizer.removeExtraWhitespaces).toBe(true);
    expect(proto.normalizer.escapeWhitespaces).toBe(true);
    expect(proto.trainer.padId).toBe(-1);
    expect(proto.trainer.unkSurface).toBe(" \u2047 ");
  });
});
