// The byte path's split (ByteSplit, Utf8Pending.feedSplit) against the per-byte reference
// (Utf8Pending.feed): for random byte pieces, valid UTF-8 and not, in both replacement
// policies, a stream that takes feedSplit wherever it applies gives exactly the text and the
// held bytes of one that only feeds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byteSplitOf, Utf8Pending } from "../src/utf8-pending.ts";

const enc = new TextEncoder();

/** Pieces: bytes cut from valid UTF-8 text (emoji, ZWJ sequences, CJK) or arbitrary bytes. */
const pieceArb = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 5 }),
  fc
    .tuple(
      // "é\uFEFF中": a piece cut from it can hold a whole U+FEFF after a continuation byte.
      fc.constantFrom(
        "a",
        "é",
        "中",
        "𠀀",
        "👩‍💻",
        "🇫🇷",
        "\n",
        "ß",
        "\u{10ffff}",
        "\ud7ff",
        "\uFEFF",
        "é\uFEFF中",
      ),
      fc.nat(),
      fc.nat(),
    )
    .map(([s, a, b]) => {
      const bytes = enc.encode(s);
      const i = a % bytes.length;
      const j = i + 1 + (b % (bytes.length - i));
      return bytes.slice(i, j);
    }),
);

function run(mode: "per-byte" | "maximal-subpart", pieces: readonly Uint8Array[], split: boolean): string {
  const u = new Utf8Pending(mode);
  let out = "";
  for (const b of pieces) {
    const p = split ? byteSplitOf(b) : null;
    const r = p === null ? undefined : u.feedSplit(p);
    if (r === undefined) out += `[${u.feed(b)}]`;
    else out += `[${r}]`;
    out += `<${u.len}>`;
  }
  return `${out}|${u.flush()}`;
}

describe("byte pieces: the split path equals the per-byte path", () => {
  for (const mode of ["per-byte", "maximal-subpart"] as const) {
    it(`${mode}: random pieces`, () => {
      fc.assert(
        fc.property(fc.array(pieceArb, { maxLength: 24 }), (pieces) => {
          expect(run(mode, pieces, true)).toBe(run(mode, pieces, false));
        }),
        { numRuns: 3000, seed: 4242 },
      );
    });
  }

  it("splits made once per piece and reused (as the decoder keeps one per ID): their memos of completed prefixes", () => {
    // A few lead pieces and the continuation pieces that complete them, drawn in any order, so
    // one continuation piece completes different held prefixes in turn; single continuation
    // bytes also extend a prefix that stays incomplete (an emoji in three pieces).
    const pool = [
      [0xe4],
      [0xe5],
      [0xf0, 0x9f],
      [0xf0, 0xa0],
      [0xb8, 0x80],
      [0x98, 0x80],
      [0x80, 0x80, 0x61],
      [0x80],
      [0xa8],
      [0x41],
    ].map((xs) => Uint8Array.from(xs));
    fc.assert(
      fc.property(fc.array(fc.nat(pool.length - 1), { maxLength: 40 }), (picks) => {
        const pieces = picks.map((i) => pool[i] as Uint8Array);
        const splits = pool.map((b) => byteSplitOf(b));
        const u = new Utf8Pending("maximal-subpart");
        let out = "";
        for (const i of picks) {
          const p = splits[i];
          const r = p === null || p === undefined ? undefined : u.feedSplit(p);
          out += `[${r === undefined ? u.feed(pool[i] as Uint8Array) : r}]<${u.len}>`;
        }
        expect(`${out}|${u.flush()}`).toBe(run("maximal-subpart", pieces, false));
      }),
      { numRuns: 3000, seed: 4343 },
    );
  });

  it("an emoji cut into pieces takes the split path and decodes whole", () => {
    const bytes = enc.encode("👩‍💻!");
    const pieces = [bytes.slice(0, 2), bytes.slice(2, 5), bytes.slice(5, 9), bytes.slice(9)];
    const u = new Utf8Pending("maximal-subpart");
    const outs = pieces.map((b) =>
      u.feedSplit(byteSplitOf(b) as NonNullable<ReturnType<typeof byteSplitOf>>),
    );
    expect(outs.join("")).toBe("👩‍💻!");
    expect(outs.every((o) => o !== undefined)).toBe(true);
  });

  it("invalid bytes have no split (the per-byte path decides)", () => {
    expect(byteSplitOf(Uint8Array.of(0xc0, 0x80))).toBeNull();
    expect(byteSplitOf(Uint8Array.of(0xed, 0xa0))).toBeNull();
    expect(byteSplitOf(Uint8Array.of(0x80, 0x80, 0x80, 0x80))).toBeNull();
    expect(byteSplitOf(Uint8Array.of(0xf5))).toBeNull();
  });
});
