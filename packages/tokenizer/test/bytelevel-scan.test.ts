// The fast tokenizer.json reader (models/bytelevel/json-scan.ts) must give exactly what JSON.parse
// gives: same vocabulary, same merges, same encodings; anything it does not fully understand
// must fall back to JSON.parse (never a different result).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BYTE_TO_CHAR, loadByteLevelModel, scanTokenizerJson } from "../src/models/bytelevel/index.ts";
import { QWEN3_ADDED, QWEN3_FILE, QWEN3_JSON } from "./bytelevel-support.ts";

const blocked = new Set(QWEN3_ADDED);

describe("json-scan on the real Qwen3 tokenizer.json", () => {
  const scanned = loadByteLevelModel(QWEN3_JSON, { file: QWEN3_FILE, blocked });
  const parsed = loadByteLevelModel(JSON.parse(QWEN3_JSON) as object, { file: QWEN3_FILE, blocked });

  it("the scanner takes the fast path (it did not fall back)", () => {
    expect(scanTokenizerJson(QWEN3_JSON)).toBeDefined();
  });

  it("every id has the same piece, and every piece the same id", () => {
    expect(scanned.vocabSize).toBe(parsed.vocabSize);
    for (let id = 0; id < parsed.vocabSize; id++) {
      const piece = parsed.idToPiece(id);
      if (scanned.idToPiece(id) !== piece)
        expect({ id, piece: scanned.idToPiece(id) }).toEqual({ id, piece });
      if (piece !== undefined && scanned.pieceToId(piece) !== id) expect(scanned.pieceToId(piece)).toBe(id);
    }
  });

  it("identical encodings (merges resolved the same way)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (s) => {
        expect(scanned.encode(s)).toEqual(parsed.encode(s));
      }),
      { numRuns: 400, seed: 7 },
    );
    const doc = "function add(a, b) {\n  return a + b; // 加法 🚀\n}\n".repeat(50);
    expect(scanned.encode(doc)).toEqual(parsed.encode(doc));
  });
});

/** A small byte-level tokenizer.json as text, with vocabulary keys written with JSON escapes. */
function tinyText(merges: string): string {
  const entries = BYTE_TO_CHAR.map((ch, b) => `${JSON.stringify(ch)}: ${b}`);
  // "ab" written as "\u0061b" and "abc" as "ab\u0063": escapes must decode to the same keys.
  entries.push(`"\\u0061b": 256`, `"ab\\u0063": 257`);
  return `{"version": "1.0", "truncation": null, "padding": null, "added_tokens": [],
 "normalizer": {"type": "NFC"},
 "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
 "post_processor": null, "decoder": {"type": "ByteLevel"},
 "model": {"type": "BPE", "dropout": null, "vocab": {${entries.join(", ")}}, "merges": ${merges}}}`;
}

describe("json-scan on unusual but valid files", () => {
  for (const [name, merges] of [
    ["string merges", `["a b", "ab c"]`],
    ["pair merges", `[["a", "b"], ["ab", "c"]]`],
    ["escaped merge strings", `["\\u0061 b", "ab \\u0063"]`],
  ] as const) {
    it(`${name}: same result as JSON.parse`, () => {
      const text = tinyText(merges);
      const a = loadByteLevelModel(text, { file: "tiny/tokenizer.json" });
      const b = loadByteLevelModel(JSON.parse(text) as object, { file: "tiny/tokenizer.json" });
      for (const s of ["abc", "ab abc", "cab", "aabbcc"]) expect(a.encode(s)).toEqual(b.encode(s));
      expect(a.encode("abc")).toEqual([257]);
      expect(a.pieceToId("ab")).toBe(256);
    });
  }

  it("duplicate vocabulary keys: the result is JSON.parse's (last one wins)", () => {
    const text = tinyText(`["a b", "ab c"]`).replace(`"ab\\u0063": 257`, `"ab\\u0063": 257, "abc": 257`);
    const a = loadByteLevelModel(text, { file: "tiny/tokenizer.json" });
    const b = loadByteLevelModel(JSON.parse(text) as object, { file: "tiny/tokenizer.json" });
    expect(a.encode("abc")).toEqual(b.encode("abc"));
  });
});
