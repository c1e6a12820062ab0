// A SentencePiece BPE .model file as a TextModel: load, validate, and wire the encoder,
// the one-shot decoder and the stream decoder's table together. Built once, immutable.

import { TokenizerError } from "../../errors.ts";
import { type ModelTables, openTables, registerTableExporter } from "../tables/model-tables.ts";
import { writeTableFile } from "../tables/table-file.ts";
import type { DecodeTable, TextModel } from "../text-model.ts";
import { BpeEncoder, effectiveTypes } from "./bpe-encoder.ts";
import { buildDecodeData, type DecodeData, decodeIds } from "./decode.ts";
import { buildDecodeTable } from "./decode-table.ts";
import type { EncoderTables } from "./encoder-tables.ts";
import { PieceType, readModelProto, type SentencePieceProto } from "./model-proto.ts";
import { encoderFromTables, FAMILY, protoFromTables, sentencePieceTableContents } from "./model-tables.ts";
import { utf8Length } from "./utf8-length.ts";

export interface SentencePieceModelOptions {
  /** Shown in errors (the path the bytes came from). */
  readonly file: string;
  /** IDs that behave as CONTROL pieces: never matched literally, never produced by a merge, never returned. */
  readonly blocked?: ReadonlySet<number>;
  /**
   * Tables of an earlier load of the same file (../tables/model-tables.ts): used when they
   * were exported for this content and these blocked IDs, else everything is built from `bytes`.
   */
  readonly tables?: ModelTables;
}

export interface SentencePieceModel extends TextModel {
  readonly family: "sentencepiece";
  /** The piece type stored in the file (blocking does not change it), or undefined out of range. */
  pieceType(id: number): PieceType | undefined;
  /** The score stored in the file, or undefined out of range. */
  pieceScore(id: number): number | undefined;
  readonly addDummyPrefix: boolean;
  /** As SentencePieceProcessor: the id of unk/bos/eos piece, -1 when absent or of the wrong type. */
  readonly unkId: number;
  readonly bosId: number;
  readonly eosId: number;
  /** The parsed file. */
  readonly proto: SentencePieceProto;
}

export function loadSentencePieceModel(
  bytes: Uint8Array,
  options: SentencePieceModelOptions,
): SentencePieceModel {
  const stored = openTables(options.tables, FAMILY);
  const verified = options.tables?.verified === true;
  const storedProto = stored === undefined ? undefined : protoFromTables(stored, verified);
  const proto = storedProto ?? readModelProto(bytes, options.file);
  const blocked: ReadonlySet<number> = new Set(options.blocked ?? []);
  const n = proto.types.length;
  for (const id of blocked) {
    const type = proto.types[id];
    // Unknown text is encoded with these: blocking them would make some text unencodable.
    if ((type === PieceType.Unknown && !proto.trainer.byteFallback) || type === PieceType.Byte) {
      throw new TokenizerError(
        "invalid-argument",
        `${options.file}: id ${id} (${JSON.stringify(proto.pieceAt(id))}) cannot be blocked: unknown text is encoded with it`,
        { file: options.file, index: id },
      );
    }
  }
  // pieceToId goes through proto.index (first id of a string) instead of a third Map of every
  // piece; only the few USER_DEFINED pieces get a Map.
  const literalPieces = new Map<string, number>();
  // Found by native indexOf (no JS loop over every piece on a cached load).
  for (
    let i = proto.types.indexOf(PieceType.UserDefined);
    i !== -1;
    i = proto.types.indexOf(PieceType.UserDefined, i + 1)
  )
    literalPieces.set(proto.pieceAt(i)!, i);
  const pieceId = (piece: string): number | undefined => {
    const id = proto.index.get(piece);
    return id < 0 ? undefined : id;
  };
  const special = (piece: string, type: number): number => {
    const id = pieceId(piece);
    return id !== undefined && proto.types[id] === type ? id : -1;
  };
  // From a table file built for these blocked IDs: the encoder's tables, views of the file
  // (model-tables.ts checks them). The decode side is never stored: it is cheap to make lazily.
  const storedEncoder =
    stored === undefined || storedProto === undefined
      ? undefined
      : encoderFromTables(stored, proto, blocked, verified);
  options.tables?.report?.(storedEncoder !== undefined);
  // The encoder (its pair table is most of a cold load from the .model) is
  // built on the first encode(): a decode-only user (the stream decoder, `chatwire decode`)
  // never pays for it.
  let encoderTables: EncoderTables | undefined = storedEncoder;
  let encoder: BpeEncoder | undefined;
  // Effective types (blocked ids CONTROL): tokenByteLength (the chat builder asks per emitted
  // ID) and the decode data.
  let types: Uint8Array | undefined;
  const effective = (): Uint8Array => {
    types ??= effectiveTypes(proto, blocked);
    return types;
  };
  // Built on first use (decode() or the stream decoder's table); texts per ID (piece-texts.ts).
  let decodeData: DecodeData | undefined;
  let decodeTable: DecodeTable | undefined;
  const data = (): DecodeData => {
    decodeData ??= buildDecodeData(proto, effective());
    return decodeData;
  };
  const theEncoder = (): BpeEncoder => {
    encoder ??= new BpeEncoder(proto, { blocked }, encoderTables);
    encoderTables = encoder.tables;
    return encoder;
  };
  const table = (): DecodeTable => {
    decodeTable ??= buildDecodeTable(data());
    return decodeTable;
  };

  // The chat builder may skip measuring a run when the IDs' bytes are the text's UTF-8 after a
  // known lead: true for the identity normalizer without remove_extra_whitespaces and with byte
  // fallback (no <unk> for unknown characters), "▁" of add_dummy_prefix being the one leading
  // byte. (A literal U+2581 in the text decodes as a space: the builder measures any prefix
  // segment from U+0300 on anyway.)
  const { normalizer, trainer } = proto;
  const plain =
    normalizer.precompiledCharsmapLength === 0 && !normalizer.removeExtraWhitespaces && trainer.byteFallback;
  const exact = plain
    ? {
        normalization: "none" as const,
        leadingOffsetBytes: normalizer.addDummyPrefix && !trainer.treatWhitespaceAsSuffix ? 1 : 0,
      }
    : {};

  const model = Object.freeze({
    ...exact,
    family: "sentencepiece",
    vocabSize: n,
    blocked,
    literalPieces,
    get decodeTable(): DecodeTable {
      return table();
    },
    proto,
    addDummyPrefix: proto.normalizer.addDummyPrefix,
    unkId: special(proto.trainer.unkPiece, PieceType.Unknown),
    bosId: special(proto.trainer.bosPiece, PieceType.Control),
    eosId: special(proto.trainer.eosPiece, PieceType.Control),
    encode: (text: string): number[] => theEncoder().encode(text),
    encodeInto: (text: string, out: number[]): void => theEncoder().encodeInto(text, out),
    encodeAt: (text: string, out: number[], at: number): number => theEncoder().encodeAt(text, out, at),
    cutsAfterNewline: (text: string): boolean => theEncoder().cutsAfterNewline(text),
    decode: (ids: readonly number[]): string => {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        if (!Number.isInteger(id) || id < 0 || id >= n) {
          throw new TokenizerError("invalid-argument", `id ${id} at index ${i} is outside [0, ${n})`, {
            file: options.file,
            index: i,
          });
        }
      }
      return decodeIds(data(), ids);
    },
    tokenByteLength: (id: number): number => {
      const type = effective()[id];
      if (type === undefined || type === PieceType.Control) return 0;
      if (type === PieceType.Byte) return 1;
      if (type === PieceType.Unknown) return utf8Length(proto.trainer.unkSurface, false);
      return utf8Length(proto.pieceAt(id)!, true);
    },
    idToPiece: (id: number): string | undefined => proto.pieceAt(id),
    pieceToId: pieceId,
    pieceType: (id: number): PieceType | undefined => proto.types[id] as PieceType | undefined,
    pieceScore: (id: number): number | undefined => proto.scores[id],
  } satisfies SentencePieceModel);
  registerTableExporter(model, (source) =>
    writeTableFile(sentencePieceTableContents(source, proto, blocked, theEncoder().tables)),
  );
  return model;
}
