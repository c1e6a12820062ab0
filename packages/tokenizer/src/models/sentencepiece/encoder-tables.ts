// The SentencePiece encoder's derived tables (symbol keys, reserved characters, the
// USER_DEFINED trie, the segmentation marks, the pair table): built from the proto and the
// blocked IDs (buildEncoderTables), or taken from a table file of an earlier load
// (encoderTablesFrom, which checks every length and, unless the bytes are verified, every index
// it would follow).
//
// Load time: classes are Uint8Arrays filled by small single-purpose loops (cheap while still
// cold), and strings are found through proto.index (no Map of piece strings, no slices; see
// pair-table.ts). From a table file nothing is derived: every table, the pair table included, is
// a view of the file's buffer (rebuilding into fresh arrays would cost more than reading).

import type { TableArray, TableFile } from "../tables/table-file.ts";
import { PieceType, type SentencePieceProto } from "./model-proto.ts";
import { buildPairTable } from "./pair-table.ts";

const SPACE_MARK = "\u2581";

export interface EncoderTables {
  /** 1 where the (effective) type is UNUSED: such merge results are re-split (resegment). */
  readonly unused: Uint8Array;
  /** Output id per mergeable piece key (PieceToId looks at the reserved map first). */
  readonly outId: Int32Array;
  /** Key of each BMP code unit as a one-character symbol. */
  readonly bmpKey: Int32Array;
  /** Mergeable one-character pieces outside the BMP: [code point, id] pairs. */
  readonly astral: Int32Array;
  /** Non-mergeable, non-blocked one-character pieces (CONTROL/UNKNOWN/BYTE): [code point, id] pairs. */
  readonly reservedChar: Int32Array;
  /** Byte -> its <0xXX> piece id (the unknown id when that piece is blocked, -1 when absent). */
  readonly byteId: Int32Array;
  /** USER_DEFINED literal matcher: first-unit filter, trie edges [parent, unit, child], id per node. */
  readonly literalFirst: Uint8Array;
  readonly trie: Int32Array;
  readonly trieId: Int32Array;
  /**
   * Segmentation: markAfter[cu] = 1 when cu precedes SPACE_MARK inside some mergeable or
   * USER_DEFINED piece; undefined = this model is encoded as one whole text.
   */
  readonly markAfter: Uint8Array | undefined;
  /**
   * newlineBefore[cu] = 1 when cu follows "\n" inside some mergeable or USER_DEFINED piece
   * (bpe-encoder.ts cutsAfterNewline); undefined exactly when markAfter is.
   */
  readonly newlineBefore: Uint8Array | undefined;
  /** Pair table (pair-table.ts): left key per slot (-1 = empty), right key, merged id. */
  readonly pairLeft: Int32Array;
  readonly pairRight: Int32Array;
  readonly pairMerged: Int32Array;
}

/**
 * Effective piece type after blocking: blocked pieces become CONTROL, except the UNKNOWN piece,
 * which stays UNKNOWN (it decodes to unk_surface; with byte_fallback encode never returns it).
 */
export function effectiveTypes(proto: SentencePieceProto, blocked: ReadonlySet<number>): Uint8Array {
  const types = proto.types.slice();
  for (const id of blocked) {
    if (id >= 0 && id < types.length && types[id] !== PieceType.Unknown) types[id] = PieceType.Control;
  }
  return types;
}

export function buildEncoderTables(
  proto: SentencePieceProto,
  options: { readonly blocked?: ReadonlySet<number>; readonly segment?: boolean },
): EncoderTables {
  const blocked = options.blocked ?? new Set<number>();
  const types = effectiveTypes(proto, blocked);
  const { pieces } = proto;
  const n = pieces.length;
  const unkId = proto.types.indexOf(PieceType.Unknown);
  const mergeable = new Uint8Array(n);
  /** 1 = a non-mergeable, non-blocked piece (PieceToId's reserved map). */
  const reservedMask = new Uint8Array(n);
  const blockedMask = new Uint8Array(n);
  for (const id of blocked) if (id >= 0 && id < n) blockedMask[id] = 1;
  const unused = new Uint8Array(n);
  const outId = new Int32Array(n);
  classify(types, blockedMask, mergeable, reservedMask, unused, outId);
  const hasUnused = unused.includes(1);
  const byteId = new Int32Array(256).fill(-1);
  const bmpKey = new Int32Array(0x10000);
  for (let cu = 0; cu < 0x10000; cu++) bmpKey[cu] = n + cu;
  const astral: number[] = [];
  const reservedChar: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = pieces[i]!;
    if (p.length > 2 && proto.types[i] !== PieceType.Byte) continue;
    if (proto.types[i] === PieceType.Byte) {
      const b = Number.parseInt(p.slice(3, 5), 16);
      byteId[b] = blockedMask[i] === 1 ? unkId : i;
    }
    const cp = singleCodePoint(p);
    if (cp < 0) continue;
    if (mergeable[i] === 1) {
      if (cp < 0x10000) bmpKey[cp] = i;
      else astral.push(cp, i);
    } else if (reservedMask[i] === 1) reservedChar.push(cp, i);
  }
  // A mergeable piece whose string is also a reserved piece outputs the reserved id
  // (PieceToId looks at the reserved map first). Equal strings are listed by the index.
  const dups = proto.index.duplicates;
  for (let k = 0; k < dups.length; k += 2) {
    const a = dups[k]!;
    const b = dups[k + 1]!;
    if (mergeable[a] === 1 && reservedMask[b] === 1) outId[a] = b;
    else if (mergeable[b] === 1 && reservedMask[a] === 1) outId[b] = a;
  }

  // USER_DEFINED trie.
  const literalFirst = new Uint8Array(0x10000);
  const children: Map<number, number>[] = [new Map()];
  const trie: number[] = [];
  const trieIds: number[] = [-1];
  for (let i = 0; i < n; i++) {
    if (types[i] !== PieceType.UserDefined) continue;
    const p = pieces[i]!;
    literalFirst[p.charCodeAt(0)] = 1;
    let node = 0;
    for (let k = 0; k < p.length; k++) {
      const cu = p.charCodeAt(k);
      const c = children[node]!;
      let child = c.get(cu);
      if (child === undefined) {
        child = children.length;
        children.push(new Map());
        trieIds.push(-1);
        c.set(cu, child);
        trie.push(node, cu, child);
      }
      node = child;
    }
    trieIds[node] = i;
  }

  const markAfter = hasUnused || options.segment === false ? undefined : markPredecessors(pieces, mergeable);
  const newlineBefore = markAfter === undefined ? undefined : markFollowers(pieces, mergeable, "\n");
  const pairs = buildPairTable(pieces, mergeable, proto.index, bmpKey);
  return {
    unused,
    outId,
    bmpKey,
    astral: Int32Array.from(astral),
    reservedChar: Int32Array.from(reservedChar),
    byteId,
    literalFirst,
    trie: Int32Array.from(trie),
    trieId: Int32Array.from(trieIds),
    markAfter,
    newlineBefore,
    pairLeft: pairs.left,
    pairRight: pairs.right,
    pairMerged: pairs.merged,
  };
}

/** Sections of a table file (prefix "enc."), for encoderTablesFrom. */
export function encoderTableArrays(t: EncoderTables): { [name: string]: TableArray } {
  const out: { [name: string]: TableArray } = {
    "enc.unused": t.unused,
    "enc.outId": t.outId,
    "enc.bmpKey": t.bmpKey,
    "enc.astral": t.astral,
    "enc.reservedChar": t.reservedChar,
    "enc.byteId": t.byteId,
    "enc.literalFirst": t.literalFirst,
    "enc.trie": t.trie,
    "enc.trieId": t.trieId,
    "enc.pairLeft": t.pairLeft,
    "enc.pairRight": t.pairRight,
    "enc.pairMerged": t.pairMerged,
  };
  if (t.markAfter !== undefined) out["enc.markAfter"] = t.markAfter;
  if (t.newlineBefore !== undefined) out["enc.newlineBefore"] = t.newlineBefore;
  return out;
}

/**
 * The encoder tables stored in `file` for a model of `n` pieces, or undefined when any is
 * missing or has the wrong shape, or (unless `verified`: bytes our exporter wrote, checked by
 * the caller) when any value would index outside its table or the pair table is more than half
 * full (so a damaged file cannot crash, loop or slow the encoder; it is rebuilt instead).
 * Every table is a view of the file, the pair table included (stored slot by slot: putting a
 * list of its filled slots back in place would be a cold loop plus fresh memory, more than
 * reading the empty slots costs). `segment` false: the file's marks are not used.
 */
export function encoderTablesFrom(
  file: TableFile,
  n: number,
  segment: boolean,
  verified: boolean,
): EncoderTables | undefined {
  const unused = file.array("enc.unused", "u8");
  const outId = file.array("enc.outId", "i32");
  const bmpKey = file.array("enc.bmpKey", "i32");
  const astral = file.array("enc.astral", "i32");
  const reservedChar = file.array("enc.reservedChar", "i32");
  const byteId = file.array("enc.byteId", "i32");
  const literalFirst = file.array("enc.literalFirst", "u8");
  const trie = file.array("enc.trie", "i32");
  const trieId = file.array("enc.trieId", "i32");
  const markAfter = file.array("enc.markAfter", "u8");
  const newlineBefore = file.array("enc.newlineBefore", "u8");
  const pairLeft = file.array("enc.pairLeft", "i32");
  const pairRight = file.array("enc.pairRight", "i32");
  const pairMerged = file.array("enc.pairMerged", "i32");
  if (
    unused === undefined ||
    outId === undefined ||
    bmpKey === undefined ||
    astral === undefined ||
    reservedChar === undefined ||
    byteId === undefined ||
    literalFirst === undefined ||
    trie === undefined ||
    trieId === undefined ||
    pairLeft === undefined ||
    pairRight === undefined ||
    pairMerged === undefined
  )
    return undefined;
  if (unused.length !== n || outId.length !== n || bmpKey.length !== 0x10000 || byteId.length !== 256)
    return undefined;
  if (literalFirst.length !== 0x10000 || (markAfter !== undefined && markAfter.length !== 0x10000))
    return undefined;
  // Both marks or neither (a file written before newlineBefore existed is rebuilt).
  if ((markAfter === undefined) !== (newlineBefore === undefined)) return undefined;
  if (newlineBefore !== undefined && newlineBefore.length !== 0x10000) return undefined;
  if (astral.length % 2 !== 0 || reservedChar.length % 2 !== 0 || trie.length % 3 !== 0) return undefined;
  const size = pairLeft.length;
  // A power of two (the probe mask), the three arrays alike, and an empty slot: every probe ends.
  if (size < 16 || (size & (size - 1)) !== 0 || pairRight.length !== size || pairMerged.length !== size)
    return undefined;
  if (!pairLeft.includes(-1)) return undefined;
  const hasUnused = unused.includes(1);
  if (hasUnused !== (markAfter === undefined) && segment) return undefined;
  // The small tables are always checked (the encoder's Maps and trie are built from them).
  if (!inIds(astral, 1, 2, 0, n) || !inIds(reservedChar, 1, 2, 0, n)) return undefined;
  if (!inIds(byteId, 0, 1, -1, n) || !inIds(trieId, 0, 1, -1, n)) return undefined;
  for (let k = 0; k < trie.length; k += 3) {
    if (trie[k]! < 0 || trie[k]! >= trieId.length || trie[k + 2]! <= 0 || trie[k + 2]! >= trieId.length)
      return undefined;
  }
  // Every id the encoder outputs, every key it starts from and every merge result: loops over
  // every piece, BMP unit and pair slot (cold; bodies kept to an unsigned compare or two).
  if (!verified && (!allIds(outId, n) || !bmpKeys(bmpKey, n) || !pairsFit(pairLeft, pairMerged, n)))
    return undefined;
  return {
    unused,
    outId,
    bmpKey,
    astral,
    reservedChar,
    byteId,
    literalFirst,
    trie,
    trieId,
    markAfter: segment ? markAfter : undefined,
    newlineBefore: segment ? newlineBefore : undefined,
    pairLeft,
    pairRight,
    pairMerged,
  };
}

/** Every a[from + step * i] in [min, n). */
function inIds(a: Int32Array, from: number, step: number, min: number, n: number): boolean {
  for (let k = from; k < a.length; k += step) {
    const v = a[k]!;
    if (v < min || v >= n) return false;
  }
  return true;
}

/** Every entry in [0, n). */
function allIds(a: Int32Array, n: number): boolean {
  for (let k = 0; k < a.length; k++) if (a[k]! >>> 0 >= n) return false;
  return true;
}

/** bmpKey[cu] is a piece id, or n + cu (the character itself). */
function bmpKeys(a: Int32Array, n: number): boolean {
  for (let k = 0; k < a.length; k++) {
    const v = a[k]!;
    if (v >>> 0 >= n && v !== n + k) return false;
  }
  return true;
}

/** Every filled slot's merged id in [0, n), and at most half the slots filled. */
function pairsFit(left: Int32Array, merged: Int32Array, n: number): boolean {
  let filled = 0;
  for (let s = 0; s < left.length; s++) {
    if (left[s] === -1) continue;
    filled++;
    if (merged[s]! >>> 0 >= n) return false;
  }
  return 2 * filled <= left.length;
}

/** Per piece: mergeable / reserved (non-mergeable, not blocked) / unused flags, outId = id. */
function classify(
  types: Uint8Array,
  blocked: Uint8Array,
  mergeable: Uint8Array,
  reserved: Uint8Array,
  unused: Uint8Array,
  outId: Int32Array,
): void {
  for (let i = 0; i < types.length; i++) {
    const t = types[i]!;
    outId[i] = i;
    // Mergeable: NORMAL, USER_DEFINED, UNUSED (the C++ library's non-reserved pieces).
    if (t === PieceType.Normal || t === PieceType.UserDefined || t === PieceType.Unused) mergeable[i] = 1;
    else if (blocked[i] === 0) reserved[i] = 1;
    if (t === PieceType.Unused) unused[i] = 1;
  }
}

/**
 * Code units that precede SPACE_MARK inside some mergeable (or USER_DEFINED) piece. A cut
 * before a SPACE_MARK preceded by any other unit cannot be straddled by a piece. (Models with
 * UNUSED pieces are not segmented: their re-split map is keyed per call by merge order.)
 */
function markPredecessors(pieces: readonly string[], mergeable: Uint8Array): Uint8Array {
  return markNeighbours(pieces, mergeable, SPACE_MARK, -1);
}

/**
 * Code units that follow `unit` inside some mergeable (or USER_DEFINED) piece. Text cut right
 * after `unit`, before any other code unit, cannot be straddled by a piece.
 */
function markFollowers(pieces: readonly string[], mergeable: Uint8Array, unit: string): Uint8Array {
  return markNeighbours(pieces, mergeable, unit, 1);
}

/** Per code unit: 1 when it stands `offset` (-1 before, 1 after) from `unit` inside some mergeable piece. */
function markNeighbours(
  pieces: readonly string[],
  mergeable: Uint8Array,
  unit: string,
  offset: -1 | 1,
): Uint8Array {
  const marks = new Uint8Array(0x10000);
  for (let i = 0; i < pieces.length; i++) {
    if (mergeable[i] !== 1) continue;
    const p = pieces[i]!;
    for (let k = p.indexOf(unit); k !== -1; k = p.indexOf(unit, k + 1)) {
      const j = k + offset;
      if (j >= 0 && j < p.length) marks[p.charCodeAt(j)] = 1;
    }
  }
  return marks;
}

function isLow(cu: number): boolean {
  return cu >= 0xdc00 && cu <= 0xdfff;
}

/** The code point of a one-character string, else -1. */
function singleCodePoint(s: string): number {
  if (s.length === 1) {
    const cu = s.charCodeAt(0);
    return cu >= 0xd800 && cu <= 0xdfff ? -1 : cu;
  }
  if (s.length === 2) {
    const hi = s.charCodeAt(0);
    const lo = s.charCodeAt(1);
    if (hi >= 0xd800 && hi <= 0xdbff && isLow(lo)) return ((hi - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
  }
  return -1;
}
