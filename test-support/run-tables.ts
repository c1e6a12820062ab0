// Loads from in-memory tokenizer files through the run's table cache: the directory that
// ./table-cache-dir.ts names in CHATWIRE_CACHE_DIR for every worker of a vitest run. The first
// load of a model content in the run (any worker) builds from the files and stores the model's
// tables; every later one reads them, which skips decoding, scanning and checking the model
// file's text (packages/tokenizer/src/node/table-cache.ts keeps them the way the directory
// loader does). Without CHATWIRE_CACHE_DIR (not under vitest) nothing is cached: a test never
// reads or writes the user's own cache.
import { createHash } from "node:crypto";
import type { ModelTables, TextModel } from "../packages/tokenizer/src/index.ts";
import { openTableCacheFor } from "../packages/tokenizer/src/node/table-cache.ts";

/**
 * A name for what a load reads: the SHA-256 of the parts' SHA-256s (so no two lists of parts
 * share one). Strings count as their UTF-8 bytes.
 */
export function digestOf(parts: readonly (string | Uint8Array)[]): string {
  const all = createHash("sha256");
  for (const p of parts) all.update(createHash("sha256").update(p).digest());
  return all.digest("hex");
}

/**
 * `build(tables)` with the run's tables for `source` (their bytes absent until some load stored
 * them; undefined without a run cache), then the model's tables stored for the next load when
 * these were not used. `source` must name everything the tables depend on: the model file's exact content and
 * whatever else sets the IDs the loader blocks (the tables check those too, but content whose
 * loads disagree on them would replace each other's file on every load).
 */
export function withRunTables<T extends { readonly textModel: TextModel }>(
  source: string,
  build: (tables: ModelTables | undefined) => T,
): T {
  const dir = process.env.CHATWIRE_CACHE_DIR;
  const session =
    dir === undefined || dir === ""
      ? undefined
      : openTableCacheFor(source, { cacheDir: dir, prebuiltTables: false });
  if (session === undefined) return build(undefined);
  const tok = build(session.tables);
  session.settle(tok.textModel);
  return tok;
}
