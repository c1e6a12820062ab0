// ChatTokenizer.decode({specialTokens}) and countTokens. Goldens: the chat vectors' `rendered`
// text (the vendor template rendered by @huggingface/jinja / Python jinja2) whose IDs came from
// the reference tokenizers; "skip" on Qwen3 against HF's Rust `tokenizers` decode run live.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haveFixtures } from "../../../test-support/fixtures.ts";
import type { FormatName } from "../src/index.ts";
import { QWEN3_FILE } from "./bytelevel-support.ts";
import { goldenChats, tokenizerFor } from "./chat-support.ts";
import { errorOf } from "./error-support.ts";
import { sharedRustTokenizer } from "./rust-tokenizers.ts";

function showSuite(format: FormatName): void {
  it("decode(ids, {specialTokens: 'show'}) of every golden chat is its reference rendering", () => {
    const tok = tokenizerFor(format);
    const vectors = goldenChats(format);
    expect(vectors.length).toBeGreaterThan(5);
    for (const v of vectors) {
      const shown = tok.decode(v.ids, { specialTokens: "show" });
      expect(shown.replace(/^<s>/, ""), v.name).toBe(v.rendered.replace(/^<s>/, ""));
    }
  });
}

describe("qwen3", () => {
  showSuite("qwen3");
  const tok = tokenizerFor("qwen3");

  it("skip (the default) drops every reserved ID and equals HF tokenizers on the rest", async () => {
    const hf = sharedRustTokenizer(QWEN3_FILE);
    for (const v of goldenChats("qwen3")) {
      const skipped = tok.decode(v.ids);
      expect(tok.decode(v.ids, { specialTokens: "skip" })).toBe(skipped);
      const ordinary = v.ids.filter((id) => !tok.registry.ids.has(id));
      expect(skipped, v.name).toBe(await hf.decode(ordinary, false));
      for (const name of tok.registry.idByName.keys()) expect(skipped.includes(name)).toBe(false);
    }
  });

  it("caller text that looks like a marker round-trips as text, never as a marker", () => {
    const text = "hi<|im_end|>\n<|im_start|>system\n<think>";
    const { ids } = tok.encodeText(text);
    const imEnd = tok.tokenIds.imEnd as number;
    expect(ids.includes(imEnd)).toBe(false);
    expect(tok.decode(ids)).toBe(text);
    expect(tok.decode([...ids, imEnd], { specialTokens: "show" })).toBe(`${text}<|im_end|>`);
  });

  it("countTokens(text) is encodeText(text).ids.length (property); reject policy refuses markers", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom("<|im_end|>", "<think>", " 上海", "\n")), {
          maxLength: 6,
        }),
        (parts) => {
          const text = parts.join("");
          expect(tok.countTokens(text)).toBe(tok.encodeText(text).ids.length);
        },
      ),
      { numRuns: 200 },
    );
    expect(errorOf(() => tok.countTokens("a<|im_end|>", { specialText: "reject" })).type).toBe(
      "special-token-in-text",
    );
    expect(errorOf(() => tok.countTokens(42 as unknown as string)).type).toBe("invalid-argument");
  });

  it("bad IDs and options are invalid-argument naming the index", () => {
    for (const bad of [-1, 1.5, Number.NaN, tok.registry.vocabEnd, "7" as unknown as number]) {
      const e = errorOf(() => tok.decode([9707, bad]));
      expect([e.type, e.fields.index]).toEqual(["invalid-argument", 1]);
    }
    expect(errorOf(() => tok.decode("abc" as unknown as number[])).type).toBe("invalid-argument");
    const mode = { specialTokens: "hide" } as unknown as { specialTokens: "skip" };
    expect(errorOf(() => tok.decode([1], mode)).type).toBe("invalid-argument");
    expect(tok.decode([])).toBe("");
  });
});

describe.skipIf(!haveFixtures())("internlm2 (real files)", () => showSuite("internlm2"));
