// A byte-level BPE model's tables in a table file (../tables/table-file.ts): the tokenizer.json
// with model.vocab and model.merges taken out (the small rest, as JSON), the vocabulary's
// pieces and index slots, the merges as ids in rank order, and, for the blocked IDs it was
// built with, the stream decoder's table. Read back, every merge id and every decode entry is
// range-checked; anything missing or inconsistent means "read the tokenizer.json".
//
// Read back from a table file, every part is a view, one substring per piece and a JSON.parse of
// a few KB (what it saves: bench/RESULTS.md "Tokenizer load").

import {
  type ModelTables,
  metaFor,
  openTables,
  sameBlocked,
  tokenizerJsonRest,
} from "../tables/model-tables.ts";
import type { TableArray, TableContents, TableFile } from "../tables/table-file.ts";
import { type DecodeTable, TokenKind } from "../text-model.ts";
import type { StoredMergeTable } from "./bpe.ts";
import { Vocab } from "./vocab.ts";

export const FAMILY = "byte-level-bpe";

/** What load.ts and the model take from a table file. */
export interface StoredByteLevel {
  /** The tokenizer.json without model.vocab / model.merges (they are {} and []). */
  readonly rest: object;
  readonly vocab: Vocab;
  /** [3r] left, [3r + 1] right, [3r + 2] merged id of merge rank r; all valid pieces. */
  readonly merges: Int32Array;
  readonly file: TableFile;
}

export function byteLevelTableContents(
  source: string,
  json: object,
  vocab: Vocab,
  merges: Int32Array,
  blocked: ReadonlySet<number>,
  table: DecodeTable,
  mergeTable: StoredMergeTable | undefined,
): TableContents | undefined {
  const rest = tokenizerJsonRest(json);
  if (rest === undefined || vocab.sharedIds || vocab.duplicateKeys) return undefined;
  const bytesIds: number[] = [];
  const bytesEnds: number[] = [];
  let total = 0;
  for (let id = 0; id < table.size; id++) {
    const b = table.bytes[id];
    if (b === undefined) continue;
    bytesIds.push(id);
    total += b.length;
    bytesEnds.push(total);
  }
  const bytesData = new Uint8Array(total);
  for (let k = 0, at = 0; k < bytesIds.length; k++) {
    const b = table.bytes[bytesIds[k] as number] as Uint8Array;
    bytesData.set(b, at);
    at += b.length;
  }
  const arrays: { [name: string]: TableArray } = {
    vocabSlots: vocab.index.slots,
    merges,
    "dec.kind": table.kind,
    "dec.bytesIds": Int32Array.from(bytesIds),
    "dec.bytesEnds": Int32Array.from(bytesEnds),
    "dec.bytesData": bytesData,
  };
  if (table.byteLength !== undefined) arrays["dec.byteLength"] = table.byteLength;
  // The merge table's hash slots as built (a load then reads them instead of hashing every merge).
  if (mergeTable !== undefined) {
    arrays["mergeTable.slots"] = mergeTable.slots;
    arrays["mergeTable.small"] = mergeTable.small;
    arrays["mergeTable.mergedByRank"] = mergeTable.mergedByRank;
  }
  // null: this model's merge table cannot be stored (a pair of ids past the packed range).
  const merged = {
    mergeTable:
      mergeTable === undefined ? null : { count: mergeTable.count, mergedOffset: mergeTable.mergedOffset },
  };
  return {
    meta: { ...metaFor(FAMILY, source, blocked), rest, decodeSize: table.size, ...merged },
    arrays,
    // A decode text equal to its piece (printable ASCII without a mapped byte) is a hole, read
    // back as the piece's string object (fewer strings to make on load).
    strings: {
      pieces: vocab.pieces.slice(0, vocab.maxId + 1),
      "dec.text": table.text.map((t, id) => (t !== "" && t === vocab.pieces[id] ? undefined : t)),
    },
  };
}

/** The stored vocabulary, merges and rest, or undefined (absent, other content, malformed). */
export function readByteLevelTables(tables: ModelTables | undefined): StoredByteLevel | undefined {
  return readStoredBpe(tables, FAMILY);
}

/**
 * A BPE tokenizer.json's stored vocabulary, merges and rest under `family` (byte-level and
 * SentencePiece-converted files store them alike), or undefined (absent, other content, malformed).
 */
export function readStoredBpe(tables: ModelTables | undefined, family: string): StoredByteLevel | undefined {
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
  return { rest, vocab, merges, file };
}

/** The stored merge table's arrays (MergeTable.fromStored checks them), or undefined when absent. */
export function readStoredMergeTable(file: TableFile): StoredMergeTable | undefined {
  const m = file.meta.mergeTable;
  if (typeof m !== "object" || m === null || Array.isArray(m)) return undefined;
  const { count, mergedOffset } = m;
  if (typeof count !== "number" || (mergedOffset !== null && typeof mergedOffset !== "number"))
    return undefined;
  const slots = file.array("mergeTable.slots", "i32");
  const small = file.array("mergeTable.small", "i32");
  const mergedByRank = file.array("mergeTable.mergedByRank", "i32");
  if (slots === undefined || small === undefined || mergedByRank === undefined) return undefined;
  return { slots, small, mergedByRank, count, mergedOffset };
}

/** The stored decode table when it was built for these blocked IDs and this size, else undefined. */
export function decodeTableFromTables(
  file: TableFile,
  blocked: ReadonlySet<number>,
  size: number,
  pieces: readonly (string | undefined)[],
): DecodeTable | undefined {
  if (!sameBlocked(file.meta.blocked, blocked) || file.meta.decodeSize !== size) return undefined;
  const kind = file.array("dec.kind", "u8");
  const byteLength = file.array("dec.byteLength", "u32");
  const ids = file.array("dec.bytesIds", "i32");
  const ends = file.array("dec.bytesEnds", "i32");
  const data = file.array("dec.bytesData", "u8");
  const text = file.strings("dec.text");
  if (kind === undefined || byteLength === undefined || ids === undefined || ends === undefined)
    return undefined;
  if (data === undefined || text === undefined) return undefined;
  if (
    kind.length !== size ||
    byteLength.length !== size ||
    text.length !== size ||
    ends.length !== ids.length
  )
    return undefined;
  const bytes = new Array<Uint8Array | undefined>(size).fill(undefined);
  let at = 0;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    const end = ends[k] as number;
    if (id < 0 || id >= size || kind[id] !== TokenKind.Bytes || end < at || end > data.length)
      return undefined;
    bytes[id] = data.subarray(at, end);
    at = end;
  }
  let bytesKinds = 0;
  for (let id = 0; id < size; id++) {
    const k = kind[id] as number;
    text[id] ??= pieces[id];
    if (k > TokenKind.Control || text[id] === undefined) return undefined;
    if (k === TokenKind.Bytes) bytesKinds++;
  }
  if (bytesKinds !== ids.length) return undefined;
  return {
    size,
    kind,
    text: text as string[],
    textAtStart: text as string[],
    bytes,
    byteLength,
    invalidUtf8: "maximal-subpart",
    startEnds: "never",
  };
}
