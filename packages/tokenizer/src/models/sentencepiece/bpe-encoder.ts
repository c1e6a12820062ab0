// SentencePiece BPE encoding, step for step as Google SentencePiece 0.1.97 does it
// (normalizer.cc Normalize, bpe_model.cc Model::SampleEncode with alpha 0,
// sentencepiece_processor.cc PopulateSentencePieceText), on integers:
//
//   text --normalize--> "▁Hello▁world" --split--> symbols (one per character, or one per
//   USER_DEFINED match, which is frozen) --merge--> repeatedly merge the adjacent pair whose
//   concatenation is the piece with the highest score (ties: leftmost) --> ids, where an
//   unknown character becomes its UTF-8 bytes as <0xXX> pieces (byte_fallback) or <unk>.
//
// Symbols are small integers ("keys"): key < pieceCount is a mergeable piece id; key >=
// pieceCount is a single character (pieceCount + code point) that is not a mergeable piece.
// A merge looks up (leftKey, rightKey) in an open-addressing hash table built once from
// every split of every mergeable piece, so no string is built per merge.
//
// Blocked IDs behave as CONTROL pieces: they leave the mergeable set (no literal match, no
// merge result). One deliberate difference from a real CONTROL piece: SentencePiece would
// still return a single-character CONTROL piece's id for that character; a blocked id is
// never returned, the character is treated as unknown (byte fallback / <unk>) instead.

import { takeIds } from "../id-scratch.ts";
import { buildEncoderTables, type EncoderTables, effectiveTypes } from "./encoder-tables.ts";
import { PieceType, type SentencePieceProto } from "./model-proto.ts";
import { pairHash } from "./pair-table.ts";

export { effectiveTypes };

const SPACE = 0x20;
const SPACE_MARK = "\u2581";
const SPACE_MARK_UNIT = SPACE_MARK.charCodeAt(0);
const REPLACEMENT = 0xfffd;
/** Segments up to this many code units go through the segment cache. */
const MAX_CACHED_SEGMENT = 32;
const MAX_CACHE_ENTRIES = 1 << 15;
/** Every CACHE_WINDOW cached lookups: hit rate below 1/COLD_HIT_DIVISOR = cold text. */
const CACHE_WINDOW = 2048;
const COLD_HIT_DIVISOR = 5;
/** Segments encoded without the cache after a cold window, before the cache is tried again. */
const CACHE_BYPASS = 16384;

export interface BpeEncoderOptions {
  /** IDs that behave as CONTROL pieces and are never returned. */
  readonly blocked?: ReadonlySet<number>;
  /** Encode in independent segments (default true; false = the whole-text path, for tests). */
  readonly segment?: boolean;
}

export class BpeEncoder {
  private readonly pieceCount: number;
  private readonly scores: Float32Array;
  /** 1 where the (effective) type is UNUSED: such merge results are re-split (resegment). */
  private readonly unused: Uint8Array;
  private readonly hasUnused: boolean;
  /** Output id per mergeable piece key (PieceToId looks at the reserved map first). */
  private readonly outId: Int32Array;
  /** Key of each BMP code unit as a one-character symbol. */
  private readonly bmpKey: Int32Array;
  /** Mergeable one-character pieces outside the BMP: code point -> id. */
  private readonly astralKey: Map<number, number>;
  /** Non-mergeable, non-blocked one-character pieces (CONTROL/UNKNOWN/BYTE): code point -> id. */
  private readonly reservedChar: Map<number, number>;
  private readonly unkId: number;
  private readonly byteFallback: boolean;
  private readonly byteId: Int32Array;

  // Normalizer settings.
  private readonly addDummyPrefix: boolean;
  private readonly removeExtraWhitespaces: boolean;
  private readonly escapeWhitespaces: boolean;
  private readonly dummySuffix: boolean;

  // USER_DEFINED literal matcher: a trie over UTF-16 code units, with a first-unit filter.
  private readonly literalFirst: Uint8Array;
  private readonly trieChildren: Map<number, number>[];
  private readonly trieId: Int32Array;
  private matchLength = 0;

  // Pair table: (leftKey, rightKey) -> merged piece id.
  private readonly pairMask: number;
  private readonly pairLeft: Int32Array;
  private readonly pairRight: Int32Array;
  private readonly pairMerged: Int32Array;

  // Per-call working buffers, grown on demand and reused (an encoder is single-threaded).
  private capacity = 0;
  private symKey = new Int32Array(0);
  private symLen = new Int32Array(0);
  private symPrev = new Int32Array(0);
  private symNext = new Int32Array(0);
  private symFrozen = new Uint8Array(0);
  private agendaScore = new Float64Array(0);
  private agendaLeft = new Int32Array(0);
  private agendaRight = new Int32Array(0);
  private agendaSize = new Int32Array(0);
  private agendaMerged = new Int32Array(0);
  private heap = new Int32Array(0);
  private heapLength = 0;
  private agendaLength = 0;
  private revMerge: Map<number, readonly [number, number]> | undefined;
  private out: number[] = [];
  /** Where the next ID goes in `out` (encodeAt). */
  private outAt = 0;
  private prevUnk = false;
  private sawUnk = false;

  // Segmentation (see encode): markAfter[cu] = 1 when cu precedes SPACE_MARK inside some
  // mergeable or USER_DEFINED piece; undefined = this model is encoded as one whole text.
  private readonly markAfter: Uint8Array | undefined;
  /** cutsAfterNewline's table (encoder-tables.ts), or undefined when this model never cuts. */
  private readonly newlineCut: Uint8Array | undefined;
  /** Short segment -> its ids (only segments without unknown pieces). Bounded, cleared when full. */
  private readonly cache = new Map<string, number[]>();
  private cacheHits = 0;
  private cacheMisses = 0;
  private cacheBypass = 0;

  /**
   * `tables`, when given, are this model's derived tables from an earlier load (checked by
   * encoderTablesFrom); otherwise they are built here (buildEncoderTables).
   */
  constructor(proto: SentencePieceProto, options: BpeEncoderOptions = {}, tables?: EncoderTables) {
    const t = tables ?? buildEncoderTables(proto, options);
    this.tables = t;
    const n = proto.types.length;
    this.pieceCount = n;
    this.scores = proto.scores;
    this.unkId = proto.types.indexOf(PieceType.Unknown);
    this.byteFallback = proto.trainer.byteFallback;
    this.addDummyPrefix = proto.normalizer.addDummyPrefix;
    this.removeExtraWhitespaces = proto.normalizer.removeExtraWhitespaces;
    this.escapeWhitespaces = proto.normalizer.escapeWhitespaces;
    this.dummySuffix = proto.trainer.treatWhitespaceAsSuffix;
    this.unused = t.unused;
    this.hasUnused = t.unused.includes(1);
    this.outId = t.outId;
    this.bmpKey = t.bmpKey;
    this.byteId = t.byteId;
    this.astralKey = new Map();
    for (let k = 0; k < t.astral.length; k += 2) this.astralKey.set(t.astral[k]!, t.astral[k + 1]!);
    this.reservedChar = new Map();
    for (let k = 0; k < t.reservedChar.length; k += 2)
      this.reservedChar.set(t.reservedChar[k]!, t.reservedChar[k + 1]!);
    this.literalFirst = t.literalFirst;
    this.trieChildren = [];
    for (let k = 0; k < t.trieId.length; k++) this.trieChildren.push(new Map());
    for (let k = 0; k < t.trie.length; k += 3)
      this.trieChildren[t.trie[k]!]!.set(t.trie[k + 1]!, t.trie[k + 2]!);
    this.trieId = t.trieId;
    this.markAfter = t.markAfter;
    // The cut needs a text normalized character by character with nothing added at its start
    // (no dummy prefix, no whitespace removal) and "\n" a piece of its own (so the text before
    // a cut never ends in an unknown piece that an unknown run after it would continue).
    this.newlineCut =
      !this.addDummyPrefix && !this.removeExtraWhitespaces && (t.bmpKey[0x0a] as number) < n
        ? t.newlineBefore
        : undefined;
    this.pairMask = t.pairLeft.length - 1;
    this.pairLeft = t.pairLeft;
    this.pairRight = t.pairRight;
    this.pairMerged = t.pairMerged;
  }

  /** The derived tables (what a later load may pass back to the constructor). */
  readonly tables: EncoderTables;

  /**
   * TextModel.cutsAfterNewline: true when, for EVERY string P ending in "\n", encode(P + text)
   * is encode(P) followed by encode(text). Why, when this answers true: the identity
   * normalizer maps P + text to normalize(P) + normalize(text) (space escaping is per
   * character, and nothing is added at the start); a merge or USER_DEFINED match across the
   * cut would make a piece holding "\n" followed by the first unit of normalize(text), which
   * no piece holds (newlineBefore); and the last piece before the cut holds the known "\n",
   * so the unknown-run state after it is "not in a run", as at the start of a text.
   */
  cutsAfterNewline(text: string): boolean {
    const table = this.newlineCut;
    if (table === undefined || text.length === 0) return false;
    const cu = text.charCodeAt(0);
    return table[cu === 0x20 && this.escapeWhitespaces ? SPACE_MARK_UNIT : cu] === 0;
  }

  /** True when this model is encoded in independent segments (see encode). */
  get segmented(): boolean {
    return this.markAfter !== undefined;
  }

  /** SentencePiece's Normalizer::Normalize for the identity normalizer. */
  normalize(text: string): string {
    if (text.length === 0) return "";
    if (!this.removeExtraWhitespaces) {
      // Hot path (every real model we know): a pure replacement.
      let s = this.escapeWhitespaces && text.includes(" ") ? text.replaceAll(" ", SPACE_MARK) : text;
      if (this.addDummyPrefix) {
        const ws = this.escapeWhitespaces ? SPACE_MARK : " ";
        s = this.dummySuffix ? s + ws : ws + s;
      }
      return s;
    }
    return this.normalizeRemovingExtraWhitespace(text);
  }

  // Rare path: remove_extra_whitespaces. Mirrors the C++ loop, where a USER_DEFINED match is
  // one "normalized prefix" (so its spaces are handled as a unit).
  private normalizeRemovingExtraWhitespace(text: string): string {
    const ws = this.escapeWhitespaces ? SPACE_MARK : " ";
    let i = 0;
    // Heading spaces.
    while (i < text.length) {
      const len = this.prefixLength(text, i);
      if (len !== 1 || text.charCodeAt(i) !== SPACE) break;
      i += len;
    }
    if (i >= text.length) return "";
    let out = !this.dummySuffix && this.addDummyPrefix ? ws : "";
    let prevSpace = true;
    while (i < text.length) {
      const len = this.prefixLength(text, i);
      let chunk = text.slice(i, i + len);
      if (prevSpace) {
        let k = 0;
        while (k < chunk.length && chunk.charCodeAt(k) === SPACE) k++;
        chunk = chunk.slice(k);
      }
      if (chunk.length > 0) {
        out += this.escapeWhitespaces ? chunk.replaceAll(" ", SPACE_MARK) : chunk;
        prevSpace = chunk.charCodeAt(chunk.length - 1) === SPACE;
      }
      i += len;
    }
    while (out.endsWith(ws)) out = out.slice(0, out.length - ws.length);
    if (this.dummySuffix && this.addDummyPrefix) out += ws;
    return out;
  }

  /** Length of the USER_DEFINED match at i, else of one character. */
  private prefixLength(s: string, i: number): number {
    if (this.literalFirst[s.charCodeAt(i)] === 1 && this.matchLiteral(s, i) >= 0) return this.matchLength;
    const cu = s.charCodeAt(i);
    return cu >= 0xd800 && cu <= 0xdbff && isLow(s.charCodeAt(i + 1)) ? 2 : 1;
  }

  /** Longest USER_DEFINED piece starting at i: its id (length in matchLength), or -1. */
  private matchLiteral(s: string, i: number, end: number = s.length): number {
    let node = 0;
    let best = -1;
    for (let k = i; k < end; k++) {
      const child = this.trieChildren[node]!.get(s.charCodeAt(k));
      if (child === undefined) break;
      node = child;
      const id = this.trieId[node]!;
      if (id >= 0) {
        best = id;
        this.matchLength = k + 1 - i;
      }
    }
    return best;
  }

  encode(text: string): number[] {
    const scratch = this.scratch;
    return takeIds(scratch, this.encodeAt(text, scratch, 0));
  }

  /**
   * encode()'s IDs are written by index into this array, which keeps its room from one call to
   * the next (id-scratch.ts), and then copied once into the result, as in the byte-level encoder.
   */
  private readonly scratch: number[] = [];

  /** encode(text)'s IDs appended to `out` (TextModel.encodeInto). */
  encodeInto(text: string, out: number[]): void {
    this.encodeAt(text, out, out.length);
  }

  /** TextModel.encodeAt: encode(text)'s IDs written into `out` from `at` on; the index after them. */
  encodeAt(text: string, out: number[], at: number): number {
    const s = this.normalize(text);
    const len = s.length;
    if (len === 0) return at;
    this.out = out;
    this.outAt = at;
    this.prevUnk = false;
    if (this.markAfter === undefined) this.encodeRange(s, 0, len);
    else {
      // Cut before every SPACE_MARK whose preceding code unit never precedes SPACE_MARK inside
      // a mergeable or USER_DEFINED piece: no piece can then straddle the cut (it would contain
      // that two-unit substring), so no merge and no literal match crosses it, and BPE on each
      // segment alone makes exactly the merges it makes inside that span of the whole text.
      const after = this.markAfter;
      let start = 0;
      for (let j = s.indexOf(SPACE_MARK, 1); j !== -1; j = s.indexOf(SPACE_MARK, j + 1)) {
        if (after[s.charCodeAt(j - 1)] === 1) continue;
        this.segment(s, start, j);
        start = j;
      }
      this.segment(s, start, len);
    }
    this.out = [];
    return this.outAt;
  }

  /** One independent segment s[start, end): from the cache when short and the text is warm. */
  private segment(s: string, start: number, end: number): void {
    if (end - start > MAX_CACHED_SEGMENT) {
      this.encodeRange(s, start, end);
      return;
    }
    if (this.cacheBypass > 0) {
      this.cacheBypass--;
      this.encodeRange(s, start, end);
      return;
    }
    const k = s.slice(start, end);
    const hit = this.cache.get(k);
    if (hit !== undefined) {
      const out = this.out;
      let at = this.outAt;
      for (let i = 0; i < hit.length; i++) out[at++] = hit[i]!;
      this.outAt = at;
      // A cached segment emitted no unknown piece, so the unknown-run state is "not in a run".
      this.prevUnk = false;
      this.cacheHits++;
    } else {
      const before = this.outAt;
      this.sawUnk = false;
      this.encodeRange(s, start, end);
      // Segments with an unknown piece depend on the run state they start in: never cached.
      if (!this.sawUnk) {
        if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
        this.cache.set(k, this.out.slice(before, this.outAt));
      }
      this.cacheMisses++;
    }
    if (this.cacheHits + this.cacheMisses >= CACHE_WINDOW) {
      // Cold text (few repeats): lookups and inserts only cost, so skip the cache for a while.
      if (this.cacheHits * COLD_HIT_DIVISOR < CACHE_WINDOW) this.cacheBypass = CACHE_BYPASS;
      this.cacheHits = 0;
      this.cacheMisses = 0;
    }
  }

  /** BPE on s[start, end) (the whole text, or one independent segment); appends to this.out. */
  private encodeRange(s: string, start: number, end: number): void {
    this.ensureCapacity(end - start);
    // Non-null assertions below index typed arrays sized to `end - start` by ensureCapacity.
    const key = this.symKey;
    const symLen = this.symLen;
    const frozen = this.symFrozen;
    const n = this.pieceCount;

    // Split into symbols (bpe_model.cc "Splits the input into character sequence").
    let count = 0;
    for (let i = start; i < end; ) {
      const cu = s.charCodeAt(i);
      if (this.literalFirst[cu] === 1) {
        const id = this.matchLiteral(s, i, end);
        if (id >= 0) {
          key[count] = id;
          symLen[count] = this.matchLength;
          frozen[count++] = 1;
          i += this.matchLength;
          continue;
        }
      }
      frozen[count] = 0;
      if (cu < 0xd800 || cu > 0xdfff) {
        key[count] = this.bmpKey[cu]!;
        symLen[count++] = 1;
        i += 1;
      } else if (cu <= 0xdbff && i + 1 < end && isLow(s.charCodeAt(i + 1))) {
        const cp = ((cu - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00) + 0x10000;
        key[count] = this.astralKey.get(cp) ?? n + cp;
        symLen[count++] = 2;
        i += 2;
      } else {
        // A lone surrogate: UTF-8 encoding (TextEncoder) turns it into U+FFFD.
        key[count] = this.bmpKey[REPLACEMENT]!;
        symLen[count++] = 1;
        i += 1;
      }
    }
    const prev = this.symPrev;
    const next = this.symNext;
    for (let k = 0; k < count; k++) {
      prev[k] = k - 1;
      next[k] = k + 1;
    }
    next[count - 1] = -1;

    // Agenda of candidate merges.
    this.heapLength = 0;
    this.agendaLength = 0;
    if (this.hasUnused) this.revMerge = new Map();
    for (let k = 1; k < count; k++) this.maybeAdd(k - 1, k);
    const aLeft = this.agendaLeft;
    const aRight = this.agendaRight;
    const aSize = this.agendaSize;
    const aMerged = this.agendaMerged;
    while (this.heapLength > 0) {
      const top = this.popTop();
      const l = aLeft[top]!;
      const r = aRight[top]!;
      const ll = symLen[l]!;
      const rl = symLen[r]!;
      // Stale entry: one side was merged away or grew since the pair was queued.
      if (ll === 0 || rl === 0 || ll + rl !== aSize[top]) continue;
      key[l] = aMerged[top]!;
      symLen[l] = ll + rl;
      const rn = next[r]!;
      next[l] = rn;
      if (rn >= 0) prev[rn] = l;
      symLen[r] = 0;
      this.maybeAdd(prev[l]!, l);
      this.maybeAdd(l, rn);
    }

    // Output (PopulateSentencePieceText).
    for (let k = 0; k !== -1; k = next[k]!) {
      const sk = key[k]!;
      if (this.hasUnused && sk < n && this.unused[sk] === 1) this.resegment(sk);
      else this.emit(sk);
    }
  }

  private resegment(k: number): void {
    const split = k < this.pieceCount && this.unused[k] === 1 ? this.revMerge?.get(k) : undefined;
    if (split === undefined) {
      this.emit(k);
      return;
    }
    this.resegment(split[0]);
    this.resegment(split[1]);
  }

  private emit(k: number): void {
    const n = this.pieceCount;
    let id: number;
    let cp = -1;
    if (k < n) id = this.outId[k]!;
    else {
      cp = k - n;
      id = this.reservedChar.get(cp) ?? this.unkId;
    }
    const isUnk = id === this.unkId;
    if (isUnk) this.sawUnk = true;
    if (isUnk && this.byteFallback && cp >= 0) {
      this.emitUtf8Bytes(cp);
    } else if (!(isUnk && this.prevUnk)) {
      // Consecutive unknown pieces are merged into one <unk>.
      this.out[this.outAt++] = id;
    }
    this.prevUnk = isUnk;
  }

  private emitUtf8Bytes(cp: number): void {
    const b = this.byteId;
    const out = this.out;
    let at = this.outAt;
    if (cp < 0x80) out[at++] = b[cp]!;
    else if (cp < 0x800) {
      out[at++] = b[0xc0 | (cp >> 6)]!;
      out[at++] = b[0x80 | (cp & 0x3f)]!;
    } else if (cp < 0x10000) {
      out[at++] = b[0xe0 | (cp >> 12)]!;
      out[at++] = b[0x80 | ((cp >> 6) & 0x3f)]!;
      out[at++] = b[0x80 | (cp & 0x3f)]!;
    } else {
      out[at++] = b[0xf0 | (cp >> 18)]!;
      out[at++] = b[0x80 | ((cp >> 12) & 0x3f)]!;
      out[at++] = b[0x80 | ((cp >> 6) & 0x3f)]!;
      out[at++] = b[0x80 | (cp & 0x3f)]!;
    }
    this.outAt = at;
  }

  /** MaybeAddNewSymbolPair: queue (left, right) when their concatenation is a mergeable piece. */
  private maybeAdd(left: number, right: number): void {
    if (left < 0 || right < 0) return;
    const frozen = this.symFrozen;
    if (frozen[left] === 1 || frozen[right] === 1) return;
    const lk = this.symKey[left]!;
    const rk = this.symKey[right]!;
    const pl = this.pairLeft;
    const mask = this.pairMask;
    let slot = pairHash(lk, rk) & mask;
    let merged = -1;
    for (;;) {
      const k = pl[slot]!;
      if (k === -1) return;
      if (k === lk && this.pairRight[slot] === rk) {
        merged = this.pairMerged[slot]!;
        break;
      }
      slot = (slot + 1) & mask;
    }
    const e = this.agendaLength++;
    const score = this.scores[merged]!;
    this.agendaScore[e] = score;
    this.agendaLeft[e] = left;
    this.agendaRight[e] = right;
    this.agendaSize[e] = this.symLen[left]! + this.symLen[right]!;
    this.agendaMerged[e] = merged;
    if (this.revMerge !== undefined && this.unused[merged] === 1) this.revMerge.set(merged, [lk, rk]);
    // Sift up: higher score first, ties leftmost first (SymbolPairComparator).
    const heap = this.heap;
    const aScore = this.agendaScore;
    const aLeft = this.agendaLeft;
    let pos = this.heapLength++;
    while (pos > 0) {
      const parent = (pos - 1) >> 1;
      const p = heap[parent]!;
      const ps = aScore[p]!;
      if (ps > score || (ps === score && aLeft[p]! < left)) break;
      heap[pos] = p;
      pos = parent;
    }
    heap[pos] = e;
  }

  private popTop(): number {
    const heap = this.heap;
    const aScore = this.agendaScore;
    const aLeft = this.agendaLeft;
    const top = heap[0]!;
    const last = heap[--this.heapLength]!;
    const length = this.heapLength;
    if (length === 0) return top;
    const ls = aScore[last]!;
    const ll = aLeft[last]!;
    let pos = 0;
    for (;;) {
      let child = 2 * pos + 1;
      if (child >= length) break;
      let c = heap[child]!;
      let cs = aScore[c]!;
      const right = child + 1;
      if (right < length) {
        const rc = heap[right]!;
        const rs = aScore[rc]!;
        if (rs > cs || (rs === cs && aLeft[rc]! < aLeft[c]!)) {
          child = right;
          c = rc;
          cs = rs;
        }
      }
      if (ls > cs || (ls === cs && ll < aLeft[c]!)) break;
      heap[pos] = c;
      pos = child;
    }
    heap[pos] = last;
    return top;
  }

  private ensureCapacity(len: number): void {
    if (len <= this.capacity) return;
    const cap = Math.max(len, this.capacity * 2, 64);
    this.capacity = cap;
    this.symKey = new Int32Array(cap);
    this.symLen = new Int32Array(cap);
    this.symPrev = new Int32Array(cap);
    this.symNext = new Int32Array(cap);
    this.symFrozen = new Uint8Array(cap);
    // At most count-1 initial pairs plus 2 per merge (at most count-1 merges).
    const agenda = 3 * cap;
    this.agendaScore = new Float64Array(agenda);
    this.agendaLeft = new Int32Array(agenda);
    this.agendaRight = new Int32Array(agenda);
    this.agendaSize = new Int32Array(agenda);
    this.agendaMerged = new Int32Array(agenda);
    this.heap = new Int32Array(agenda);
  }
}

function isLow(cu: number): boolean {
  return cu >= 0xdc00 && cu <= 0xdfff;
}
