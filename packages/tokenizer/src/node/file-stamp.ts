// Stamps: what a model directory's model files looked like when their SHA-256 was computed, kept
// in the cache directory (stamps/<hash of the directory path>.json), so a later load of the same,
// unchanged files knows the digest that names their tables without reading or hashing them
// (tokenizer.json of Qwen3 is 11 MB: reading and hashing it was most of a cached load).
//
// "Unchanged" is the rule git's index and make use, made strict: every model file has the same
// size, modification time, change time (nanoseconds), inode and device as when it was hashed.
// Any write to a file changes its change time, which utimes cannot set back, and a replaced file
// has another inode; anything different, missing or unreadable means the files are read and
// hashed as before, and the stamp is rewritten. The stat is taken before the files are read, so
// a file changed while it was being read leaves a stamp that no longer matches.
//
// The same records vouch for a table file whose CRC-32 held (./table-cache.ts): keyed by the table
// file's path, so an unchanged table file is not checksummed on every load either.
import {
  type BigIntStats,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

const STAMP_DIR = "stamps";
const STAMP_VERSION = 1;

/** One file's stat as a stamp key. */
export function statKey(name: string, s: BigIntStats): string {
  return `${name}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.dev}`;
}

/** The stat of each named file, or undefined when one cannot be stat'ed. */
export function statKeys(dir: string, names: readonly string[]): string[] | undefined {
  const keys: string[] = [];
  for (const name of names) {
    try {
      const s = statSync(join(dir, name), { bigint: true });
      if (!s.isFile()) return undefined;
      keys.push(statKey(name, s));
    } catch {
      return undefined;
    }
  }
  return keys;
}

/** FNV-1a of the path (a file name, not a check: the stamp holds the path and is compared). */
function stampName(dir: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < dir.length; i++) h = Math.imul(h ^ dir.charCodeAt(i), 0x01000193);
  return `${(h >>> 0).toString(16).padStart(8, "0")}.json`;
}

interface Stamp {
  readonly v: number;
  readonly dir: string;
  readonly keys: readonly string[];
  readonly source: string;
}

function isStamp(x: unknown): x is Stamp {
  if (typeof x !== "object" || x === null) return false;
  const s = x as Record<string, unknown>;
  return (
    s.v === STAMP_VERSION &&
    typeof s.dir === "string" &&
    typeof s.source === "string" &&
    Array.isArray(s.keys) &&
    s.keys.every((k) => typeof k === "string")
  );
}

/** The digest recorded for `dir` when its files' stats are exactly `keys`, else undefined. */
export function stampedSource(cacheDir: string, dir: string, keys: readonly string[]): string | undefined {
  let stamp: unknown;
  try {
    stamp = JSON.parse(readFileSync(join(cacheDir, STAMP_DIR, stampName(dir)), "utf8"));
  } catch {
    return undefined;
  }
  if (!isStamp(stamp) || stamp.dir !== dir || stamp.keys.length !== keys.length) return undefined;
  for (let i = 0; i < keys.length; i++) if (stamp.keys[i] !== keys[i]) return undefined;
  return stamp.source;
}

/** Records `source` for `dir` with these stats; a stamp that cannot be written only costs the speed-up. */
export function writeStamp(cacheDir: string, dir: string, keys: readonly string[], source: string): void {
  const stamp: Stamp = { v: STAMP_VERSION, dir, keys, source };
  const path = join(cacheDir, STAMP_DIR, stampName(dir));
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(join(cacheDir, STAMP_DIR), { recursive: true });
    writeFileSync(tmp, JSON.stringify(stamp));
    renameSync(tmp, path);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {}
  }
}
