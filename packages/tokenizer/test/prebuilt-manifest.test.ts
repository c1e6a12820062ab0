// The prebuilt tables' manifest (src/node/prebuilt-manifest.ts): it names the digest of a data
// package's model files only when the package's name and version and every file's size match, and
// the first load of "qwen3" with an empty cache directory takes the digest from it (no stamp of the
// model directory is written, which a load that hashed the file would write) with exact results.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { manifestSource } from "../src/node/prebuilt-manifest.ts";
import { prebuiltDirs } from "../src/node/table-cache.ts";
import { loadTokenizerSync, qwen3Dir } from "../src/node.ts";
import { tableEntries, tempDirs } from "./table-cache-support.ts";

const tempDir = tempDirs("chatwire-manifest-");
const SOURCE = "ab".repeat(32);

/** A package directory with models/tokenizer.json of `size` bytes, and a tables directory with a manifest. */
function layout(manifest: Record<string, unknown>, size = 5) {
  const root = tempDir();
  const models = join(root, "models");
  mkdirSync(models);
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "models-pkg", version: "1.2.3" }));
  writeFileSync(join(models, "tokenizer.json"), "x".repeat(size));
  const tables = tempDir();
  writeFileSync(join(tables, "manifest.json"), JSON.stringify(manifest));
  return { models, tables };
}

const good = {
  v: 1,
  package: "models-pkg",
  version: "1.2.3",
  files: { "tokenizer.json": 5 },
  source: SOURCE,
};

describe("manifestSource", () => {
  it("gives the digest when package, version and every size match", () => {
    const { models, tables } = layout(good);
    expect(manifestSource(models, ["tokenizer.json"], [tables])).toBe(SOURCE);
  });

  it.each([
    ["another version", { ...good, version: "1.2.4" }, 5, ["tokenizer.json"]],
    ["another package", { ...good, package: "other" }, 5, ["tokenizer.json"]],
    ["another size", good, 6, ["tokenizer.json"]],
    ["another set of files", good, 5, ["tokenizer.json", "tokenizer.model"]],
    ["a malformed digest", { ...good, source: "nope" }, 5, ["tokenizer.json"]],
    ["another manifest version", { ...good, v: 2 }, 5, ["tokenizer.json"]],
    ["no sizes", { ...good, files: null }, 5, ["tokenizer.json"]],
  ])("gives nothing for %s", (_, manifest, size, names) => {
    const { models, tables } = layout(manifest, size);
    expect(manifestSource(models, names, [tables])).toBeUndefined();
  });

  it("gives nothing for a damaged manifest or a directory without a package.json beside it", () => {
    const { models, tables } = layout(good);
    writeFileSync(join(tables, "manifest.json"), "{");
    expect(manifestSource(models, ["tokenizer.json"], [tables])).toBeUndefined();
    const other = layout(good);
    expect(manifestSource(join(other.models, "nested"), ["tokenizer.json"], [other.tables])).toBeUndefined();
  });
});

// The data package's tables are built by its build-tables script (the bench runs it); a fresh
// checkout has none, and this suite then has nothing to load.
const hasManifest = prebuiltDirs().some((d) => existsSync(join(d, "manifest.json")));

describe.skipIf(!hasManifest)("the first qwen3 load after install", () => {
  it("takes the digest from the manifest, with the results of a load from the files", () => {
    const cache = tempDir();
    const ref = loadTokenizerSync("qwen3", { cacheDir: false });
    const tok = loadTokenizerSync("qwen3", { cacheDir: cache });
    const text = "Hello world 你好 🎉 <|im_start|>";
    expect(tok.encodeText(text).ids).toEqual(ref.encodeText(text).ids);
    const stamps = readdirSync(join(cache, "stamps")).map((n) =>
      readFileSync(join(cache, "stamps", n), "utf8"),
    );
    // The table file's CRC record only: no stamp of the model directory (nothing was hashed).
    expect(stamps.some((s) => JSON.parse(s).dir === qwen3Dir())).toBe(false);
    expect(tableEntries(cache)).toEqual([]);
  });
});
