// A tekken model's tables in a table file (../tables/table-file.ts): the read file (pattern,
// sizes, version and special tokens in the meta; the token bytes of every rank as one byte
// array and end offsets), each rank's bytes as a one-unit-per-byte string (the key of the
// bytes -> rank map) and the merge table's entries (every way of writing a token as two
// tokens, found by splitting every token: most of a load). Read back, every offset, length and
// rank is range-checked; anything missing or inconsistent means "read tekken.json".

import { Vocab } from "../bytelevel/vocab.ts";
import { type ModelTables, metaFor, openTables } from "../tables/model-tables.ts";
import { writeTableFile } from "../tables/table-file.ts";
import type { TekkenFile } from "./tekken-file.ts";

export const FAMILY = "tekken";

export interface StoredTekken {
  readonly tekken: TekkenFile;
  /** Rank -> its bytes as code units 0..255. */
  readonly keys: readonly string[];
  /** The keys' index (no two keys equal). */
  readonly vocab: Vocab;
  /** Merge table entries [3k] left rank, [3k + 1] right rank, [3k + 2] merged rank. */
  readonly merges: Int32Array;
}

export function tekkenTableFile(
  source: string,
  f: TekkenFile,
  keys: readonly string[],
  vocab: Vocab,
  merges: Int32Array,
  blocked: ReadonlySet<number>,
): Uint8Array {
  const ends = new Int32Array(f.ranks.length);
  let total = 0;
  for (let r = 0; r < f.ranks.length; r++) {
    total += (f.ranks[r] as Uint8Array).length;
    ends[r] = total;
  }
  const data = new Uint8Array(total);
  for (let r = 0, at = 0; r < f.ranks.length; r++) {
    const b = f.ranks[r] as Uint8Array;
    data.set(b, at);
    at += b.length;
  }
  return writeTableFile({
    meta: {
      ...metaFor(FAMILY, source, blocked),
      pattern: f.pattern,
      vocabSize: f.vocabSize,
      numSpecial: f.numSpecial,
      tekkenVersion: f.version,
    },
    arrays: { rankEnds: ends, rankData: data, merges, keySlots: vocab.index.slots },
    strings: { special: f.special, keys },
  });
}

/** The stored tekken model, or undefined (absent, other content, malformed). */
export function readTekkenTables(tables: ModelTables | undefined): StoredTekken | undefined {
  const file = openTables(tables, FAMILY);
  if (file === undefined) return undefined;
  const { pattern, vocabSize, numSpecial, tekkenVersion: version } = file.meta;
  if (typeof pattern !== "string" || typeof version !== "string") return undefined;
  if (!Number.isSafeInteger(vocabSize) || !Number.isSafeInteger(numSpecial)) return undefined;
  const size = vocabSize as number;
  const nSpecial = numSpecial as number;
  if (nSpecial < 0 || nSpecial > size) return undefined;
  const n = size - nSpecial;
  const special = file.strings("special");
  const keys = file.strings("keys");
  const ends = file.array("rankEnds", "i32");
  const data = file.array("rankData", "u8");
  const merges = file.array("merges", "i32");
  const slots = file.array("keySlots", "i32");
  if (slots === undefined) return undefined;
  if (special === undefined || keys === undefined || ends === undefined || data === undefined)
    return undefined;
  if (merges === undefined || merges.length % 3 !== 0) return undefined;
  if (special.length !== nSpecial || keys.length !== n || ends.length !== n) return undefined;
  if (special.includes(undefined) || keys.includes(undefined)) return undefined;
  const ranks = new Array<Uint8Array>(n);
  let at = 0;
  for (let r = 0; r < n; r++) {
    const end = ends[r] as number;
    if (end < at || end > data.length || (keys[r] as string).length !== end - at) return undefined;
    ranks[r] = data.subarray(at, end);
    at = end;
  }
  for (let k = 0; k < merges.length; k++) {
    const r = merges[k] as number;
    if (r < 0 || r >= n) return undefined;
  }
  const vocab = Vocab.fromStored(keys as string[], slots);
  if (vocab === undefined) return undefined;
  return {
    vocab,
    tekken: {
      pattern,
      vocabSize: size,
      numSpecial: nSpecial,
      version,
      special: special as string[],
      ranks,
    },
    keys: keys as string[],
    merges,
  };
}
