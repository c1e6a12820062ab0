// A SentencePiece model's tables in a table file (../tables/table-file.ts): what the .model
// reader derives (piece strings, scores, types, the piece index, trainer and normalizer specs)
// and, for the reserved IDs it was built with, the encoder's tables (encoder-tables.ts). Read
// back, every part is checked against the others (lengths, value ranges, the blocked IDs), and
// any mismatch means "build from the file".
//
// From a table file the piece table and the encoder's tables are views (what it saves:
// bench/RESULTS.md "Tokenizer load"). The piece strings stay a UTF-8 arena (piece-arena.ts:
// decoded per ID when asked for), and nothing of the decode side is stored: its texts are made
// per ID from the pieces (piece-texts.ts) and its kinds from the types by native scans
// (decode-table.ts).

import { metaFor, sameBlocked } from "../tables/model-tables.ts";
import type { JsonValue, TableArray, TableContents, TableFile } from "../tables/table-file.ts";
import { type EncoderTables, encoderTableArrays, encoderTablesFrom } from "./encoder-tables.ts";
import type { NormalizerSpec, SentencePieceProto, TrainerSpec } from "./model-proto.ts";
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
  };
  return {
    meta: {
      ...metaFor(FAMILY, source, blocked),
      trainer: { ...proto.trainer },
      normalizer: { ...proto.normalizer },
      denormalizer: proto.denormalizer === undefined ? null : { ...proto.denormalizer },
    },
    arrays,
    strings: {},
  };
}

/** Every piece type is one of the six PieceType values. */
function allTypes(types: Uint8Array): boolean {
  for (let i = 0; i < types.length; i++) if ((types[i]! - 1) >>> 0 > 5) return false;
  return true;
}

/**
 * The proto part of a table file, or undefined when anything is missing or inconsistent
 * (`verified`: bytes our exporter wrote, ModelTables.verified; the type of every piece is then
 * not re-checked).
 */
export function protoFromTables(file: TableFile, verified: boolean): SentencePieceProto | undefined {
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
  if (!verified && !allTypes(types)) return undefined;
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
 * The encoder tables of a table file built for these blocked IDs, or undefined (other blocked
 * IDs, or anything missing or inconsistent; `verified` as for protoFromTables).
 */
export function encoderFromTables(
  file: TableFile,
  proto: SentencePieceProto,
  blocked: ReadonlySet<number>,
  verified: boolean,
): EncoderTables | undefined {
  if (!sameBlocked(file.meta.blocked, blocked)) return undefined;
  return encoderTablesFrom(file, proto.types.length, true, verified);
}
