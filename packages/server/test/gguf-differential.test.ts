// Differential: chatwire's GGUF tokenizer against node-llama-cpp's (llama.cpp's own) tokenize and
// detokenize on the same vocabulary GGUFs (../shared/gguf-vocab), for seeded random plain text: CJK, emoji,
// whitespace runs, digits, code, accents. Plain text here means text holding no reserved token's
// string, where the two must agree exactly; on such text llama.cpp places the token (even with
// special parsing off) and chatwire never does (gguf-vocab.test.ts), so it is counted, not compared.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnyTokenizer, loadGguf, readGgufMetadata } from "@chatwire/tokenizer";
import fc from "fast-check";
import { getLlama, type Llama, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ggufVocabFiles, haveGgufVocab } from "../../../test-support/gguf-vocab.ts";
import { type Kv, outsideSymbolsGpt2Kvs, writeGguf } from "../../tokenizer/test/gguf-support.ts";

/** The supported vocabulary GGUFs node-llama-cpp can load vocab-only. */
const NAMES = [
  "ggml-vocab-gpt-2.gguf",
  "ggml-vocab-llama-spm.gguf",
  "ggml-vocab-phi-3.gguf",
  "ggml-vocab-deepseek-coder.gguf",
  "ggml-vocab-deepseek-llm.gguf",
  "ggml-vocab-mpt.gguf",
  "ggml-vocab-baichuan.gguf",
  "ggml-vocab-gpt-neox.gguf",
  "ggml-vocab-falcon.gguf",
  "ggml-vocab-refact.gguf",
  "ggml-vocab-starcoder.gguf",
];

const PARTS = [
  "Hello",
  " world",
  "你好世界",
  "日本語のテキスト",
  "한국어",
  "🦙",
  "👨‍👩‍👧",
  "   ",
  "\t\t",
  "\n",
  "\n\n\n",
  " \n ",
  "12345",
  "3.14159",
  "1,000,000",
  "function f(x) { return x * 2; }",
  "if (a && b) { print('ok') }",
  "    indented",
  "café",
  "naïve",
  "Ångström",
  "'s",
  "'ll",
  "don't",
  "!!!",
  "...",
  "—",
  "€100",
  "x",
  "A",
  "ǅ",
  // Bytes some vocabularies have no symbol for (Falcon: 0x03, 0x0B, 0x1C, 0xF2 = U+80000..;
  // StarCoder, Refact: 0xF1 = U+40000..): llama.cpp drops them.
  "\u0003",
  "a\u000bb",
  "\u001c\u001d",
  "\u{40000}x",
  "\u{80001}",
];

let llama: Llama | undefined;
const models = new Map<string, LlamaModel>();
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chatwire-gguf-diff-"));
  if (!haveGgufVocab()) return;
  llama = await getLlama({ gpu: false, build: "never" });
}, 120_000);

afterAll(async () => {
  for (const m of models.values()) await m.dispose();
  await llama?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** Texts holding the bytes some vocabularies lack, compared on every file before the random ones. */
const FIXED = ["\u0003", "a\u0003b", "x\u000b\u001cy z", "\u{40000}", "a\u{80001}b", "\u00f1\u{40001}"];

function compare(name: string, tok: AnyTokenizer, model: LlamaModel, text: string): boolean {
  const ours = tok.encodeText(text);
  // Text holding a reserved token's string (DeepSeek's 241 single letters typed USER_DEFINED,
  // "ö" among them): llama.cpp places the token, chatwire never does.
  if (ours.audit.length > 0) return false;
  const theirs = [...model.tokenize(text, false)].map(Number);
  expect({ name, text, ids: ours.ids }).toEqual({ name, text, ids: theirs });
  // And back: llama.cpp's detokenize of its own IDs (special tokens not rendered).
  expect({ name, ids: theirs, text: tok.decode(ours.ids) }).toEqual({
    name,
    ids: theirs,
    text: model.detokenize(theirs as never, false),
  });
  return true;
}

describe.skipIf(!haveGgufVocab())("GGUF tokenizer vs node-llama-cpp tokenize and detokenize", () => {
  for (const f of ggufVocabFiles().filter((x) => NAMES.includes(x.name))) {
    test(f.name, async () => {
      if (llama === undefined) throw new Error("no llama");
      const model = await llama.loadModel({ modelPath: f.path, vocabOnly: true });
      models.set(f.name, model);
      const tok: AnyTokenizer = loadGguf(readFileSync(f.path), {
        file: f.name,
        format: "template",
        chatTemplate: "",
      }).tokenizer;
      for (const text of FIXED) compare(f.name, tok, model, text);
      let audited = 0;
      fc.assert(
        fc.property(
          fc.array(fc.oneof(fc.constantFrom(...PARTS), fc.string({ unit: "grapheme", maxLength: 6 })), {
            maxLength: 12,
          }),
          (parts) => {
            if (!compare(f.name, tok, model, parts.join(""))) audited++;
          },
        ),
        { seed: 35, numRuns: 200 },
      );
      // Most texts are compared.
      expect(audited).toBeLessThan(100);
    });
  }

  test("DeepSeek's USER_DEFINED single letters in model output decode as llama.cpp's text (not dropped)", async () => {
    if (llama === undefined) throw new Error("no llama");
    for (const f of ggufVocabFiles().filter((x) => x.name.includes("deepseek"))) {
      const model = await llama.loadModel({ modelPath: f.path, vocabOnly: true });
      models.set(`${f.name} letters`, model);
      const tok = loadGguf(readFileSync(f.path), {
        file: f.name,
        format: "template",
        chatTemplate: "",
      }).tokenizer;
      for (const text of ["Müller", "öffnen über Ära", "façade, señor, ÿ ý þ"]) {
        // IDs as the model would write them (llama.cpp places the letter tokens).
        const ids = [...model.tokenize(text, false)].map(Number);
        const want = model.detokenize(ids as never, false);
        expect({ name: f.name, text: tok.decode(ids) }).toEqual({ name: f.name, text: want });
      }
    }
  });

  test("symbols outside the vocabulary: missing bytes, merges through non-tokens, a merge listed twice", async () => {
    if (llama === undefined) throw new Error("no llama");
    // The model's hyper-parameters (llama.cpp reads them even for a vocab-only load) from GPT-2's file.
    const gpt2 = ggufVocabFiles().find((x) => x.name === "ggml-vocab-gpt-2.gguf");
    if (gpt2 === undefined) throw new Error("no ggml-vocab-gpt-2.gguf");
    const hparams: Kv[] = [];
    for (const [key, v] of readGgufMetadata(readFileSync(gpt2.path)).kv) {
      if (key.startsWith("tokenizer.")) continue;
      if (v.type === "string" || v.type === "u32" || v.type === "f32")
        hparams.push({ key, type: v.type, value: v.value } as Kv);
    }
    const bytes = writeGguf(outsideSymbolsGpt2Kvs(hparams));
    const path = join(dir, "outside.gguf");
    writeFileSync(path, bytes);
    const model = await llama.loadModel({ modelPath: path, vocabOnly: true });
    models.set(path, model);
    const tok = loadGguf(bytes, { file: "outside.gguf", format: "template", chatTemplate: "" }).tokenizer;
    for (const text of ["abc", "def", " def", "\u0003a", "q\u0003", "xab", "\u0003\u0003a abcx", "dede fdef"])
      compare("outside.gguf", tok, model, text);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f", "q", "x", "\u0003", " ", "é"), {
          maxLength: 16,
        }),
        (parts) => {
          compare("outside.gguf", tok, model, parts.join(""));
        },
      ),
      { seed: 35, numRuns: 300 },
    );
  });
});
