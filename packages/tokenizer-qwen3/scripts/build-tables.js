#!/usr/bin/env node
// Writes tables/<sha256 of tokenizer.json>.cwtables: the compact binary tables of the Qwen3
// tokenizer (see @chatwire/tokenizer's src/models/tables/), so the first load after install needs no
// parse of the 11.4 MB tokenizer.json. Run at pack time (prepack) and by the bench; needs the
// built @chatwire/tokenizer (its dist/), found next to this package in the workspace.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const tables = join(here, "tables");
const entry = join(here, "..", "tokenizer", "dist", "node.js");
if (!existsSync(entry)) {
  // Not fatal: the package then ships without prebuilt tables (the first load builds them).
  process.stderr.write(
    `build-tables: ${entry} is missing (build @chatwire/tokenizer first); no prebuilt tables\n`,
  );
  process.exit(0);
}
const { loadTokenizerSync, qwen3Dir } = await import(entry);
// The manifest is rewritten below from the file itself, never read back by this run's load.
rmSync(join(tables, "manifest.json"), { force: true });
// Loading with this directory as the cache writes the table file there (a valid one is kept).
loadTokenizerSync(qwen3Dir(), { format: "qwen3", cacheDir: tables });
// Table files of other tokenizer.json versions are dropped.
const { createHash } = await import("node:crypto");
const sha = createHash("sha256")
  .update(readFileSync(join(qwen3Dir(), "tokenizer.json")))
  .digest("hex");
// The loader's stamp of this machine's directory (an absolute path) is no part of the package.
rmSync(join(tables, "stamps"), { recursive: true, force: true });
for (const f of readdirSync(tables)) if (f !== `${sha}.cwtables`) unlinkSync(join(tables, f));
// What the digest stands for, so the first load after install need not hash tokenizer.json (11 MB):
// the files' package (its name and version, from the package.json beside the files' directory) and
// each file's size. @chatwire/tokenizer's loader takes the digest from here only when all of them
// match (node/prebuilt-manifest.ts), and hashes the file otherwise.
const modelPackage = JSON.parse(readFileSync(join(qwen3Dir(), "..", "package.json"), "utf8"));
const manifest = {
  v: 1,
  package: modelPackage.name,
  version: modelPackage.version,
  files: { "tokenizer.json": statSync(join(qwen3Dir(), "tokenizer.json")).size },
  source: sha,
};
writeFileSync(join(tables, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
process.stdout.write(`build-tables: ${join(tables, `${sha}.cwtables`)}\n`);
