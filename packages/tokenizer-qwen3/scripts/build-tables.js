#!/usr/bin/env node
// Writes tables/<sha256 of tokenizer.json>.cwtables: the compact binary tables of the Qwen3
// tokenizer (see @chatwire/tokenizer's src/models/tables/), so the first load after install needs no
// parse of the 11.4 MB tokenizer.json. Run at pack time (prepack) and by the bench; needs the
// built @chatwire/tokenizer (its dist/), found next to this package in the workspace.
import { existsSync, readdirSync, rmSync, unlinkSync } from "node:fs";
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
// Loading with this directory as the cache writes the table file there (a valid one is kept).
loadTokenizerSync(qwen3Dir(), { format: "qwen3", cacheDir: tables });
// Table files of other tokenizer.json versions are dropped.
const { createHash } = await import("node:crypto");
const { readFileSync } = await import("node:fs");
const sha = createHash("sha256")
  .update(readFileSync(join(qwen3Dir(), "tokenizer.json")))
  .digest("hex");
// The loader's stamp of this machine's directory (an absolute path) is no part of the package.
rmSync(join(tables, "stamps"), { recursive: true, force: true });
for (const f of readdirSync(tables)) if (f !== `${sha}.cwtables`) unlinkSync(join(tables, f));
process.stdout.write(`build-tables: ${join(tables, `${sha}.cwtables`)}\n`);
