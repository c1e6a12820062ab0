// chat/nfc-boundary.ts against ICU (Node's String.prototype.normalize): every character the
// set accepts must be an NFC boundary, i.e. canonical combining class 0, unchanged by NFC, and
// never the second character of a canonical composition; then NFC(p + s) = p' + NFC(s) for any p.
// The composition seconds are collected from ICU itself: every character after the first in the
// NFD of every code point (the recursive canonical decompositions hold every composition pair).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { endsAtNfcStop, startsAtNfcBoundary } from "../src/chat/nfc-boundary.ts";

function compositionSeconds(): Set<number> {
  const seconds = new Set<number>();
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const s = String.fromCodePoint(cp);
    const d = s.normalize("NFD");
    if (d === s) continue;
    const cps = [...d];
    for (let i = 1; i < cps.length; i++) seconds.add(cps[i]?.codePointAt(0) as number);
  }
  return seconds;
}

/** Every code point startsAtNfcBoundary accepts (as a one-character string) from U+0300 on. */
function acceptedFrom0300(): number[] {
  const out: number[] = [];
  for (let cp = 0x300; cp <= 0x1ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (startsAtNfcBoundary(String.fromCodePoint(cp))) out.push(cp);
  }
  return out;
}

/**
 * Pieces that compose or reorder across a boundary: Latin letters with an acute and a dot below
 * (two combining classes), Hangul jamo L, V and T, kana with a voicing mark, and a space.
 */
const COMPOSING = ["e", "\u0301", "\u0323", "\u1100", "\u1161", "\u11a8", "か", "\u3099", "a", " ", "ᄀ"];

describe("startsAtNfcBoundary", () => {
  const seconds = compositionSeconds();
  const accepted = acceptedFrom0300();

  it("accepts the blocks it names (CJK, kana, Hangul syllables, fullwidth, emoji)", () => {
    for (const s of ["你", "㐀", "あ", "カ", "가", "힣", "Ａ", "。", "😀", "🚀", "🫠"])
      expect(startsAtNfcBoundary(s)).toBe(true);
    expect(accepted.length).toBeGreaterThan(40_000);
  });

  it("refuses combining marks, jamo, voicing marks, lone surrogates and the empty string", () => {
    for (const s of [
      "",
      "\u0301",
      "\u1161",
      "\u11a8",
      "\u3099",
      "\u309a",
      "\u302a",
      "\ud83d",
      "\udc00",
      "\ud83dx",
    ])
      expect(startsAtNfcBoundary(s)).toBe(false);
  });

  it("every accepted character is NFC-stable, of combining class 0 and no composition's second", () => {
    const bad: string[] = [];
    for (const cp of accepted) {
      const c = String.fromCodePoint(cp);
      if (c.normalize("NFC") !== c) bad.push(`${cp.toString(16)} changes under NFC`);
      if (seconds.has(cp)) bad.push(`${cp.toString(16)} is a composition second`);
      // A non-zero class below 240 would reorder before U+0345 (class 240) in NFD.
      if (`a\u0345${c}`.normalize("NFD") !== `a\u0345${c.normalize("NFD")}`)
        bad.push(`${cp.toString(16)} reorders`);
    }
    expect(bad).toEqual([]);
  });

  it("NFC(prefix + s) = NFC(prefix) + NFC(s) when s starts at a boundary (random strings)", () => {
    const any = fc.constantFrom(...COMPOSING);
    const start = fc.constantFrom(
      ...accepted.filter((_, i) => i % 97 === 0).map((cp) => String.fromCodePoint(cp)),
    );
    fc.assert(
      fc.property(fc.array(any, { maxLength: 6 }), start, fc.array(any, { maxLength: 6 }), (p, s0, rest) => {
        const prefix = p.join("");
        const s = s0 + rest.join("");
        expect(startsAtNfcBoundary(s)).toBe(true);
        expect((prefix + s).normalize("NFC")).toBe(prefix.normalize("NFC") + s.normalize("NFC"));
      }),
      { numRuns: 2000, seed: 1501 },
    );
  });
});

describe("endsAtNfcStop (a line feed ends the prefix)", () => {
  it("accepts exactly strings ending in U+000A", () => {
    for (const s of ["\n", "user\n", "a\n\n"]) expect(endsAtNfcStop(s)).toBe(true);
    for (const s of ["", "user", "\n ", "\r", "e", ">", "\u2028"]) expect(endsAtNfcStop(s)).toBe(false);
  });

  it('"\n" composes with and reorders against nothing: NFC("\n" + c) = "\n" + NFC(c) for every code point (ICU)', () => {
    const bad: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (`\n${c}`.normalize("NFC") !== `\n${c.normalize("NFC")}`) bad.push(cp.toString(16));
    }
    expect(bad).toEqual([]);
    expect("\n".normalize("NFD")).toBe("\n");
  });

  it("NFC(prefix + s) = prefix + NFC(s) for a prefix below U+0300 ending in \\n (random strings)", () => {
    const low = fc.constantFrom("e", "a", "A", ">", "=", " ", "<", "user", "\u00e9", "\u017f");
    const any = fc.constantFrom(
      "e",
      "\u0301",
      "\u0323",
      "\u0338",
      "\u1161",
      "\u11a8",
      "\u3099",
      "a",
      " ",
      "\u1100",
      "\u0344",
    );
    fc.assert(
      fc.property(fc.array(low, { maxLength: 5 }), fc.array(any, { maxLength: 8 }), (p, rest) => {
        const prefix = `${p.join("")}\n`;
        const s = rest.join("");
        expect(endsAtNfcStop(prefix)).toBe(true);
        expect((prefix + s).normalize("NFC")).toBe(prefix + s.normalize("NFC"));
      }),
      { numRuns: 3000, seed: 1502 },
    );
  });
});
