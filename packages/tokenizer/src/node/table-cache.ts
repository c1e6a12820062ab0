// Where the Node entry keeps a model file's tables (../tables/): one file per model content,
// named by the SHA-256 of the model file, in a cache directory (CHATWIRE_CACHE_DIR, else
// $XDG_CACHE_HOME/chatwire, else ~/.cache/chatwire; option `cacheDir`, false = off), and,
// read-only, prebuilt files shipped with a data package (@chatwire/tokenizer-qwen3/tables).
// The cache directory is looked at first; the data packages are resolved only when it has no
// current file for this content (resolving packages costs time on every load, and a
// SentencePiece model never has a prebuilt file).
//
// A stored file is ["CWS1"][CRC-32 of the rest, u32 LE][table file] (8 bytes, so the table
// file's arrays stay 8-aligned views of the read buffer). It is used only when that check holds
// (a truncated, corrupt or half-written file is not; crc32.ts says what a CRC guards against),
// the table file was written by this version for a model file with the same SHA-256 as the one
// just read (a stale file is not), and the family's structural checks pass; such bytes are
// handed on as `verified` (what our exporter wrote), so the loader skips the per-value checks
// that only guard against damaged bytes. A file whose CRC-32 held is not checksummed again while
// its stat is unchanged, and unchanged model files are not hashed again (./file-stamp.ts). Otherwise the model is built from its file and a fresh
// table file replaces the bad one (written to a temporary name, then renamed: readers never see
// half a file). Every cache problem (unwritable directory, full disk) only costs the speed-up,
// never an error. (A file of an older TABLES_VERSION is rebuilt like any stale one.)

import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { exportModelTables, type ModelTables, tablesAreCurrent } from "../models/tables/model-tables.ts";
import type { TextModel } from "../models/text-model.ts";
import { nodeCrypto } from "./builtins.ts";
import { crc32 } from "./crc32.ts";
import { stampedSource, statKey, writeStamp } from "./file-stamp.ts";

/** "CWS1": a stored table file with a CRC-32. */
const STORED_TAG = [0x43, 0x57, 0x53, 0x31];
const HEADER = 8;

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
  const h = nodeCrypto().createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
}

/** The table file inside a stored file, when its check holds; undefined otherwise. */
export function unwrapStored(stored: Uint8Array): Uint8Array | undefined {
  if (stored.length <= HEADER) return undefined;
  for (let i = 0; i < STORED_TAG.length; i++) if (stored[i] !== STORED_TAG[i]) return undefined;
  const body = stored.subarray(HEADER);
  const want = new DataView(stored.buffer, stored.byteOffset, HEADER).getUint32(4, true);
  return crc32(body) === want ? body : undefined;
}

export function wrapForStore(table: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + table.length);
  out.set(STORED_TAG, 0);
  new DataView(out.buffer).setUint32(4, crc32(table), true);
  out.set(table, HEADER);
  return out;
}

/** What a stamp records for a stored file whose CRC-32 held. */
const CRC_CHECKED = "crc-32 checked";

/**
 * The table file inside the stored file at `path` when its CRC-32 holds. The check is skipped
 * when `stampDir` holds a stamp (./file-stamp.ts) saying it held for exactly this file's stat
 * (taken from the descriptor read, before reading): any write since changes the stat.
 */
function readStored(path: string, stampDir: string | undefined): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const keys = stampDir === undefined ? undefined : [statKey("stored", fstatSync(fd, { bigint: true }))];
    const stored = readFileSync(fd);
    if (stampDir === undefined || keys === undefined) return unwrapStored(stored);
    if (stampedSource(stampDir, path, keys) === CRC_CHECKED) return unwrapUnchecked(stored);
    const body = unwrapStored(stored);
    if (body !== undefined) writeStamp(stampDir, path, keys, CRC_CHECKED);
    return body;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The table file inside a stored file, its CRC-32 not computed (readStored: checked before). */
function unwrapUnchecked(stored: Uint8Array): Uint8Array | undefined {
  if (stored.length <= HEADER) return undefined;
  for (let i = 0; i < STORED_TAG.length; i++) if (stored[i] !== STORED_TAG[i]) return undefined;
  return stored.subarray(HEADER);
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
  /** The loader option (models/tables/model-tables.ts). */
  readonly tables: ModelTables;
  /** After the model is built: stores a fresh table file when the stored one was not used. */
  settle(model: TextModel): void;
}

/** The file name of a model file's tables. */
export function tableFileName(source: string): string {
  return `${source}.cwtables`;
}

/**
 * A cache session for one model file's bytes: finds a usable stored file (the cache directory
 * first, then the prebuilt directories: `prebuilt`, by default those of the installed data
 * packages) and, after the build, replaces a missing or unusable one in the cache directory.
 */
export function openTableCache(
  modelBytes: Uint8Array | readonly Uint8Array[],
  options: TableCacheOptions,
  prebuilt?: readonly string[],
): TableCacheSession | undefined {
  if (cacheDirOf(options) === false) return undefined;
  return openTableCacheFor(modelDigest(modelBytes), options, prebuilt);
}

/** The cache directory the options name: false = no cache, undefined = none can be named. */
export function cacheDirOf(options: TableCacheOptions): string | false | undefined {
  return options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
}

/**
 * The digest that names a model's tables. Several model files (tokenizer.json AND
 * tokenizer.model): the digest covers all of them, so a change to either makes the stored
 * tables stale.
 */
export function modelDigest(modelBytes: Uint8Array | readonly Uint8Array[]): string {
  return (modelBytes instanceof Uint8Array ? sha256(modelBytes) : sha256(...modelBytes)).toString("hex");
}

/** openTableCache for model files whose digest is already known (`source`, see modelDigest). */
export function openTableCacheFor(
  source: string,
  options: TableCacheOptions,
  prebuilt?: readonly string[],
): TableCacheSession | undefined {
  const dir = cacheDirOf(options);
  if (dir === false) return undefined;
  const name = tableFileName(source);
  // A whole file (digest) written by this version for this content; anything else is skipped.
  const current = (d: string): Uint8Array | undefined => {
    const body = readStored(join(d, name), dir);
    return body !== undefined && tablesAreCurrent(body, source) ? body : undefined;
  };
  let bytes = dir === undefined ? undefined : current(dir);
  if (bytes === undefined) {
    for (const d of prebuilt ?? (options.prebuiltTables === false ? [] : prebuiltDirs())) {
      bytes = current(d);
      if (bytes !== undefined) break;
    }
  }
  let used = false;
  const tables: ModelTables = {
    source,
    bytes,
    verified: bytes !== undefined,
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
