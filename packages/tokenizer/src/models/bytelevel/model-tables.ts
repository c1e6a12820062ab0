// A byte-level BPE model's tables in a table file (../tables/table-file.ts): the tokenizer.json
// with model.vocab and model.merges taken out (the small rest, as JSON), the vocabulary as its
// pieces' bytes (piece-bytes.ts) and the byte symbols' ids, the merge table's hash slots as built
// (bpe.ts; the merges as ids in rank order instead when it cannot be stored), and, for the
// blocked IDs it was built with, the stream decoder's kinds. Anything missing or inconsistent
// means "read the tokenizer.json"; a file of an earlier layout (piece strings, no piece bytes)
// is such a file, so the cache replaces it once.
//
// Read back, every part is a view of the file and nothing is made per piece: piece strings come
// per lookup, the piece index at the first lookup (vocab.ts), decode texts per id at their first
// sight (lazyText), the merge table is read as it was hashed (what it saves: bench/RESULTS.md
// "Tokenizer load", "Cold start").

import {
  type ModelTables,
  metaFor,
  openTables,
  sameBlocked,
  tokenizerJsonRest,
} from "../tables/model-tables.ts";
import type { JsonValue, TableArray, TableContents, TableFile } from "../tables/table-file.ts";
import { type DecodeTable, type LazyText, TokenKind } from "../text-model.ts";
import { MergeTable, type StoredMergeTable } from "./bpe.ts";
import { BYTE_TO_CHAR } from "./byte-alphabet.ts";
import { PieceBytes, type PieceBytesArrays, pieceBytesArraysOf } from "./piece-bytes.ts";
import { isValidUtf8 } from "./token-bytes.ts";
import { Vocab } from "./vocab.ts";

export const FAMILY = "byte-level-bpe";

/** What load.ts and the model take from a byte-level table file. */
export interface StoredByteLevel {
  /** The tokenizer.json without model.vocab / model.merges (they are {} and []). */
  readonly rest: object;
  readonly vocab: Vocab;
  /** Byte b's symbol id (-1: the vocabulary lacks it), as the model found them. */
  readonly byteIds: Int32Array;
  /** Number of merge ranks. */
  readonly ranks: number;
  /**
   * [3r] left, [3r + 1] right, [3r + 2] merged id of merge rank r (all pieces), when the file
   * holds them (its merge table could not be stored); else `mergeTable` is set.
   */
  readonly merges: Int32Array | undefined;
  /** The merge table as stored (checked: MergeTable.fromStored), when the file holds it. */
  readonly mergeTable: MergeTable | undefined;
  readonly file: TableFile;
}

export function byteLevelTableContents(
  source: string,
  json: object,
  vocab: Vocab,
  byteIds: Int32Array,
  merges: Int32Array | undefined,
  ranks: number,
  blocked: ReadonlySet<number>,
  table: DecodeTable,
  mergeTable: StoredMergeTable | undefined,
): TableContents | undefined {
  const rest = tokenizerJsonRest(json);
  if (rest === undefined || vocab.sharedIds || vocab.duplicateKeys) return undefined;
  if (mergeTable === undefined && merges === undefined) return undefined;
  const pieces: PieceBytesArrays =
    vocab.bytes?.arrays() ?? pieceBytesArraysOf(vocab.pieces.slice(0, vocab.maxId + 1));
  const bytesIds: number[] = [];
  for (let id = 0; id < table.size; id++) if (table.kind[id] === TokenKind.Bytes) bytesIds.push(id);
  const arrays: { [name: string]: TableArray } = {
    byteIds,
    "pieces.bytes": pieces.bytes,
    "pieces.offsets": pieces.offsets,
    "pieces.otherIds": pieces.otherIds,
    "dec.kind": table.kind,
    "dec.bytesIds": Int32Array.from(bytesIds),
  };
  // The merge table's hash slots as built (a load then reads them instead of hashing every
  // merge); the merges themselves only when it cannot be stored (a pair of ids past the packed
  // range: meta mergeTable null).
  const stored = mergeTableContents(mergeTable);
  Object.assign(arrays, stored.arrays);
  if (mergeTable === undefined) arrays.merges = merges as Int32Array;
  const merged = { ranks, mergeTable: stored.meta };
  return {
    meta: { ...metaFor(FAMILY, source, blocked), rest, decodeSize: table.size, ...merged },
    arrays,
    strings: { "pieces.other": pieces.other },
  };
}

/** The stored vocabulary, merges and rest, or undefined (absent, other content, malformed). */
export function readByteLevelTables(tables: ModelTables | undefined): StoredByteLevel | undefined {
  const file = openTables(tables, FAMILY);
  if (file === undefined) return undefined;
  const rest = file.meta.rest;
  const ranks = file.meta.ranks;
  if (typeof rest !== "object" || rest === null || Array.isArray(rest)) return undefined;
  if (typeof ranks !== "number" || !Number.isSafeInteger(ranks) || ranks < 0) return undefined;
  const verified = tables?.verified === true;
  const byteIds = file.array("byteIds", "i32");
  const bytes = file.array("pieces.bytes", "u8");
  const offsets = file.array("pieces.offsets", "u32");
  const otherIds = file.array("pieces.otherIds", "i32");
  const other = file.strings("pieces.other");
  if (byteIds === undefined || bytes === undefined || offsets === undefined) return undefined;
  if (otherIds === undefined || other === undefined || byteIds.length !== 256) return undefined;
  const pieces = PieceBytes.of({ bytes, offsets, otherIds, other }, verified);
  if (pieces === undefined) return undefined;
  // Each byte's id is its symbol's piece (or -1): per value, for bytes not known to be ours.
  if (!verified)
    for (let b = 0; b < 256; b++) {
      const id = byteIds[b] as number;
      if (id !== -1 && pieces.at(id) !== BYTE_TO_CHAR[b]) return undefined;
    }
  const vocab = Vocab.fromPieceBytes(pieces);
  const stored = readStoredMergeTable(file);
  if (stored !== undefined) {
    // Merge ids are pieces' ids: below the vocabulary's size, and pieces (checked unverified).
    const table = MergeTable.fromStored(stored, ranks, pieces.count, verified);
    if (table === undefined) return undefined;
    if (!verified) for (let r = 0; r < ranks; r++) if (!pieces.has(table.mergedAt(r))) return undefined;
    return { rest, vocab, byteIds, ranks, merges: undefined, mergeTable: table, file };
  }
  if (file.meta.mergeTable !== null) return undefined;
  const merges = file.array("merges", "i32");
  if (merges === undefined || merges.length !== 3 * ranks) return undefined;
  // Every merge id names a piece: a per-value check, for bytes not known to be what we wrote.
  if (!verified)
    for (let k = 0; k < merges.length; k++) if (!pieces.has(merges[k] as number)) return undefined;
  return { rest, vocab, byteIds, ranks, merges, mergeTable: undefined, file };
}

/**
 * A BPE tokenizer.json's stored vocabulary (piece strings), merges and rest under `family` (the
 * SentencePiece-converted files' table layout), or undefined (absent, other content, malformed).
 */
export function readStoredBpe(tables: ModelTables | undefined, family: string): StoredBpe | undefined {
  const file = openTables(tables, family);
  if (file === undefined) return undefined;
  const rest = file.meta.rest;
  if (typeof rest !== "object" || rest === null || Array.isArray(rest)) return undefined;
  const pieces = file.strings("pieces");
  const slots = file.array("vocabSlots", "i32");
  const merges = file.array("merges", "i32");
  if (pieces === undefined || slots === undefined || merges === undefined || merges.length % 3 !== 0)
    return undefined;
  const verified = tables?.verified === true;
  const vocab = Vocab.fromStored(pieces, slots, verified);
  if (vocab === undefined || vocab.maxId !== pieces.length - 1) return undefined;
  // Every merge id names a piece: a per-value check, for bytes not known to be what we wrote.
  if (!verified)
    for (let k = 0; k < merges.length; k++) {
      const id = merges[k] as number;
      if (id < 0 || id > vocab.maxId || pieces[id] === undefined) return undefined;
    }
  // The merge table of every merge, as built (absent from files of an older layout; null: it
  // could not be stored). Damaged or inconsistent: the whole file is unused.
  const layout = file.meta.mergeTable;
  if (layout === undefined || layout === null) return { rest, vocab, merges, mergeTable: layout };
  const storedTable = readStoredMergeTable(file);
  const ranks = merges.length / 3;
  const table =
    storedTable === undefined
      ? undefined
      : MergeTable.fromStored(storedTable, ranks, vocab.maxId + 1, verified);
  if (table === undefined || (!verified && !tableOfMerges(table, merges))) return undefined;
  return { rest, vocab, merges, mergeTable: table };
}

/**
 * True when `table` is what MergeTable.set makes of `merges` in rank order: each pair finds its
 * last rank (a later duplicate wins), with that rank's merged id, small pairs alike, and no
 * other pair is filled.
 */
function tableOfMerges(table: MergeTable, merges: Int32Array): boolean {
  let distinct = 0;
  for (let r = 0; 3 * r < merges.length; r++) {
    const a = merges[3 * r] as number;
    const b = merges[3 * r + 1] as number;
    const f = table.find(a, b);
    if (f < r || 3 * f >= merges.length || merges[3 * f] !== a || merges[3 * f + 1] !== b) return false;
    if (table.mergedAt(f) !== merges[3 * f + 2]) return false;
    if (a < 256 && b < 256 && table.small[a * 256 + b] !== f) return false;
    if (f === r) distinct++;
  }
  return distinct === table.size;
}

/** What readStoredBpe reads. */
export interface StoredBpe {
  readonly rest: object;
  readonly vocab: Vocab;
  readonly merges: Int32Array;
  /**
   * The merge table of every merge (MergeTable.fromStored checked it); null when the file says
   * it could not be stored, undefined when the file predates stored merge tables.
   */
  readonly mergeTable: MergeTable | null | undefined;
}

/** A merge table's arrays and meta for a table file (null: it cannot be stored). */
export function mergeTableContents(mergeTable: StoredMergeTable | undefined): {
  arrays: { [name: string]: TableArray };
  meta: JsonValue;
} {
  if (mergeTable === undefined) return { arrays: {}, meta: null };
  return {
    arrays: {
      "mergeTable.slots": mergeTable.slots,
      "mergeTable.small": mergeTable.small,
      "mergeTable.mergedByRank": mergeTable.mergedByRank,
    },
    meta: { count: mergeTable.count, mergedOffset: mergeTable.mergedOffset, ranks: mergeTable.ranks },
  };
}

/** The stored merge table's arrays (MergeTable.fromStored checks them), or undefined when absent. */
function readStoredMergeTable(file: TableFile): StoredMergeTable | undefined {
  const m = file.meta.mergeTable;
  if (typeof m !== "object" || m === null || Array.isArray(m)) return undefined;
  const { count, mergedOffset, ranks } = m;
  if (typeof count !== "number" || typeof ranks !== "number") return undefined;
  if (mergedOffset !== null && typeof mergedOffset !== "number") return undefined;
  const slots = file.array("mergeTable.slots", "i32");
  const small = file.array("mergeTable.small", "i32");
  const mergedByRank = file.array("mergeTable.mergedByRank", "i32");
  if (slots === undefined || small === undefined || mergedByRank === undefined) return undefined;
  return { slots, small, mergedByRank, ranks, count, mergedOffset };
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The stored decode table when it was built for these blocked IDs and this size, else undefined.
 * Its kinds are the file's; an ID's text is its token bytes (`tokenBytes`: the model's, undefined
 * for an ID without a piece; views of the file's piece bytes) decoded, made at the first read of
 * that ID (lazyText; reading the whole `text` makes every one), and Bytes IDs' bytes are those
 * token bytes, as buildByteLevelDecodeTable (decode-table.ts) makes them. Unless `verified`, every
 * kind is checked against its token bytes (valid UTF-8 or not).
 */
export function decodeTableFromTables(
  file: TableFile,
  blocked: ReadonlySet<number>,
  size: number,
  tokenBytes: (id: number) => Uint8Array | undefined,
  verified: boolean,
): DecodeTable | undefined {
  if (!sameBlocked(file.meta.blocked, blocked) || file.meta.decodeSize !== size) return undefined;
  const kind = file.array("dec.kind", "u8");
  const ids = file.array("dec.bytesIds", "i32");
  if (kind === undefined || ids === undefined || kind.length !== size) return undefined;
  const last = ids.length === 0 ? -1 : (ids[ids.length - 1] as number);
  if (last >= size) return undefined;
  const bytes = new Array<Uint8Array | undefined>(last + 1).fill(undefined);
  let prev = -1;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id <= prev || kind[id] !== TokenKind.Bytes) return undefined;
    prev = id;
    bytes[id] = tokenBytes(id);
    if (bytes[id] === undefined) return undefined;
  }
  if (!verified && !kindsFit(kind, ids.length, blocked, tokenBytes)) return undefined;
  const texts = new Array<string | undefined>(size);
  const fill = (id: number): void => {
    if (texts[id] !== undefined) return;
    const b = kind[id] === TokenKind.Text ? tokenBytes(id) : undefined;
    texts[id] = b === undefined ? "" : utf8.decode(b);
  };
  const lazyText: LazyText = { text: texts, textAtStart: texts, fill };
  let whole = false;
  const all = (): readonly string[] => {
    if (!whole) for (let id = 0; id < size; id++) fill(id);
    whole = true;
    return texts as string[];
  };
  let byteLength: Uint32Array | undefined;
  return Object.freeze({
    size,
    kind,
    get text(): readonly string[] {
      return all();
    },
    get textAtStart(): readonly string[] {
      return all();
    },
    lazyText,
    bytes,
    // What each ID adds in UTF-8 bytes (its token bytes; Control: 0), made when read.
    get byteLength(): Uint32Array {
      if (byteLength === undefined) {
        byteLength = new Uint32Array(size);
        for (let id = 0; id < size; id++)
          if (kind[id] !== TokenKind.Control) byteLength[id] = tokenBytes(id)?.length ?? 0;
      }
      return byteLength;
    },
    invalidUtf8: "maximal-subpart",
    startEnds: "never",
  });
}

/**
 * Kinds as buildByteLevelDecodeTable gives them for these pieces: Control for blocked IDs and
 * IDs without a piece, else Text when the token bytes are valid UTF-8 and Bytes when not (and
 * `bytesCount` Bytes IDs).
 */
function kindsFit(
  kind: Uint8Array,
  bytesCount: number,
  blocked: ReadonlySet<number>,
  tokenBytes: (id: number) => Uint8Array | undefined,
): boolean {
  let n = 0;
  for (let id = 0; id < kind.length; id++) {
    const b = blocked.has(id) ? undefined : tokenBytes(id);
    const want = b === undefined ? TokenKind.Control : isValidUtf8(b) ? TokenKind.Text : TokenKind.Bytes;
    if (kind[id] !== want) return false;
    if (want === TokenKind.Bytes) n++;
  }
  return n === bytesCount;
}
