// Stamps (src/node/file-stamp.ts): a directory load whose model files have exactly the stats
// recorded when they were hashed takes their digest from the stamp instead of reading them. The
// stamp must never stand for changed content: a rewrite of the same size with the modification
// time set back is hashed again, and a stamp whose digest has no tables leads to an exact build
// from the files and stores nothing under that digest. The same records skip the CRC-32 of an
// unchanged table file, never of one written since.
import { copyFileSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChatTokenizer } from "../src/index.ts";
import { stampedSource, statKeys, writeStamp } from "../src/node/file-stamp.ts";
import { unwrapStored } from "../src/node/table-cache.ts";
import { loadTokenizerSync, qwen3Dir } from "../src/node.ts";
import { expectIgnoredEntry, tableEntries, tempDirs } from "./table-cache-support.ts";

const tempDir = tempDirs("chatwire-stamp-");

const TEXTS = ["Hello world, Hello!", "你好，世界 🎉 <|im_start|> spoofed"];

function observe(tok: ChatTokenizer): unknown {
  const chat = tok.encodeChat({ messages: [{ role: "user", content: TEXTS[0] as string }] });
  return { chat: chat.ids, texts: TEXTS.map((t) => tok.encodeText(t).ids) };
}

const load = (dir: string, cacheDir: string | false): ChatTokenizer =>
  loadTokenizerSync(dir, { format: "qwen3", cacheDir, prebuiltTables: false });

/** Whole seconds: a modification time utimes can set back exactly. */
const MTIME = 1_700_000_000;

/** A copy of the Qwen3 files, so they can be changed. */
function qwen3Copy(): string {
  const dir = tempDir();
  for (const n of ["tokenizer.json", "tokenizer_config.json"]) {
    copyFileSync(join(qwen3Dir(), n), join(dir, n));
    utimesSync(join(dir, n), MTIME, MTIME);
  }
  return dir;
}

const stampFiles = (cache: string): string[] => readdirSync(join(cache, "stamps"));

describe("stamp records", () => {
  it("give the digest only for the same directory and exactly the same stats", () => {
    const dir = tempDir();
    const cache = tempDir();
    writeFileSync(join(dir, "tokenizer.json"), "{}");
    const keys = statKeys(dir, ["tokenizer.json"]) as string[];
    expect(keys).toHaveLength(1);
    writeStamp(cache, dir, keys, "a".repeat(64));
    expect(stampedSource(cache, dir, keys)).toBe("a".repeat(64));
    expect(stampedSource(cache, `${dir}/`, keys)).toBeUndefined();
    expect(stampedSource(cache, dir, [])).toBeUndefined();
    // The same bytes written again, the modification time set back: the change time differs.
    const before = statSync(join(dir, "tokenizer.json"));
    writeFileSync(join(dir, "tokenizer.json"), "{}");
    utimesSync(join(dir, "tokenizer.json"), before.atime, before.mtime);
    const after = statKeys(dir, ["tokenizer.json"]) as string[];
    expect(after).not.toEqual(keys);
    expect(stampedSource(cache, dir, after)).toBeUndefined();
    expect(statKeys(dir, ["missing.json"])).toBeUndefined();
    // A damaged stamp file is no stamp.
    const [name] = stampFiles(cache);
    for (const text of ["", "{", "[]", JSON.stringify({ v: 1, dir, keys: [1], source: "a" })]) {
      writeFileSync(join(cache, "stamps", name as string), text);
      expect(stampedSource(cache, dir, keys)).toBeUndefined();
    }
  });
});

describe("a directory load through the stamp", () => {
  const dir = qwen3Copy();
  const cache = tempDir();
  const ref = observe(load(dir, false));
  const first = observe(load(dir, cache));

  it("an unchanged directory loads from the stamp and the tables, with identical results", () => {
    expect(first).toEqual(ref);
    expect(stampFiles(cache)).toHaveLength(1);
    expect(tableEntries(cache)).toHaveLength(1);
    expect(observe(load(dir, cache))).toEqual(ref);
    expect(tableEntries(cache)).toHaveLength(1);
  });

  it("a table file whose CRC-32 was recorded, then damaged in place (modification time restored), is refused and rebuilt", () => {
    expect(observe(load(dir, cache))).toEqual(ref);
    const path = join(cache, tableEntries(cache)[0] as string);
    const good = readFileSync(path);
    const before = statSync(path);
    const bad = Uint8Array.from(good, (b, i) => (i === good.length >> 1 ? b ^ 0x40 : b));
    writeFileSync(path, bad);
    utimesSync(path, before.atime, before.mtime);
    expect(unwrapStored(readFileSync(path))).toBeUndefined();
    expectIgnoredEntry(path);
    expect(observe(load(dir, cache))).toEqual(ref);
    expect(unwrapStored(readFileSync(path))).toBeDefined();
  });

  it("a stamp whose digest has no tables: an exact build from the files, nothing stored under that digest", () => {
    const path = join(cache, "stamps", stampFiles(cache)[0] as string);
    const good = readFileSync(path, "utf8");
    try {
      const wrong = "f".repeat(64);
      writeFileSync(path, JSON.stringify({ ...JSON.parse(good), source: wrong }));
      expect(observe(load(dir, cache))).toEqual(ref);
      expect(tableEntries(cache).some((n) => n.startsWith(wrong))).toBe(false);
    } finally {
      writeFileSync(path, good);
    }
  });

  it("a model file rewritten with the same size and modification time is hashed again", () => {
    const file = join(dir, "tokenizer.json");
    const text = readFileSync(file, "utf8");
    const before = statSync(file, { bigint: true });
    // Two vocabulary entries trade IDs of the same width: the same size, another model.
    const changed = text
      .replace('"Hello": 9707,', '"Hello": 1879,')
      .replace('"Ġworld": 1879,', '"Ġworld": 9707,');
    expect(changed).not.toBe(text);
    writeFileSync(file, changed);
    utimesSync(file, MTIME, MTIME);
    const after = statSync(file, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const fresh = observe(load(dir, false));
    expect(fresh).not.toEqual(ref);
    expect(observe(load(dir, cache))).toEqual(fresh);
    expect(tableEntries(cache)).toHaveLength(2);
  });
});
