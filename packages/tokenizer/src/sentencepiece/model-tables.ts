// A SentencePiece model's tables in a table file (../tables/table-file.ts): what the .model
// reader derives (piece strings, scores, types, the piece index, trainer and normalizer specs),
// and, for the reserved IDs it was built with, the encoder's tables (encoder-tables.ts) and
// the decode data and decode table. Read back, every part is checked against the others
// (lengths, value ranges, the blocked IDs), and any mismatch means "build from the file".
//
// Measured (cold process, InternLM2 92k pieces): reading the .model ~50 ms, building the
// encoder ~70 ms (pair table) and the decode table ~40 ms; from a table file all three are views.
// The piece strings stay a UTF-8 arena (piece-arena.ts: decoded per ID when asked for); only
// the decode texts, which the stream decoder's spec reads for every ID, become strings on load.

import { metaFor, sameBlocked } from "../tables/model-tables.ts";
import type { JsonValue, TableArray, TableContents, TableFile } from "../tables/table-file.ts";
import { type DecodeTable, TokenKind } from "../text-model.ts";
import type { DecodeData } from "./decode.ts";
import { buildDecodeTable } from "./decode-table.ts";
import { type EncoderTables, encoderTableArrays, encoderTablesFrom } from "./encoder-tables.ts";
import { type NormalizerSpec, PieceType, type SentencePieceProto, type TrainerSpec } from "./model-proto.ts";
import { PieceArena, pieceArenaOf } from "./piece-arena.ts";
import { PieceIndex } from "./piece-index.ts";

export const FAMILY = "sentencepiece";

const TRAINER_SHAPE: TrainerSpec = {
  modelType: 0,
  vocabSize: 0,
  byteFallback: false,
  splitDigits: false,
  treatWhitespaceAsSuffix: false,
  allowWhitespaceOnlyPieces: false,
  unkId: 0,
  bosId: 0,
  eosId: 0,
  padId: 0,
  unkPiece: "",
  bosPiece: "",
  eosPiece: "",
  padPiece: "",
  unkSurface: "",
};
const NORMALIZER_SHAPE: NormalizerSpec = {
  name: "",
  precompiledCharsmapLength: 0,
  addDummyPrefix: false,
  removeExtraWhitespaces: false,
  escapeWhitespaces: false,
};

/** `v` when it has exactly the keys of `shape`, each of the same JSON type. */
function shaped<T extends object>(v: JsonValue | undefined, shape: T): T | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const keys = Object.keys(shape);
  if (Object.keys(v).length !== keys.length) return undefined;
  for (const k of keys) if (typeof v[k] !== typeof (shape as Record<string, unknown>)[k]) return undefined;
  return v as unknown as T;
}

export function sentencePieceTableContents(
  source: string,
  proto: SentencePieceProto,
  blocked: ReadonlySet<number>,
  encoder: EncoderTables,
  data: DecodeData,
  table: DecodeTable,
): TableContents {
  const arena = pieceArenaOf(proto.pieces);
  const arrays: { [name: string]: TableArray } = {
    "pieces.utf8": arena.bytes,
    "pieces.offsets": arena.offsets,
    scores: proto.scores,
    types: proto.types,
    indexSlots: proto.index.slots,
    indexDuplicates: Int32Array.from(proto.index.duplicates),
    ...encoderTableArrays(encoder),
    "dec.types": data.types,
    "dec.startsWithMark": data.startsWithMark,
    "dec.byteOf": data.byteOf,
  };
  if (table.byteLength !== undefined) arrays["dec.byteLength"] = table.byteLength;
  return {
    meta: {
      ...metaFor(FAMILY, source, blocked),
      trainer: { ...proto.trainer },
      normalizer: { ...proto.normalizer },
      denormalizer: proto.denormalizer === undefined ? null : { ...proto.denormalizer },
    },
    arrays,
    // Start texts only for the ids that start with "▁" (the others' start text IS the text, the
    // same string object on load): a dense, nearly all-ASCII list of those ids in id order, so
    // reading it back is one decode and one split, no pass over every id.
    strings: {
      "dec.text": data.text,
      "dec.textAtMark": data.textAtStart.filter((_, id) => data.startsWithMark[id] === 1),
    },
  };
}

/** The proto part of a table file, or undefined when anything is missing or inconsistent. */
export function protoFromTables(file: TableFile): SentencePieceProto | undefined {
  const trainer = shaped(file.meta.trainer, TRAINER_SHAPE);
  const normalizer = shaped(file.meta.normalizer, NORMALIZER_SHAPE);
  const den = file.meta.denormalizer;
  const denormalizer = den === null ? undefined : shaped(den, NORMALIZER_SHAPE);
  if (trainer === undefined || normalizer === undefined || (den !== null && denormalizer === undefined))
    return undefined;
  const utf8 = file.array("pieces.utf8", "u8");
  const offsets = file.array("pieces.offsets", "u32");
  const scores = file.array("scores", "f32");
  const types = file.array("types", "u8");
  const slots = file.array("indexSlots", "i32");
  const duplicates = file.array("indexDuplicates", "i32");
  if (utf8 === undefined || offsets === undefined || scores === undefined || types === undefined)
    return undefined;
  if (slots === undefined || duplicates === undefined) return undefined;
  const n = types.length;
  if (n === 0 || scores.length !== n) return undefined;
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    if (t < 1 || t > 6) return undefined;
  }
  const arena = PieceArena.of({ bytes: utf8, offsets }, n);
  if (arena === undefined) return undefined;
  const pieceAt = (id: number): string | undefined => arena.at(id);
  const index = PieceIndex.fromStoredLazy(n, { slots, duplicates: [...duplicates] }, pieceAt);
  if (index === undefined) return undefined;
  let all: string[] | undefined;
  return {
    get pieces(): readonly string[] {
      all ??= arena.all();
      return all;
    },
    pieceAt,
    scores,
    types,
    trainer,
    normalizer,
    denormalizer,
    index,
  };
}

/**
 * The encoder tables, decode data and decode table of a table file built for these blocked
 * IDs, or undefined (other blocked IDs, or anything missing or inconsistent).
 */
export function derivedFromTables(
  file: TableFile,
  proto: SentencePieceProto,
  blocked: ReadonlySet<number>,
): { encoder: EncoderTables; data: DecodeData; table: DecodeTable } | undefined {
  if (!sameBlocked(file.meta.blocked, blocked)) return undefined;
  const n = proto.types.length;
  const encoder = encoderTablesFrom(file, n, true);
  if (encoder === undefined) return undefined;
  const types = file.array("dec.types", "u8");
  const startsWithMark = file.array("dec.startsWithMark", "u8");
  const byteOf = file.array("dec.byteOf", "i16");
  const byteLength = file.array("dec.byteLength", "u32");
  const text = file.strings("dec.text");
  const atMark = file.strings("dec.textAtMark");
  if (types === undefined || startsWithMark === undefined || byteOf === undefined || byteLength === undefined)
    return undefined;
  if (text === undefined || atMark === undefined) return undefined;
  if (types.length !== n || startsWithMark.length !== n || byteOf.length !== n || byteLength.length !== n)
    return undefined;
  if (text.length !== n) return undefined;
  const textAtStart = new Array<string>(n);
  // The decode table's kind per id, computed in this pass (buildDecodeTable then visits only
  // the BYTE ids): the same rule as its own pass.
  const kind = new Uint8Array(n);
  let marks = 0;
  for (let i = 0; i < n; i++) {
    const s = text[i];
    if (s === undefined) return undefined;
    if (startsWithMark[i] === 1) {
      const m = atMark[marks++];
      if (m === undefined) return undefined;
      textAtStart[i] = m;
    } else textAtStart[i] = s;
    const t = types[i]!;
    if (t < 1 || t > 6 || byteOf[i]! < -1 || byteOf[i]! > 255 || (t === 6) !== byteOf[i]! >= 0)
      return undefined;
    // CONTROL and BYTE ids print nothing (the decode table shares these arrays).
    if ((t === PieceType.Control || t === PieceType.Byte) && (s !== "" || textAtStart[i] !== ""))
      return undefined;
    kind[i] =
      t === PieceType.Byte
        ? TokenKind.Bytes
        : t === PieceType.Control || (t === PieceType.Unknown && s === "")
          ? TokenKind.Control
          : TokenKind.Text;
  }
  if (marks !== atMark.length) return undefined;
  const { addDummyPrefix, removeExtraWhitespaces } = proto.normalizer;
  const data: DecodeData = {
    types,
    text: text as string[],
    textAtStart: textAtStart as string[],
    startsWithMark,
    byteOf,
    stripAtStart: addDummyPrefix || removeExtraWhitespaces,
    keepStartAfterStrip: removeExtraWhitespaces,
  };
  return { encoder, data, table: buildDecodeTable(data, { byteLength, kind }) };
}
