// Tekken as a TextModel (../text-model.ts): tiktoken's encoder over the ranks of a tekken file
// (./tekken-file.ts), as mistral-common's Tekkenizer.encode calls it: the text is split by the
// file's pattern (leftmost-first alternation, like tiktoken's fancy-regex), each piece that is a
// token is that token, any other piece is merged from its bytes, the adjacent pair whose bytes
// form the lowest-ranked token first (leftmost among equals), and every rank R becomes ID
// R + numSpecial. Special tokens (IDs below numSpecial) are never produced from text: the
// reference hands tiktoken no special tokens at all, so every reserved ID is unreachable here.
//
// The merge step is the byte-level BPE merger (../bytelevel/bpe.ts) with one table entry per
// way of writing a token as two tokens: tiktoken's "merge the pair whose concatenation has the
// lowest rank" is exactly "apply the merge of lowest rank" over that table.

import { TokenizerError } from "../../errors.ts";
import { MergeTable, WordMerger } from "../bytelevel/bpe.ts";
import { byteTokenTable } from "../bytelevel/decode-table.ts";
import { translateOnigPattern } from "../bytelevel/regex-translate.ts";
import { Vocab } from "../bytelevel/vocab.ts";
import { backtrackingGroup } from "../regex-guard.ts";
import { type ModelTables, registerTableExporter } from "../tables/model-tables.ts";
import { type DecodeTable, type TextModel, TokenKind } from "../text-model.ts";
import { type StoredTekken, tekkenTableFile } from "./model-tables.ts";
import type { TekkenFile } from "./tekken-file.ts";

export interface TekkenModel extends TextModel {
  /** The file's special-token strings by ID. */
  readonly special: readonly string[];
  readonly version: string;
}

export interface TekkenModelOptions {
  readonly file: string;
  /** Reserved IDs (all special-token IDs: the encoder never produces them anyway). */
  readonly blocked?: Iterable<number>;
  /** The tables of an earlier load of this file (./model-tables.ts), `f` being their `tekken`. */
  readonly stored?: StoredTekken;
  /** The table option the caller passed (told whether the tables came from it). */
  readonly tables?: ModelTables;
}

/** The bytes as a string of code units 0..255 (a Map key); chunked so no call gets too many arguments. */
const latin1 = (b: Uint8Array): string => {
  if (b.length <= 4096) return String.fromCharCode.apply(null, b as unknown as number[]);
  let s = "";
  for (let i = 0; i < b.length; i += 4096)
    s += String.fromCharCode.apply(null, b.subarray(i, i + 4096) as unknown as number[]);
  return s;
};

// ignoreBOM: a token's U+FEFF is text (Python's bytes.decode("utf-8") keeps it; TextDecoder would
// drop one at the start of the bytes).
const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lossy = new TextDecoder("utf-8", { ignoreBOM: true });
const encoder = new TextEncoder();

function validUtf8(b: Uint8Array): string | undefined {
  try {
    return fatal.decode(b);
  } catch {
    return undefined;
  }
}

/** Builds the TextModel of a read tekken file. */
export function loadTekkenModel(f: TekkenFile, options: TekkenModelOptions): TekkenModel {
  const file = options.file;
  const n = f.ranks.length;
  const offset = f.numSpecial;
  const stored = options.stored;
  const keys = stored?.keys ?? new Array<string>(n);
  if (stored === undefined)
    for (let r = 0; r < n; r++) (keys as string[])[r] = latin1(f.ranks[r] as Uint8Array);
  // Bytes -> rank through a piece index (integer hashes, ../bytelevel/vocab.ts), stored with the
  // tables; a Map of every key would be most of a cached load. Equal byte strings (the first
  // rank wins, as in tiktoken's map) need the Map: a Vocab keeps the last.
  const vocab =
    stored?.vocab ??
    new Vocab(
      keys,
      Int32Array.from({ length: n }, (_, r) => r),
    );
  const byBytes: { get(key: string): number | undefined } = vocab.duplicateKeys ? firstRanks(keys) : vocab;
  const byteRank = new Int32Array(256);
  for (let b = 0; b < 256; b++) {
    const r = byBytes.get(String.fromCharCode(b));
    if (r === undefined)
      throw new TokenizerError(
        "bad-tokenizer-file",
        `${file}: byte ${b} has no token (tiktoken needs all 256)`,
        {
          file,
        },
      );
    byteRank[b] = r;
  }
  const merges = stored?.merges ?? mergeEntries(keys, byBytes);
  const exportable = !vocab.duplicateKeys;
  const table = new MergeTable(merges.length / 3);
  for (let k = 0; k < merges.length; k += 3) {
    const r = merges[k + 2] as number;
    table.set(merges[k] as number, merges[k + 1] as number, r, r);
  }
  options.tables?.report?.(stored !== undefined);
  const merger = new WordMerger(table);
  const unusable = (why: string) =>
    new TokenizerError("bad-tokenizer-file", `${file}: config.pattern is not a usable pattern: ${why}`, {
      file,
      field: "config.pattern",
    });
  const slow = backtrackingGroup(f.pattern);
  if (slow !== undefined) throw unusable(slow);
  // The pattern is a Rust regex (tiktoken's): its \s is Unicode White_Space (U+0085 in, U+FEFF
  // out, unlike JS's \s) and its `.` excludes only \n, as Oniguruma's do, so the Oniguruma
  // translation (../bytelevel/regex-translate.ts) gives the JS RegExp that splits alike.
  let pattern: RegExp;
  try {
    pattern = new RegExp(translateOnigPattern(f.pattern), "gv");
  } catch (e) {
    throw unusable(e instanceof Error ? e.message : String(e));
  }
  const blocked = new Set<number>();
  for (const id of options.blocked ?? []) {
    if (id >= offset)
      throw new TokenizerError("invalid-argument", `${file}: id ${id} is a BPE token, not a special token`, {
        file,
        index: id,
      });
    blocked.add(id);
  }

  let syms = new Int32Array(64);
  function encodePiece(piece: string, out: number[]): void {
    const bytes = encoder.encode(piece);
    const whole = byBytes.get(latin1(bytes));
    if (whole !== undefined) {
      out.push(whole + offset);
      return;
    }
    if (syms.length < bytes.length) syms = new Int32Array(bytes.length * 2);
    for (let i = 0; i < bytes.length; i++) syms[i] = byteRank[bytes[i] as number] as number;
    const len = merger.merge(syms, bytes.length);
    for (let i = 0; i < len; i++) out.push((syms[i] as number) + offset);
  }
  function encodeInto(text: string, out: number[]): void {
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) if (m[0].length > 0) encodePiece(m[0], out);
  }

  const size = f.vocabSize;
  let table_: DecodeTable | undefined;
  const decodeTable = (): DecodeTable => {
    if (table_ !== undefined) return table_;
    const kind = new Uint8Array(size);
    const text: string[] = new Array<string>(size).fill("");
    const bytes: (Uint8Array | undefined)[] = [];
    const byteLength = new Uint32Array(size);
    for (let id = 0; id < size; id++) {
      if (id < offset) {
        kind[id] = TokenKind.Control;
        continue;
      }
      const b = f.ranks[id - offset] as Uint8Array;
      byteLength[id] = b.length;
      const s = validUtf8(b);
      if (s === undefined) {
        kind[id] = TokenKind.Bytes;
        bytes[id] = b;
      } else {
        kind[id] = TokenKind.Text;
        text[id] = s;
      }
    }
    table_ = byteTokenTable(kind, text, bytes, byteLength);
    return table_;
  };

  const model: TekkenModel = {
    family: "byte-level-bpe",
    vocabSize: size,
    special: f.special,
    version: f.version,
    encode(text: string): number[] {
      const out: number[] = [];
      encodeInto(text, out);
      return out;
    },
    encodeInto,
    decode(ids: readonly number[]): string {
      let total = 0;
      for (const id of ids)
        if (id >= offset && id < size) total += (f.ranks[id - offset] as Uint8Array).length;
      const buf = new Uint8Array(total);
      let at = 0;
      for (const id of ids)
        if (id >= offset && id < size) {
          const b = f.ranks[id - offset] as Uint8Array;
          buf.set(b, at);
          at += b.length;
        }
      return lossy.decode(buf);
    },
    idToPiece(id: number): string | undefined {
      if (!Number.isInteger(id) || id < 0 || id >= size) return undefined;
      if (id < offset) return f.special[id];
      return validUtf8(f.ranks[id - offset] as Uint8Array);
    },
    pieceToId(piece: string): number | undefined {
      const s = f.special.indexOf(piece);
      if (s !== -1) return s;
      const r = byBytes.get(latin1(encoder.encode(piece)));
      return r === undefined ? undefined : r + offset;
    },
    blocked,
    literalPieces: new Map(),
    get decodeTable(): DecodeTable {
      return decodeTable();
    },
    leadingOffsetBytes: 0,
    tokenByteLength(id: number): number {
      return id >= offset && id < size ? (f.ranks[id - offset] as Uint8Array).length : 0;
    },
    normalization: "none",
  };
  if (exportable)
    registerTableExporter(model, (source) => tekkenTableFile(source, f, keys, vocab, merges, blocked));
  return model;
}

/** Bytes -> the first rank with them. */
function firstRanks(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (let r = 0; r < keys.length; r++) if (!m.has(keys[r] as string)) m.set(keys[r] as string, r);
  return m;
}

/**
 * The merge table's entries: for every rank r (the first of equal byte strings), every split of
 * its bytes into two tokens a + b, as [a, b, r] (tiktoken's "merge the pair whose concatenation
 * has the lowest rank" is exactly "apply the merge of lowest rank" over these).
 */
function mergeEntries(
  keys: readonly string[],
  byBytes: { get(key: string): number | undefined },
): Int32Array {
  let out = new Int32Array(keys.length * 12);
  let used = 0;
  for (let r = 0; r < keys.length; r++) {
    const key = keys[r] as string;
    if (byBytes.get(key) !== r) continue;
    for (let k = 1; k < key.length; k++) {
      const a = byBytes.get(key.slice(0, k));
      const b = a === undefined ? undefined : byBytes.get(key.slice(k));
      if (a === undefined || b === undefined) continue;
      if (used + 3 > out.length) {
        const grown = new Int32Array(out.length * 2);
        grown.set(out);
        out = grown;
      }
      out[used++] = a;
      out[used++] = b;
      out[used++] = r;
    }
  }
  return out.slice(0, used);
}
