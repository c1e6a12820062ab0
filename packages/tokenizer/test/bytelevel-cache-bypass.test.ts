// The byte-level word cache skips long words on cold text (bytelevel-model.ts encodeWord: a
// window of lookups with few hits turns it off for a while). The cache must never change an
// ID: cold text long enough to turn the bypass on, then warm text while it is on and after it
// ends, each compared with HF Rust `tokenizers` (added_tokens emptied) and an uncached model.
import { describe, expect, it } from "vitest";
import { loadByteLevelModel } from "../src/models/bytelevel/index.ts";
import { idDiff, QWEN3_FILE, QWEN3_JSON } from "./bytelevel-support.ts";
import { rustTokenizer } from "./rust-tokenizers.ts";

/** Deterministic random words (letters, CJK, digits): nearly all distinct. */
function coldText(seed: number, words: number): string {
  let x = seed >>> 0;
  const next = (): number => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const r = next();
    let w = "";
    const n = 4 + Math.floor(next() * 8);
    for (let k = 0; k < n; k++)
      w +=
        r < 0.15
          ? String.fromCharCode(0x4e00 + Math.floor(next() * 0x5000))
          : "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"[Math.floor(next() * 36)];
    out.push(r > 0.9 ? `${w}${Math.floor(next() * 1e6)}` : w);
  }
  return out.join(" ");
}

const WARM =
  "The quick brown fox jumps over the lazy dog, again and again; function encode(text) { return text; }\n";

describe("byte-level cache bypass on cold text", () => {
  const Rust = rustTokenizer();
  const json = JSON.parse(QWEN3_JSON) as { added_tokens: unknown[] };
  json.added_tokens = [];
  const rust = Rust.fromString(JSON.stringify(json));
  const model = loadByteLevelModel(QWEN3_JSON, { file: QWEN3_FILE });
  const uncached = loadByteLevelModel(QWEN3_JSON, { file: QWEN3_FILE, cacheWords: 0 });

  it("cold, then warm, then cold again: the reference's IDs throughout", async () => {
    const texts = [
      coldText(1, 4000),
      WARM.repeat(200),
      coldText(2, 12000),
      WARM.repeat(50),
      coldText(3, 300),
    ];
    for (const s of texts) {
      const want = (await rust.encode(s, null, { addSpecialTokens: false })).getIds();
      const got = model.encode(s);
      expect(got, idDiff(model, want, got)).toEqual(want);
      expect(uncached.encode(s)).toEqual(want);
    }
  });
});
