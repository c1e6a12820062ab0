// The manifest of a data package's prebuilt tables (tables/manifest.json, written at pack time by
// @chatwire/tokenizer-qwen3's scripts/build-tables.js): the digest of the model files the table
// file was built from, and what identifies those files without reading them: the name and version
// of their package (the package.json beside their directory) and each file's size. A package
// installed from a registry does not change under one version, so a match names the digest of an
// 11 MB tokenizer.json on the first load after install, before any stamp (./file-stamp.ts) exists.
// Anything missing or different (another version, a file of another size, a directory that is not
// the package's) means the files are read and hashed as usual.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const MANIFEST = "manifest.json";

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(readFileSync(path, "utf8"));
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/** The digest a manifest in `tableDirs` gives for exactly the model files `names` of `dir`, else undefined. */
export function manifestSource(
  dir: string,
  names: readonly string[],
  tableDirs: readonly string[],
): string | undefined {
  let pkg: Record<string, unknown> | undefined;
  for (const d of tableDirs) {
    const m = readJson(join(d, MANIFEST));
    if (m === undefined || m.v !== 1 || typeof m.source !== "string" || !/^[0-9a-f]{64}$/.test(m.source))
      continue;
    const files = m.files;
    if (typeof files !== "object" || files === null || Array.isArray(files)) continue;
    const sizes = files as Record<string, unknown>;
    if (Object.keys(sizes).length !== names.length || !names.every((n) => Object.hasOwn(sizes, n))) continue;
    pkg ??= readJson(join(dir, "..", "package.json"));
    if (pkg === undefined) return undefined;
    if (pkg.name !== m.package || pkg.version !== m.version || typeof m.package !== "string") continue;
    if (names.every((n) => sizeOf(join(dir, n)) === sizes[n])) return m.source;
  }
  return undefined;
}
