// A hand-written reader for SentencePiece's ModelProto (sentencepiece_model.proto, proto2).
// Only the fields the encoder/decoder need are kept; every other field is skipped by wire
// type. Defaults are the proto2 defaults of that file (add_dummy_prefix, remove_extra_
// whitespaces and escape_whitespaces are TRUE when absent; unk/bos/eos/pad = 0/1/2/-1).
//
// Every problem is a TokenizerError("bad-tokenizer-file") naming the file, the field and the
// byte offset, because a truncated download is the usual cause.

import { TokenizerError } from "../../errors.ts";
import { HASH_MULTIPLIER, PieceIndex } from "./piece-index.ts";

/** ModelProto.SentencePiece.Type. */
export const PieceType = {
  Normal: 1,
  Unknown: 2,
  Control: 3,
  UserDefined: 4,
  Unused: 5,
  Byte: 6,
} as const;
export type PieceType = (typeof PieceType)[keyof typeof PieceType];

const PIECE_TYPE_NAMES = ["", "NORMAL", "UNKNOWN", "CONTROL", "USER_DEFINED", "UNUSED", "BYTE"] as const;

/** TrainerSpec.ModelType. */
export const ModelType = { Unigram: 1, Bpe: 2, Word: 3, Char: 4 } as const;
const MODEL_TYPE_NAMES = ["", "UNIGRAM", "BPE", "WORD", "CHAR"] as const;

export interface TrainerSpec {
  readonly modelType: number;
  readonly vocabSize: number;
  readonly byteFallback: boolean;
  readonly splitDigits: boolean;
  readonly treatWhitespaceAsSuffix: boolean;
  readonly allowWhitespaceOnlyPieces: boolean;
  readonly unkId: number;
  readonly bosId: number;
  readonly eosId: number;
  readonly padId: number;
  readonly unkPiece: string;
  readonly bosPiece: string;
  readonly eosPiece: string;
  readonly padPiece: string;
  /** Decoded text of the UNKNOWN piece (default " ⁇ "). */
  readonly unkSurface: string;
}

export interface NormalizerSpec {
  readonly name: string;
  /** Length in bytes of precompiled_charsmap (0 = identity). */
  readonly precompiledCharsmapLength: number;
  readonly addDummyPrefix: boolean;
  readonly removeExtraWhitespaces: boolean;
  readonly escapeWhitespaces: boolean;
}

export interface SentencePieceProto {
  /**
   * Every piece string. From a table file this is built on first access (model-tables.ts):
   * load-time and per-ID code uses pieceAt instead, and the piece count is types.length.
   */
  readonly pieces: readonly string[];
  /** pieces[id] without building the whole list; undefined out of range. */
  pieceAt(id: number): string | undefined;
  /** float32 scores, as stored. */
  readonly scores: Float32Array;
  /** PieceType per piece. */
  readonly types: Uint8Array;
  readonly trainer: TrainerSpec;
  readonly normalizer: NormalizerSpec;
  /** The denormalizer spec, when present. */
  readonly denormalizer: NormalizerSpec | undefined;
  /** Exact piece -> first id index over `pieces` (see piece-index.ts), built once here. */
  readonly index: PieceIndex;
}

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_SGROUP = 3;
const WIRE_EGROUP = 4;
const WIRE_I32 = 5;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A cursor over one message's bytes [pos, end). */
class Reader {
  pos: number;
  /** Element index shown after `where` in messages (-1: none); avoids a string per piece. */
  index = -1;
  constructor(
    readonly buf: Uint8Array,
    readonly view: DataView,
    start: number,
    public end: number,
    readonly file: string,
    public where: string,
  ) {
    this.pos = start;
  }

  fail(what: string, at: number = this.pos): never {
    const where = this.index >= 0 ? `${this.where}[${this.index}]` : this.where;
    throw new TokenizerError(
      "bad-tokenizer-file",
      `${this.file}: not a valid SentencePiece model: ${what} (in ${where}, byte offset ${at})`,
      { file: this.file, field: where, position: at },
    );
  }

  /** A varint, truncated to its low 32 bits as a signed int32 (proto int32/enum/bool semantics). */
  varint(): number {
    const start = this.pos;
    let result = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) this.fail("truncated varint", start);
      const b = this.buf[this.pos++]!;
      if (i < 5) result |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) return result | 0;
    }
    return this.fail("varint longer than 10 bytes", start);
  }

  /** A tag as field << 3 | wire (a number, not an object: one per piece field on 92k pieces). */
  tag(): number {
    const at = this.pos;
    const t = this.varint() >>> 0;
    if (t >>> 3 === 0) this.fail("field number 0", at);
    return t;
  }

  /** The [start, end) of a length-delimited field's payload. */
  lengthDelimited(): [number, number] {
    const at = this.pos;
    const len = this.varint();
    if (len < 0 || len > this.end - this.pos) this.fail(`length ${len >>> 0} past end of message`, at);
    const start = this.pos;
    this.pos += len;
    return [start, this.pos];
  }

  string(): string {
    const [s, e] = this.lengthDelimited();
    try {
      return utf8.decode(this.buf.subarray(s, e));
    } catch {
      return this.fail("string is not valid UTF-8", s);
    }
  }

  float32(): number {
    if (this.end - this.pos < 4) this.fail("truncated fixed32");
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  skip(wire: number, field: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_I64:
        if (this.end - this.pos < 8) this.fail(`truncated fixed64 field ${field}`);
        this.pos += 8;
        return;
      case WIRE_LEN:
        this.lengthDelimited();
        return;
      case WIRE_I32:
        if (this.end - this.pos < 4) this.fail(`truncated fixed32 field ${field}`);
        this.pos += 4;
        return;
      case WIRE_SGROUP: {
        // Deprecated groups: skip nested fields up to the matching end-group tag.
        for (;;) {
          if (this.pos >= this.end) this.fail(`unterminated group field ${field}`);
          const t = this.tag();
          if ((t & 7) === WIRE_EGROUP) {
            if (t >>> 3 !== field) this.fail(`mismatched end-group for field ${field}`);
            return;
          }
          this.skip(t & 7, t >>> 3);
        }
      }
      default:
        this.fail(`field ${field} has invalid wire type ${wire}`);
    }
  }

  expect(wire: number, want: number, name: string): boolean {
    if (wire === want) return true;
    this.fail(`field ${name} has wire type ${wire}, expected ${want}`);
  }

  sub(where: string): Reader {
    const [s, e] = this.lengthDelimited();
    return new Reader(this.buf, this.view, s, e, this.file, where);
  }
}

/**
 * The piece table as read: per piece its byte range in the file, UTF-16 length, score and
 * type, in growable typed arrays, every piece string decoded by ONE TextDecoder call (no
 * object, sub-reader or call per piece).
 */
class PieceTable {
  count = 0;
  start = new Int32Array(1024);
  end = new Int32Array(1024);
  /** hashRange() of the piece string (piece-index.ts), computed from the bytes while checking them. */
  hashes = new Int32Array(1024);
  /** UTF-16 length of the piece string (equal to its byte length exactly when it is ASCII). */
  units = new Int32Array(1024);
  scores = new Float32Array(1024);
  types = new Uint8Array(1024);

  push(start: number, end: number, hash: number, units: number, score: number, type: number): void {
    if (this.count === this.start.length) {
      // A module-level grow(), one call target for every reader.
      const cap = this.count * 2;
      this.start = grow(this.start, new Int32Array(cap));
      this.end = grow(this.end, new Int32Array(cap));
      this.hashes = grow(this.hashes, new Int32Array(cap));
      this.units = grow(this.units, new Int32Array(cap));
      this.scores = grow(this.scores, new Float32Array(cap));
      this.types = grow(this.types, new Uint8Array(cap));
    }
    const i = this.count++;
    this.start[i] = start;
    this.end[i] = end;
    this.hashes[i] = hash;
    this.units[i] = units;
    this.scores[i] = score;
    this.types[i] = type;
  }

  /**
   * The piece strings without Buffer: the ASCII pieces' bytes copied end to end and decoded by
   * ONE TextDecoder call (a one-byte string), the other pieces likewise (a two-byte string),
   * then each piece sliced out by its UTF-16 length (known from scanUtf8). Runtime-neutral (no
   * Buffer); two native decodes in all instead of one call per piece. ASCII pieces stay
   * one-byte strings (slices of a two-byte parent would not).
   */
  strings(buf: Uint8Array): string[] {
    const n = this.count;
    const { start, end, units } = this;
    let asciiBytes = 0;
    let otherBytes = 0;
    for (let i = 0; i < n; i++) {
      const len = end[i]! - start[i]!;
      if (units[i] === len) asciiBytes += len;
      else otherBytes += len;
    }
    const ascii = new Uint8Array(asciiBytes);
    const other = new Uint8Array(otherBytes);
    let a = 0;
    let o = 0;
    for (let i = 0; i < n; i++) {
      const s = start[i]!;
      const e = end[i]!;
      if (units[i] === e - s) {
        ascii.set(buf.subarray(s, e), a);
        a += e - s;
      } else {
        other.set(buf.subarray(s, e), o);
        o += e - s;
      }
    }
    // Both were validated piece by piece (scanUtf8), so decoding the joins cannot fail.
    const asciiText = utf8.decode(ascii);
    const otherText = utf8.decode(other);
    const out: string[] = new Array(n);
    a = 0;
    o = 0;
    for (let i = 0; i < n; i++) {
      const u = units[i]!;
      if (u === end[i]! - start[i]!) {
        out[i] = asciiText.substring(a, a + u);
        a += u;
      } else {
        out[i] = otherText.substring(o, o + u);
        o += u;
      }
    }
    return out;
  }
}

function grow<T extends Int32Array | Float32Array | Uint8Array>(a: T, b: T): T {
  b.set(a);
  return b;
}

/**
 * Reads consecutive pieces at r.pos while they have the usual shape (single-byte tags for
 * fields 1-3, a one-byte string length, in bounds, valid UTF-8, a known type) in ONE loop with no
 * calls per field, because a cold load runs this loop mostly before it is optimized (the generic
 * Reader path makes a few method calls per field). Anything
 * else stops the loop at that piece, which the generic path then reads (and reports).
 */
function readPiecesFast(r: Reader, table: PieceTable): void {
  const buf = r.buf;
  const view = r.view;
  const end = r.end;
  let pos = r.pos;
  for (;;) {
    r.pos = pos;
    if (pos + 2 > end || buf[pos] !== 0x0a) return;
    const msgLen = buf[pos + 1]!;
    if (msgLen >= 0x80) return;
    const msgEnd = pos + 2 + msgLen;
    if (msgEnd > end) return;
    let p = pos + 2;
    let start = -1;
    let stop = -1;
    let hash = 0;
    let units = 0;
    let score = 0;
    let type = 1; // PieceType.Normal
    while (p < msgEnd) {
      const tag = buf[p]!;
      if (tag === 0x0a) {
        const len = buf[p + 1]!;
        if (len >= 0x80 || p + 2 + len > msgEnd) return;
        start = p + 2;
        stop = start + len;
        units = scanUtf8(buf, start, stop);
        if (units < 0) return;
        hash = scannedHash;
        p = stop;
      } else if (tag === 0x15) {
        if (p + 5 > msgEnd) return;
        score = view.getFloat32(p + 1, true);
        p += 5;
      } else if (tag === 0x18) {
        if (p + 2 > msgEnd) return;
        type = buf[p + 1]!;
        p += 2;
      } else return;
    }
    if (start < 0 || type < 1 || type > 6) return;
    table.push(start, stop, hash, units, score, type);
    pos = msgEnd;
  }
}

/** Reads one SentencePiece message [r.pos, end) into the table; `at` (for messages) is the offset of its length. */
function readPiece(r: Reader, end: number, index: number, table: PieceTable, at: number): void {
  const outerEnd = r.end;
  const outerWhere = r.where;
  r.end = end;
  r.where = "pieces";
  r.index = index;
  let pieceStart = -1;
  let pieceEnd = -1;
  let hash = 0;
  let units = 0;
  let score = 0;
  let type: number = PieceType.Normal;
  while (r.pos < end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && r.expect(wire, WIRE_LEN, "piece")) {
      [pieceStart, pieceEnd] = r.lengthDelimited();
      units = scanUtf8(r.buf, pieceStart, pieceEnd);
      if (units < 0) r.fail("string is not valid UTF-8", pieceStart);
      hash = scannedHash;
    } else if (field === 2 && r.expect(wire, WIRE_I32, "score")) score = r.float32();
    else if (field === 3 && r.expect(wire, WIRE_VARINT, "type")) type = r.varint();
    else r.skip(wire, field);
  }
  r.end = outerEnd;
  r.where = outerWhere;
  r.index = -1;
  if (pieceStart < 0) r.fail(`pieces[${index}] has no piece string`, at);
  if (type < 1 || type > 6) r.fail(`pieces[${index}] has unknown type ${type}`, at);
  table.push(pieceStart, pieceEnd, hash, units, score, type);
}

/**
 * A scalar field of a spec message, as data: its proto name, how it is read (int / bool: a
 * varint; string: UTF-8; length: a byte string of which only the length is kept) and the key it sets.
 */
type ScalarField<T> = readonly [name: string, kind: "int" | "bool" | "string" | "length", key: keyof T];

const TRAINER_FIELDS: ReadonlyMap<number, ScalarField<TrainerSpec>> = new Map([
  [3, ["model_type", "int", "modelType"]],
  [4, ["vocab_size", "int", "vocabSize"]],
  [24, ["treat_whitespace_as_suffix", "bool", "treatWhitespaceAsSuffix"]],
  [25, ["split_digits", "bool", "splitDigits"]],
  [26, ["allow_whitespace_only_pieces", "bool", "allowWhitespaceOnlyPieces"]],
  [35, ["byte_fallback", "bool", "byteFallback"]],
  [40, ["unk_id", "int", "unkId"]],
  [41, ["bos_id", "int", "bosId"]],
  [42, ["eos_id", "int", "eosId"]],
  [43, ["pad_id", "int", "padId"]],
  [44, ["unk_surface", "string", "unkSurface"]],
  [45, ["unk_piece", "string", "unkPiece"]],
  [46, ["bos_piece", "string", "bosPiece"]],
  [47, ["eos_piece", "string", "eosPiece"]],
  [48, ["pad_piece", "string", "padPiece"]],
] as const);

const TRAINER_DEFAULTS: TrainerSpec = {
  modelType: ModelType.Unigram as number,
  vocabSize: 8000,
  byteFallback: false,
  splitDigits: false,
  treatWhitespaceAsSuffix: false,
  allowWhitespaceOnlyPieces: false,
  unkId: 0,
  bosId: 1,
  eosId: 2,
  padId: -1,
  unkPiece: "<unk>",
  bosPiece: "<s>",
  eosPiece: "</s>",
  padPiece: "<pad>",
  unkSurface: " \u2047 ",
};

const NORMALIZER_FIELDS: ReadonlyMap<number, ScalarField<NormalizerSpec>> = new Map([
  [1, ["name", "string", "name"]],
  [2, ["precompiled_charsmap", "length", "precompiledCharsmapLength"]],
  [3, ["add_dummy_prefix", "bool", "addDummyPrefix"]],
  [4, ["remove_extra_whitespaces", "bool", "removeExtraWhitespaces"]],
  [5, ["escape_whitespaces", "bool", "escapeWhitespaces"]],
] as const);

const NORMALIZER_DEFAULTS: NormalizerSpec = {
  name: "",
  precompiledCharsmapLength: 0,
  addDummyPrefix: true,
  removeExtraWhitespaces: true,
  escapeWhitespaces: true,
};

/**
 * A spec message of scalar fields over `defaults`; other fields are skipped. A message field that
 * occurs twice is merged (proto2 semantics): `prev` holds the first.
 */
function readScalars<T extends object>(
  r: Reader,
  fields: ReadonlyMap<number, ScalarField<T>>,
  defaults: T,
  prev: T | undefined,
): T {
  const out: { [key: string]: unknown } = {};
  Object.assign(out, defaults, prev);
  while (r.pos < r.end) {
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    const f = fields.get(field);
    if (f === undefined) {
      r.skip(wire, field);
      continue;
    }
    const [name, kind, key] = f;
    r.expect(wire, kind === "int" || kind === "bool" ? WIRE_VARINT : WIRE_LEN, name);
    if (kind === "int") out[key as string] = r.varint();
    else if (kind === "bool") out[key as string] = r.varint() !== 0;
    else if (kind === "string") out[key as string] = r.string();
    else {
      const [s, e] = r.lengthDelimited();
      out[key as string] = e - s;
    }
  }
  return out as T;
}

const readTrainer = (r: Reader, prev?: TrainerSpec): TrainerSpec =>
  readScalars(r, TRAINER_FIELDS, TRAINER_DEFAULTS, prev);

const readNormalizer = (r: Reader, prev?: NormalizerSpec): NormalizerSpec =>
  readScalars(r, NORMALIZER_FIELDS, NORMALIZER_DEFAULTS, prev);

/** Parses the wire format only (no semantic checks). */
function parse(bytes: Uint8Array, file: string): SentencePieceProto {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r = new Reader(bytes, view, 0, bytes.length, file, "ModelProto");
  const table = new PieceTable();
  let trainer: TrainerSpec | undefined;
  let normalizer: NormalizerSpec | undefined;
  let denormalizer: NormalizerSpec | undefined;
  while (r.pos < r.end) {
    const tagAt = r.pos;
    const tag = r.tag();
    const field = tag >>> 3;
    const wire = tag & 7;
    switch (field) {
      case 1: {
        if (tag === 0x0a) {
          r.pos = tagAt;
          readPiecesFast(r, table);
          if (r.pos !== tagAt) break;
          r.pos = tagAt + 1;
        }
        r.expect(wire, WIRE_LEN, "pieces");
        const at = r.pos;
        const [s, e] = r.lengthDelimited();
        r.pos = s;
        readPiece(r, e, table.count, table, at);
        break;
      }
      case 2:
        r.expect(wire, WIRE_LEN, "trainer_spec");
        trainer = readTrainer(r.sub("trainer_spec"), trainer);
        break;
      case 3:
        r.expect(wire, WIRE_LEN, "normalizer_spec");
        normalizer = readNormalizer(r.sub("normalizer_spec"), normalizer);
        break;
      case 5:
        r.expect(wire, WIRE_LEN, "denormalizer_spec");
        denormalizer = readNormalizer(r.sub("denormalizer_spec"), denormalizer);
        break;
      default:
        r.skip(wire, field);
    }
  }
  const pieces = table.strings(bytes);
  return {
    pieces,
    pieceAt: (id: number): string | undefined => pieces[id],
    scores: table.scores.slice(0, table.count),
    types: table.types.slice(0, table.count),
    trainer: trainer ?? readTrainer(new Reader(bytes, view, 0, 0, file, "trainer_spec")),
    normalizer: normalizer ?? readNormalizer(new Reader(bytes, view, 0, 0, file, "normalizer_spec")),
    denormalizer,
    index: new PieceIndex(pieces, table.hashes),
  };
}

function bad(file: string, field: string, what: string): never {
  throw new TokenizerError("bad-tokenizer-file", `${file}: ${what}`, { file, field });
}

/**
 * Reads and validates a SentencePiece BPE model. Checks what the C++ library checks on load
 * (model_interface.cc InitializePieces) plus what we do not implement.
 */
export function readModelProto(bytes: Uint8Array, file: string): SentencePieceProto {
  if (bytes.length === 0) bad(file, "ModelProto", "empty file, not a SentencePiece model");
  const proto = parse(bytes, file);
  const { pieces, types, trainer, normalizer, denormalizer } = proto;
  if (pieces.length === 0) bad(file, "pieces", "empty piece table, not a SentencePiece model");
  if (trainer.modelType !== ModelType.Bpe) {
    const name = MODEL_TYPE_NAMES[trainer.modelType] ?? `#${trainer.modelType}`;
    bad(file, "trainer_spec.model_type", `model type ${name} is not supported, only BPE`);
  }
  if (normalizer.precompiledCharsmapLength > 0) {
    bad(
      file,
      "normalizer_spec.precompiled_charsmap",
      `normalizer "${normalizer.name}" has a precompiled charsmap (${normalizer.precompiledCharsmapLength} bytes); only the identity normalizer is implemented`,
    );
  }
  if (denormalizer !== undefined && denormalizer.precompiledCharsmapLength > 0) {
    bad(file, "denormalizer_spec.precompiled_charsmap", "a denormalizer charsmap is not implemented");
  }
  // Duplicates: the C++ library keeps two maps (normal-ish and reserved pieces); a string may occur
  // once in each. The index lists equal-string pairs, so no Map of every piece string is built.
  const isNormal = (type: number): boolean =>
    type === PieceType.Normal || type === PieceType.UserDefined || type === PieceType.Unused;
  // A flag array, and the "pieces[i]" name only on error (nothing per piece on the common path).
  const dupOf = new Uint8Array(pieces.length);
  const dups = proto.index.duplicates;
  for (let k = 0; k < dups.length; k += 2) {
    if (isNormal(types[dups[k]!]!) === isNormal(types[dups[k + 1]!]!)) dupOf[dups[k + 1]!] = 1;
  }
  const bytesSeen = new Uint8Array(256);
  let unk = -1;
  for (let i = 0; i < pieces.length; i++) {
    const type = types[i]!;
    if (pieces[i]!.length !== 0 && dupOf[i] === 0 && type !== PieceType.Unknown && type !== PieceType.Byte)
      continue;
    const piece = pieces[i]!;
    const where = `pieces[${i}]`;
    if (piece.length === 0) bad(file, where, `${where} is an empty piece`);
    if (dupOf[i] === 1) bad(file, where, `${where} ${JSON.stringify(piece)} is already defined`);
    if (type === PieceType.Unknown) {
      if (unk >= 0) bad(file, where, `${where}: a second UNKNOWN piece (first is ${unk})`);
      unk = i;
    }
    if (type === PieceType.Byte) {
      if (!trainer.byteFallback) bad(file, where, `${where} is a BYTE piece but byte_fallback is false`);
      const b = pieceToByte(piece);
      if (b < 0) bad(file, where, `${where} ${JSON.stringify(piece)} is not a valid BYTE piece`);
      bytesSeen[b] = 1;
    }
  }
  if (unk < 0) bad(file, "pieces", "no UNKNOWN piece");
  if (trainer.byteFallback && bytesSeen.includes(0)) {
    bad(file, "pieces", "byte_fallback is true but there are not 256 BYTE pieces");
  }
  return proto;
}

/** "<0x41>" -> 0x41; anything else -> -1 (upper-case hex, exactly as ByteToPiece writes it). */
export function pieceToByte(piece: string): number {
  if (piece.length !== 6 || !piece.startsWith("<0x") || piece[5] !== ">") return -1;
  const hex = piece.slice(3, 5);
  if (!/^[0-9A-F]{2}$/.test(hex)) return -1;
  return Number.parseInt(hex, 16);
}

export function pieceTypeName(type: number): string {
  return PIECE_TYPE_NAMES[type] ?? `#${type}`;
}

/** hashRange() (piece-index.ts) of the string scanUtf8 last checked (a module variable: no object per call). */
let scannedHash = 0;

/**
 * UTF-16 length of the UTF-8 bytes buf[start, end), or -1 when they are not valid UTF-8 by the
 * rules of TextDecoder({ fatal: true }) (no overlongs, surrogates, > U+10FFFF or truncation).
 * Also leaves the string's piece-index hash in scannedHash, so no pass over the strings is needed.
 */
function scanUtf8(buf: Uint8Array, start: number, end: number): number {
  let units = 0;
  let h = 0;
  let i = start;
  while (i < end) {
    const b = buf[i]!;
    if (b < 0x80) {
      h = (Math.imul(h, HASH_MULTIPLIER) + b) | 0;
      i++;
      units++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    let cp: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      cp = b & 0x0f;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      cp = b & 0x07;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return -1;
    if (i + need >= end) return -1;
    const second = buf[i + 1]!;
    if (second < lo || second > hi) return -1;
    cp = (cp << 6) | (second & 0x3f);
    for (let k = 2; k <= need; k++) {
      const c = buf[i + k]!;
      if (c < 0x80 || c > 0xbf) return -1;
      cp = (cp << 6) | (c & 0x3f);
    }
    i += need + 1;
    if (cp >= 0x10000) {
      h = (Math.imul(h, HASH_MULTIPLIER) + (0xd800 + ((cp - 0x10000) >> 10))) | 0;
      h = (Math.imul(h, HASH_MULTIPLIER) + (0xdc00 + ((cp - 0x10000) & 0x3ff))) | 0;
      units += 2;
    } else {
      h = (Math.imul(h, HASH_MULTIPLIER) + cp) | 0;
      units++;
    }
  }
  scannedHash = h;
  return units;
}
