// A SentencePiece-converted tokenizer.json's tables in a table file (../tables/table-file.ts):
// the file with model.vocab and model.merges emptied (the rest, as JSON: normalizer,
// pre-tokenizer, decoder, added tokens, model flags), the vocabulary's pieces and index slots,
// and the merges as ids in rank order. Read back, the rest goes through the same parser as the
// file (./spec.ts) and every merge id is range-checked; anything missing or inconsistent means
// "read the tokenizer.json". The merge table of every merge is stored as built (its hash slots),
// so a load does not hash every merge again; blocking is applied after reading (a model whose
// blocked IDs take part in a merge builds its own table), so one table file serves the native
// and the template loaders alike.

import type { MergeTable, StoredMergeTable } from "../bytelevel/bpe.ts";
import { mergeTableContents, readStoredBpe } from "../bytelevel/model-tables.ts";
import type { Vocab } from "../bytelevel/vocab.ts";
import { type ModelTables, metaFor, tokenizerJsonRest } from "../tables/model-tables.ts";
import { writeTableFile } from "../tables/table-file.ts";

export const FAMILY = "sentencepiece-json";

export interface StoredSpJson {
  /** The tokenizer.json without model.vocab / model.merges (they are {} and []). */
  readonly rest: object;
  readonly vocab: Vocab;
  /** [3r] left, [3r + 1] right, [3r + 2] merged id of merge rank r; all pieces of `vocab`. */
  readonly merges: Int32Array;
  /** The table of every merge (checked against `merges`), when the file holds one. */
  readonly mergeTable: MergeTable | undefined;
  /** False for a file of the layout without a stored merge table (a load then rewrites it). */
  readonly currentLayout: boolean;
}

/** The table file of a loaded model, or undefined when its vocabulary has no stored form. */
export function spJsonTableFile(
  source: string,
  json: object,
  vocab: Vocab,
  merges: Int32Array,
  blocked: ReadonlySet<number>,
  mergeTable: () => StoredMergeTable | undefined,
): Uint8Array | undefined {
  const rest = tokenizerJsonRest(json);
  if (rest === undefined || vocab.sharedIds || vocab.duplicateKeys) return undefined;
  const table = mergeTableContents(mergeTable());
  return writeTableFile({
    meta: { ...metaFor(FAMILY, source, blocked), rest, mergeTable: table.meta },
    arrays: { vocabSlots: vocab.index.slots, merges, ...table.arrays },
    strings: { pieces: vocab.pieces.slice(0, vocab.maxId + 1) },
  });
}

/** The stored vocabulary, merges and rest, or undefined (absent, other content, malformed). */
export function readSpJsonTables(tables: ModelTables | undefined): StoredSpJson | undefined {
  const stored = readStoredBpe(tables, FAMILY);
  // Not the table file: nothing here reads it later, so the model does not keep it alive.
  if (stored === undefined) return undefined;
  const { rest, vocab, merges, mergeTable } = stored;
  return {
    rest,
    vocab,
    merges,
    mergeTable: mergeTable ?? undefined,
    currentLayout: mergeTable !== undefined,
  };
}
