// Where the Node entry keeps a model file's tables (../tables/): one file per model content,
// named by the SHA-256 of the model file, in a cache directory (CHATWIRE_CACHE_DIR, else
// $XDG_CACHE_HOME/chatwire, else ~/.cache/chatwire; option `cacheDir`, false = off), and,
// read-only, prebuilt files shipped with a data package (@chatwire/tokenizer-qwen3/tables).
//
// A stored file is [SHA-256 of the rest][table file]. It is used only when that digest matches
// (a truncated, corrupt or half-written file is not), the table file was written for a model
// file with the same SHA-256 as the one just read (a stale file is not), and the family's
// checks of every table pass; otherwise the model is built from its file and a fresh table file
// replaces the bad one (written to a temporary name, then renamed: readers never see half a file).
// Every cache problem (unwritable directory, full disk) only costs the speed-up, never an error.

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { exportModelTables, type ModelTables } from "../tables/model-tables.ts";
import type { TextModel } from "../text-model.ts";

const DIGEST = 32;

export interface TableCacheOptions {
  /** Directory for table files (default: CHATWIRE_CACHE_DIR, $XDG_CACHE_HOME/chatwire or ~/.cache/chatwire); false: no cache. */
  readonly cacheDir?: string | false;
  /** Read the prebuilt table files of data packages (@chatwire/tokenizer-qwen3); default true. */
  readonly prebuiltTables?: boolean;
}

/** The default cache directory, or undefined when none can be named. */
export function defaultCacheDir(): string | undefined {
  const env = process.env.CHATWIRE_CACHE_DIR;
  if (env !== undefined && env !== "") return env;
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== "") return join(xdg, "chatwire");
  try {
    return join(homedir(), ".cache", "chatwire");
  } catch {
    return undefined;
  }
}

function sha256(...parts: readonly Uint8Array[]): Buffer {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
}

/** The table file inside a stored file, when its digest holds; undefined otherwise. */
export function unwrapStored(stored: Uint8Array): Uint8Array | undefined {
  if (stored.length <= DIGEST) return undefined;
  const body = stored.subarray(DIGEST);
  const digest = sha256(body);
  for (let i = 0; i < DIGEST; i++) if (stored[i] !== digest[i]) return undefined;
  return body;
}

export function wrapForStore(table: Uint8Array): Uint8Array {
  const out = new Uint8Array(DIGEST + table.length);
  out.set(sha256(table), 0);
  out.set(table, DIGEST);
  return out;
}

function readIfPresent(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Directories holding prebuilt table files for this model directory (the embedded Qwen3). */
export function prebuiltDirs(): string[] {
  try {
    const dir: unknown = createRequire(import.meta.url)("@chatwire/tokenizer-qwen3/tables");
    return typeof dir === "string" ? [dir] : [];
  } catch {
    return [];
  }
}

export interface TableCacheSession {
  /** The loader option (tables/model-tables.ts). */
  readonly tables: ModelTables;
  /** After the model is built: stores a fresh table file when the stored one was not used. */
  settle(model: TextModel): void;
}

/** The file name of a model file's tables. */
export function tableFileName(source: string): string {
  return `${source}.cwtables`;
}

/**
 * A cache session for one model file's bytes: finds a usable stored file (prebuilt first,
 * then the cache directory) and, after the build, replaces a missing or unusable one.
 */
export function openTableCache(
  modelBytes: Uint8Array | readonly Uint8Array[],
  options: TableCacheOptions,
  prebuilt: readonly string[] = options.prebuiltTables === false ? [] : prebuiltDirs(),
): TableCacheSession | undefined {
  const dir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
  if (dir === false) return undefined;
  // Several model files (tokenizer.json AND tokenizer.model): the digest covers all of them, so
  // a change to either makes the stored tables stale.
  const source = (modelBytes instanceof Uint8Array ? sha256(modelBytes) : sha256(...modelBytes)).toString(
    "hex",
  );
  const name = tableFileName(source);
  let bytes: Uint8Array | undefined;
  for (const d of prebuilt) {
    const found = readIfPresent(join(d, name));
    bytes = found === undefined ? undefined : unwrapStored(found);
    if (bytes !== undefined) break;
  }
  if (bytes === undefined && dir !== undefined) {
    const found = readIfPresent(join(dir, name));
    bytes = found === undefined ? undefined : unwrapStored(found);
  }
  let used = false;
  const tables: ModelTables = {
    source,
    bytes,
    report(ok) {
      used = ok;
    },
  };
  return {
    tables,
    settle(model) {
      if (used || dir === undefined) return;
      try {
        const table = exportModelTables(model, source);
        if (table !== undefined) storeAtomically(dir, name, wrapForStore(table));
      } catch {
        // A cache that cannot be written only costs the speed-up.
      }
    },
  };
}

function storeAtomically(dir: string, name: string, bytes: Uint8Array): void {
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `${name}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, join(dir, name));
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw e;
  }
}
