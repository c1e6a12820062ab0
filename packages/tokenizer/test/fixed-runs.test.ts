// The builder's fixed-run cache with caller text in a run that ends in template text (a
// template's caller-given role before "\n" and a reserved ID: "<|im_start|>" + "assistant" +
// "\n" + "<think>"): IDs and spans against a reference computed here without the builder (one
// encoder call on the joined text; each token attributed to the segment holding its first byte,
// from the model's per-token byte lengths), on the first call (computed and stored) and on
// later ones (read back); and the caller share of the cache stays bounded (fixed-runs.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatBuilder, type ChatEncoding } from "../src/chat/builder.ts";
import { fixedRunsOf, MAX_CALLER_ENTRIES } from "../src/chat/fixed-runs.ts";
import { loadTokenizerSync } from "../src/node.ts";

const tok = loadTokenizerSync("qwen3");
const model = tok.textModel;
// The loaded files' verified IDs (the tokenizer resolves them at load), not literals.
const IM_START = tok.tokenIds.imStart as number;
const THINK = tok.tokenIds.think as number;

/** What the builder gets: reserved, caller role, "\n", reserved. */
function built(role: string): ChatEncoding {
  const b = new ChatBuilder(model, tok.scanner, "neutralize");
  b.reserved(IM_START, 0, "marker");
  b.caller(role, 0, "role");
  b.text("\n", 0, "template");
  b.reserved(THINK, 0, "marker");
  return b.finish();
}

/** The same without the builder: the run encoded once, tokens attributed by their first byte. */
function reference(role: string): ChatEncoding {
  const run = model.encode(`${role}\n`);
  const roleBytes = new TextEncoder().encode(role.normalize("NFC")).length;
  const spans: { message: number | null; field: string; start: number; end: number }[] = [
    { message: 0, field: "marker", start: 0, end: 1 },
  ];
  let at = 0;
  run.forEach((id, t) => {
    const field = at < roleBytes ? "role" : "template";
    const last = spans[spans.length - 1];
    if (last !== undefined && last.field === field && last.end === t + 1) last.end = t + 2;
    else spans.push({ message: 0, field, start: t + 1, end: t + 2 });
    at += model.tokenByteLength?.(id) ?? 0;
  });
  spans.push({ message: 0, field: "marker", start: run.length + 1, end: run.length + 2 });
  return { ids: [IM_START, ...run, THINK], spans, audit: [] };
}

const PIECES = ["assistant", "user", " ", "\n", "é", "你好", "😀", "a", "Tool", "x_1", "\t", "  "];

describe("fixed runs: caller text in a run that ends in template text", () => {
  it("matches the one-call reference on the first call and when read back", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 }), (parts) => {
        const role = parts.join("");
        const want = reference(role);
        expect(built(role)).toEqual(want);
        expect(built(role)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it("stores caller runs only within their share, and stays exact once the share is full", () => {
    const roles = Array.from({ length: MAX_CALLER_ENTRIES * 3 }, (_, k) => `role${k}`);
    for (const role of roles) expect(built(role)).toEqual(reference(role));
    const cache = fixedRunsOf(model);
    expect(cache.callerEntries).toBe(MAX_CALLER_ENTRIES);
    for (const role of roles) expect(built(role)).toEqual(reference(role));
  });
});
