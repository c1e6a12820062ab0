// The loader option that hands a text model its tables from an earlier load (table-file.ts),
// and the way back: exportModelTables(model) serializes what a loaded model built. Both ends
// are bytes, so this stays runtime-neutral; where the bytes live is the caller's business
// (the Node entry: a cache directory keyed by the model file's SHA-256, ../../node/table-cache.ts).

import type { TextModel } from "../text-model.ts";
import { type JsonValue, readTableFile, type TableFile } from "./table-file.ts";

/**
 * Bump when any family's table layout or meaning changes: older files are then rebuilt.
 */
export const TABLES_VERSION = 5;

export interface ModelTables {
  /**
   * Names the exact content of the model file (the Node entry passes its SHA-256). Tables
   * exported for other content are never used.
   */
  readonly source: string;
  /** A table file exported earlier by exportModelTables, or undefined (none stored yet). */
  readonly bytes?: Uint8Array | undefined;
  /**
   * True when the caller checked that `bytes` are exactly what exportModelTables wrote (the Node
   * cache: a CRC-32 stored with the file). The loader then skips the checks of individual
   * values (ids in range, one loop over every piece, BMP unit and pair slot) that only guard
   * against damaged bytes; lengths, shapes and the version, content and reserved IDs the file
   * was written for are always checked. Default false: every value is checked, so damaged bytes
   * can only mean "rebuild", never a throw or a hang.
   */
  readonly verified?: boolean;
  /**
   * Called once by the loader: true when every table came from `bytes`; false when they were
   * absent, malformed, for other content or other reserved IDs, and were built from the file
   * (the caller may then store a fresh export).
   */
  report?(used: boolean): void;
}

type Exporter = (source: string) => Uint8Array | undefined;
const exporters = new WeakMap<TextModel, Exporter>();

/** Called by a family's loader for each model it returns. */
export function registerTableExporter(model: TextModel, exporter: Exporter): void {
  exporters.set(model, exporter);
}

/**
 * The table file of a loaded model (every lazy table is built first), for a later load's
 * `tables.bytes` with the same `source`; undefined for a model family without tables.
 */
export function exportModelTables(model: TextModel, source: string): Uint8Array | undefined {
  return exporters.get(model)?.(source);
}

/** True when `bytes` is a table file written by this version for the content `source`. */
export function tablesAreCurrent(bytes: Uint8Array, source: string): boolean {
  const m = readTableFile(bytes)?.meta;
  return m !== undefined && m.version === TABLES_VERSION && m.source === source;
}

/** The file in `tables` when it was written by this version for this family and content. */
export function openTables(tables: ModelTables | undefined, family: string): TableFile | undefined {
  if (tables?.bytes === undefined) return undefined;
  const file = readTableFile(tables.bytes);
  if (file === undefined) return undefined;
  const m = file.meta;
  if (m.version !== TABLES_VERSION || m.family !== family || m.source !== tables.source) return undefined;
  return file;
}

/** Sorted IDs as stored in a table file's meta. */
export function blockedList(blocked: ReadonlySet<number>): number[] {
  return [...blocked].sort((a, b) => a - b);
}

/** True when a file's stored blocked list is exactly `blocked`. */
export function sameBlocked(stored: JsonValue | undefined, blocked: ReadonlySet<number>): boolean {
  if (!Array.isArray(stored) || stored.length !== blocked.size) return false;
  const want = blockedList(blocked);
  for (let i = 0; i < want.length; i++) if (stored[i] !== want[i]) return false;
  return true;
}

export function metaFor(
  family: string,
  source: string,
  blocked: ReadonlySet<number>,
): { [key: string]: JsonValue } {
  return { version: TABLES_VERSION, family, source, blocked: blockedList(blocked) };
}

/** A tokenizer.json's rest with vocab and merges emptied (what a table file keeps beside its arrays). */
export function tokenizerJsonRest(json: object): JsonValue | undefined {
  const root = json as { [key: string]: JsonValue };
  const model = root.model;
  if (typeof model !== "object" || model === null || Array.isArray(model)) return undefined;
  return { ...root, model: { ...model, vocab: {}, merges: [] } };
}
