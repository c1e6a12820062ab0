// The byte-level BPE TextModel: NFC -> regex split (Isolated) -> UTF-8 bytes -> BPE per pre-token.
// encode() is the reference encoder with the added tokens REMOVED: their strings are ordinary text
// here (the injection defence of docs/formats.md), so it never returns an added-token ID.

import { TokenizerError } from "../../errors.ts";
import { takeIds } from "../id-scratch.ts";
import { type ModelTables, registerTableExporter } from "../tables/model-tables.ts";
import { writeTableFile } from "../tables/table-file.ts";
import type { DecodeTable, TextModel } from "../text-model.ts";
import { fileFail } from "../tokenizer-json-fields.ts";
import { MergeTable, WordMerger } from "./bpe.ts";
import { BYTE_TO_CHAR, CHAR_TO_BYTE } from "./byte-alphabet.ts";
import { buildByteLevelDecodeTable } from "./decode-table.ts";
import { type ScannedTokenizerJson, scanTokenizerJson } from "./json-scan.ts";
import { OutsideSymbols } from "./llama-cpp-symbols.ts";
import { byteLevelTableContents, decodeTableFromTables, type StoredByteLevel } from "./model-tables.ts";
import { PipelineByteLevelModel } from "./pipeline-model.ts";
import { planBytePipeline } from "./pipeline-spec.ts";
import { NEWLINE_CUT_PATTERNS, startsOutsideSpace } from "./prefix-cut.ts";
import { compileSplitFallback, type MatchAt } from "./split-fallback.ts";
import { SplitScanner } from "./split-scanner.ts";
import { byteLevelTokenBytes } from "./token-bytes.ts";
import { type AddedTokenSpec, parseByteLevelTokenizerJson } from "./tokenizer-json.ts";
import type { Vocab } from "./vocab.ts";
import { MISS, WordCache } from "./word-cache.ts";

export interface ByteLevelModelOptions {
  /** Names the file in errors. */
  readonly file: string;
  /** IDs encode() must never return and decode() renders as "" (the loader passes every added token). */
  readonly blocked?: ReadonlySet<number>;
  /**
   * Max pre-tokens kept in the word -> IDs cache (cleared when full; default 50,000; 0 disables
   * it). Results never depend on it: it only skips repeated BPE work.
   */
  readonly cacheWords?: number;
  /** The fast read of the file's text (json-scan.ts); `json` is then its `rest`. */
  readonly scanned?: ScannedTokenizerJson;
  /** Read from a table file (model-tables.ts readByteLevelTables); `json` is then its `rest`. */
  readonly stored?: StoredByteLevel;
  /** The table option the caller passed (told whether every table came from it). */
  readonly tables?: ModelTables;
  /**
   * The tokenizer.json (or its rest) whose rest a table file of this model stores, when it is not
   * `json`: the template loader loads a rewritten copy (lstrip / rstrip taken off, outer Split
   * steps taken out: it applies both itself) and stores the file's own rest, which a later load
   * reads and rewrites the same way.
   */
  readonly tableJson?: object;
}

export interface ByteLevelModel extends TextModel {
  readonly family: "byte-level-bpe";
  readonly addedTokens: readonly AddedTokenSpec[];
  /** The bytes an ID contributes to a reference decode (an added token: its content's bytes). */
  tokenBytes(id: number): Uint8Array;
  /** encode(text)'s IDs appended to `out` (every byte-level model has it). */
  encodeInto(text: string, out: number[]): void;
  /** TextModel.encodeAt (every byte-level model has it). */
  encodeAt(text: string, out: number[], at: number): number;
}

/** Pre-tokens up to this many UTF-16 units are cached (word -> IDs). */
const CACHE_MAX_KEY = 48;
const CACHE_DEFAULT_WORDS = 50_000;
/** Cached words of at most ARENA_LEN - 1 IDs; the arena holds at most ARENA_MAX IDs (4 MB). */
const ARENA_LEN = 64;
const ARENA_MAX = 1 << 20;
/** Words from this many UTF-16 units on may skip the cache on cold text (see encodeWord). */
const BYPASS_MIN = 4;
const CACHE_WINDOW = 1024;
const COLD_HIT_DIVISOR = 5;
const CACHE_BYPASS = 8192;
/** Symbol buffer sizes kept between words; larger ones are dropped after use. */
const KEEP_SYMS = 1 << 18;

export function loadByteLevelModel(json: string | object, options: ByteLevelModelOptions): ByteLevelModel {
  // A text goes through the fast reader too (json-scan.ts; it falls back to JSON.parse by itself).
  let parsed: object | undefined = typeof json === "string" ? undefined : json;
  let scanned = options.scanned;
  if (typeof json === "string" && scanned === undefined && options.stored === undefined) {
    scanned = scanTokenizerJson(json);
    parsed = scanned?.rest;
  }
  if (parsed === undefined) parsed = parseJsonText(json as string, options.file);
  // Components beyond the BPE core's (normalizers, split steps, add_prefix_space): pipeline-spec.ts.
  const { core, pipeline } = planBytePipeline(parsed, (message, field) => {
    throw new TokenizerError(
      "bad-tokenizer-file",
      `${options.file}: ${message}`,
      field === undefined ? { file: options.file } : { file: options.file, field },
    );
  });
  const m = new ByteLevelBpeModel(core, scanned === undefined ? options : { ...options, scanned });
  const model = pipeline === undefined ? m : new PipelineByteLevelModel(m, pipeline);
  const source = options.tableJson ?? (typeof json === "string" ? undefined : json);
  registerTableExporter(model, (id) => m.exportTables(id, source));
  return model;
}

function parseJsonText(text: string, file: string): object {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (e) {
    throw new TokenizerError(
      "bad-tokenizer-file",
      `${file}: not valid JSON (truncated or corrupt): ${(e as Error).message}`,
      { file },
    );
  }
  if (typeof root !== "object" || root === null || Array.isArray(root))
    throw new TokenizerError("bad-tokenizer-file", `${file}: top level is not a JSON object`, { file });
  return root;
}

class ByteLevelBpeModel implements ByteLevelModel {
  readonly family = "byte-level-bpe" as const;
  readonly vocabSize: number;
  readonly blocked: ReadonlySet<number>;
  readonly literalPieces: ReadonlyMap<string, number>;
  readonly addedTokens: readonly AddedTokenSpec[];
  readonly leadingOffsetBytes = 0;
  readonly normalization: "none" | "nfc";

  private readonly nfc: boolean;
  private readonly splitter: RegExp;
  /** The split pattern is one prefix-cut.ts proves a cut after "\n" for. */
  private readonly newlineCut: boolean;
  /** compileSplitFallback(splitter.source), built the first time V8 cannot match (null: unsupported). */
  private splitFallback: MatchAt | null | undefined;
  /** SplitScanner.forSource(splitter.source), on the first encode (null: not one of its patterns). */
  private splitScanner: SplitScanner | null | undefined;
  private readonly vocab: Vocab;
  private readonly addedById = new Map<number, string>();
  private readonly byteIds = new Int32Array(256);
  /** Built from mergeIds on first use (see the constructor). */
  private mergerBuilt: WordMerger | undefined;
  /** Merges as [left, right, merged] ids in rank order, until the merger is built. */
  private mergeIds: Int32Array | undefined;
  /** The merge table a table file holds (checked when read), until the merger is built from it. */
  private storedMerges: MergeTable | undefined;
  private readonly ignoreMerges: boolean;
  /** Stand-ins for symbols outside the vocabulary, under llama.cpp's rule (llama-cpp-symbols.ts). */
  private readonly outside: OutsideSymbols | undefined;
  /** A merge listed twice keeps its first rank (llama.cpp), else its last (HF). */
  private readonly firstMergeWins: boolean;
  /**
   * Word -> IDs: a value v >= 0 is one ID; v < 0 is -(offset * ARENA_LEN + length) - 1 into
   * `arena`, where the IDs of all cached words of more than one token lie end to end. Small-integer
   * values and one arena: nothing is allocated per cached word. Keyed by the span of the text
   * (word-cache.ts: no key string per word); built on the first encode.
   */
  private cacheBuilt: WordCache | undefined;
  private arena = new Int32Array(1 << 12);
  private arenaUsed = 0;
  private readonly cacheWords: number;
  private syms = new Int32Array(256);
  private readonly bytesById: (Uint8Array | undefined)[] = [];
  private readonly utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  private table: DecodeTable | undefined;

  constructor(json: string | object, options: ByteLevelModelOptions) {
    const { file } = options;
    const spec = parseByteLevelTokenizerJson(json, file, options.scanned, options.stored);
    const fail = fileFail(file);
    this.nfc = spec.nfc;
    this.normalization = spec.nfc ? "nfc" : "none";
    this.splitter = new RegExp(spec.splitPattern, "yv");
    this.newlineCut = NEWLINE_CUT_PATTERNS.has(spec.onigPattern);
    this.vocab = spec.vocab;
    this.ignoreMerges = spec.ignoreMerges;
    this.addedTokens = spec.addedTokens;
    this.blocked = options.blocked ?? new Set();
    this.cacheWords = options.cacheWords ?? CACHE_DEFAULT_WORDS;

    let maxId = spec.vocab.maxId;
    for (const t of spec.addedTokens) if (t.id > maxId) maxId = t.id;
    this.vocabSize = maxId + 1;
    const literal = new Map<string, number>();
    for (const t of spec.addedTokens) {
      this.addedById.set(t.id, t.content);
      literal.set(t.content, t.id);
    }
    this.literalPieces = literal;

    const outside = spec.llamaCppSymbols
      ? new OutsideSymbols(spec.vocab, literal, this.vocabSize)
      : undefined;
    // A table file holds the ids this loop found (no lookup, so no piece index, on such a load).
    const storedByteIds = options.stored?.byteIds;
    for (let b = 0; b < 256; b++) {
      const char = BYTE_TO_CHAR[b] as string;
      const known = storedByteIds?.[b];
      const id =
        known !== undefined ? (known < 0 ? undefined : known) : (outside?.idOf(char) ?? spec.vocab.get(char));
      // 0xC0, 0xC1 and 0xF5-0xFF never occur in UTF-8 (the only bytes a string encodes to), so a
      // vocabulary may lack them (GPT-NeoX, StarCoder, MPT do); any other missing byte is refused.
      if (id === undefined && !(b === 0xc0 || b === 0xc1 || b >= 0xf5))
        fail(`model.vocab lacks the byte-level symbol for byte 0x${b.toString(16)}`, "model.vocab");
      this.byteIds[b] = id ?? -1;
    }
    // Every merge is checked here (a bad file fails at load); the hash table itself is filled on
    // the first encode, which a decode-only user never needs.
    const merges = spec.merges;
    // The large-word merger orders (rank, position) as one exact double: ranks below 2^22.
    if (spec.mergeCount >= 2 ** 22)
      fail(`model.merges has ${spec.mergeCount} merges (at most 4194303)`, "model.merges");
    // Merges from a table file name pieces already (readByteLevelTables): the loop is for a tokenizer.json's.
    for (
      let rank = 0;
      merges !== undefined && options.stored === undefined && rank < spec.mergeCount;
      rank++
    ) {
      if (merges[3 * rank]! < 0 || merges[3 * rank + 1]! < 0 || merges[3 * rank + 2]! < 0) {
        const [a, b] = spec.mergeStrings(rank);
        const ids =
          outside === undefined ? undefined : [outside.idOf(a), outside.idOf(b), outside.idOf(a + b)];
        if (ids !== undefined && !ids.includes(undefined)) {
          merges.set(ids as number[], 3 * rank);
          continue;
        }
        fail(
          `model.merges[${rank}] ${JSON.stringify(`${a} ${b}`)} uses a piece missing from model.vocab`,
          "model.merges",
        );
      }
    }
    this.outside = outside?.size === 0 ? undefined : outside;
    this.firstMergeWins = outside !== undefined;
    this.mergeIds = merges;
    this.mergeList = merges;
    this.mergeCount = spec.mergeCount;
    for (const id of this.blocked) {
      if (spec.vocab.piece(id) !== undefined) {
        fail(`blocked id ${id} is an ordinary vocabulary piece, so encoding could produce it`, "model.vocab");
      }
    }
    const stored = options.stored;
    if (stored !== undefined) {
      // (A stored file holds the merges or the merge table, readByteLevelTables refuses one with
      // neither; the table is the one a model of this content built, first merge wins included.)
      this.storedMerges = stored.mergeTable;
      const verified = options.tables?.verified === true;
      this.table = decodeTableFromTables(
        stored.file,
        this.blocked,
        this.vocabSize,
        (id) => this.bytesOf(id),
        verified,
      );
    }
    options.tables?.report?.(this.table !== undefined);
  }

  /** Merges in rank order as ids (kept for exportTables), when the source held them. */
  private readonly mergeList: Int32Array | undefined;
  private readonly mergeCount: number;

  /** The table file of this model (model-tables.ts), or undefined when it has no stored form. */
  exportTables(source: string, json: object | undefined): Uint8Array | undefined {
    // Stand-in IDs have no piece a table file could hold.
    if (json === undefined || this.outside !== undefined) return undefined;
    const contents = byteLevelTableContents(
      source,
      json,
      this.vocab,
      this.byteIds,
      this.mergeList,
      this.mergeCount,
      this.blocked,
      this.decodeTable,
      this.merger().table.toStored(),
    );
    return contents === undefined ? undefined : writeTableFile(contents);
  }

  encode(text: string): number[] {
    const scratch = this.scratch;
    return takeIds(scratch, this.encodeAt(text, scratch, 0));
  }

  /**
   * encode()'s IDs are written by index into this array, which keeps its room from one call to
   * the next (id-scratch.ts), and then copied once into the result.
   */
  private readonly scratch: number[] = [];

  /** TextModel.cutsAfterNewline: a proven split pattern and `text` starting outside \s (prefix-cut.ts). */
  cutsAfterNewline(text: string): boolean {
    return this.newlineCut && startsOutsideSpace(text);
  }

  /** encode(text)'s IDs appended to `out` (TextModel.encodeInto). */
  encodeInto(text: string, out: number[]): void {
    this.encodeAt(text, out, out.length);
  }

  /** TextModel.encodeAt: encode(text)'s IDs written into `out` from `at` on; the index after them. */
  encodeAt(text: string, out: number[], at: number): number {
    // Known difference: ICU (Node 20) composes some sequences the reference's NFC leaves alone
    // (Unicode 16 scripts such as Garay, Tulu-Tigalari, Gurung Khema, Kirat Rai, and U+11938 Dives
    // Akuru: ~25 code points, found by probing every NFD-decomposed code point). Everything else agrees.
    const input = this.nfc ? text.normalize("NFC") : text;
    const re = this.splitter;
    const end = input.length;
    if (this.splitScanner === undefined) this.splitScanner = SplitScanner.forSource(re.source) ?? null;
    const scanner = this.splitScanner;
    let pos = 0;
    let gapStart = -1;
    // Sticky matching at each position = the leftmost-match search of the reference's find_iter;
    // characters where no match starts form the gaps that Isolated keeps as their own pieces.
    // The scanner (split-scanner.ts) gives the RegExp's own match end, or leaves it to the RegExp.
    while (pos < end) {
      let stop = scanner === null ? -1 : scanner.end(input, pos);
      if (stop < 0) stop = this.matchEnd(re, input, pos);
      if (stop >= 0) {
        if (gapStart >= 0) {
          at = this.encodeWord(input, gapStart, pos, out, at);
          gapStart = -1;
        }
        if (stop > pos) {
          at = this.encodeWord(input, pos, stop, out, at);
          pos = stop;
          continue;
        }
        // An empty match splits a gap but makes no piece.
      }
      if (gapStart < 0) gapStart = pos;
      // One code point: a surrogate pair, else one unit (a lone surrogate is one code point,
      // as the RegExp's "u" flag and the reference's U+FFFD for it count it).
      const c = input.charCodeAt(pos);
      const d = pos + 1 < end ? input.charCodeAt(pos + 1) : 0;
      pos += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    }
    if (gapStart >= 0) at = this.encodeWord(input, gapStart, end, out, at);
    return at;
  }

  /**
   * End of the split match at `pos`, or -1. V8 throws RangeError when one match is too long for
   * its backtrack stack (millions of characters of one class); that match is then computed by
   * the fallback matcher, which gives V8's own result (split-fallback.ts argues why), so the IDs
   * stay exactly the reference's. Only a pattern the fallback cannot take ends in a typed error.
   */
  private matchEnd(re: RegExp, input: string, pos: number): number {
    re.lastIndex = pos;
    try {
      return re.test(input) ? re.lastIndex : -1;
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
    }
    if (this.splitFallback === undefined) this.splitFallback = compileSplitFallback(re.source) ?? null;
    if (this.splitFallback === null) {
      throw new TokenizerError(
        "invalid-argument",
        `text from index ${pos} (of ${input.length} UTF-16 units) holds a pre-token too long for this engine's RegExp, and this file's split pattern is outside what the fallback matcher takes`,
        { index: pos },
      );
    }
    return this.splitFallback(input, pos);
  }

  private encodeWord(text: string, start: number, stop: number, out: number[], at: number): number {
    const units = stop - start;
    let short = units <= CACHE_MAX_KEY && this.cacheWords > 0;
    // Cold text (random words, new identifiers): a word of BYPASS_MIN units or more rarely
    // repeats, and its key slice, lookup and insert only cost. When fewer than 1 in
    // COLD_HIT_DIVISOR of a window of such lookups hit, they skip the cache for a while (the
    // short words, digits and punctuation that do repeat keep it). Results never depend on it.
    if (short && units >= BYPASS_MIN && this.bypass > 0) {
      this.bypass--;
      short = false;
    }
    const h = short ? WordCache.hash(text, start, stop) : 0;
    if (short) {
      const hit = this.cache().get(text, start, stop, h);
      if (units >= BYPASS_MIN) this.countLookup(hit !== MISS);
      if (hit !== MISS) {
        if (hit >= 0) out[at++] = hit;
        else {
          const v = -hit - 1;
          const len = v % ARENA_LEN;
          const arena = this.arena;
          for (let i = (v - len) / ARENA_LEN, end = i + len; i < end; i++) out[at++] = arena[i] as number;
        }
        return at;
      }
    }
    const n = this.toByteSymbols(text, start, stop);
    let len = n;
    if (this.ignoreMerges) {
      let s = "";
      for (let i = 0; i < n; i++) s += BYTE_TO_CHAR[this.symsBytes[i] as number];
      const whole = this.vocab.get(s);
      if (whole !== undefined) {
        this.syms[0] = whole;
        len = 1;
      } else len = this.merger().merge(this.syms, n);
    } else len = this.merger().merge(this.syms, n);
    if (this.outside !== undefined) len = this.outside.spell(this.syms, len);
    const syms = this.syms;
    for (let i = 0; i < len; i++) out[at++] = syms[i] as number;
    // A huge word's symbol buffers (7 bytes per byte of the word) are not kept for the next one.
    if (syms.length > KEEP_SYMS) {
      this.syms = new Int32Array(256);
      this.symsBytes = new Uint8Array(256);
    }
    if (short) this.remember(text, start, stop, h, syms, len);
    return at;
  }

  private cache(): WordCache {
    this.cacheBuilt ??= new WordCache(this.cacheWords, CACHE_MAX_KEY);
    return this.cacheBuilt;
  }

  private bypass = 0;
  private windowHits = 0;
  private windowLookups = 0;

  private countLookup(hit: boolean): void {
    if (hit) this.windowHits++;
    if (++this.windowLookups < CACHE_WINDOW) return;
    if (this.windowHits * COLD_HIT_DIVISOR < CACHE_WINDOW) this.bypass = CACHE_BYPASS;
    this.windowHits = 0;
    this.windowLookups = 0;
  }

  /** Caches text[start, stop) -> syms[0..len) (cleared when full: by words, or by the arena's size). */
  private remember(
    text: string,
    start: number,
    stop: number,
    h: number,
    syms: Int32Array,
    len: number,
  ): void {
    if (len >= ARENA_LEN) return;
    const cache = this.cache();
    if (cache.size >= this.cacheWords || this.arenaUsed + len > ARENA_MAX) {
      cache.clear();
      this.arenaUsed = 0;
    }
    if (len === 1) {
      cache.set(text, start, stop, h, syms[0] as number);
      return;
    }
    if (this.arenaUsed + len > this.arena.length) {
      const grown = new Int32Array(Math.min(ARENA_MAX, this.arena.length * 2));
      grown.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = grown;
    }
    const at = this.arenaUsed;
    const arena = this.arena;
    for (let i = 0; i < len; i++) arena[at + i] = syms[i] as number; // no subarray view per word
    this.arenaUsed = at + len;
    cache.set(text, start, stop, h, -(at * ARENA_LEN + len) - 1);
  }

  private symsBytes = new Uint8Array(256);

  private merger(): WordMerger {
    if (this.mergerBuilt !== undefined) return this.mergerBuilt;
    const stored = this.storedMerges;
    this.storedMerges = undefined;
    if (stored !== undefined) {
      this.mergeIds = undefined;
      this.mergerBuilt = new WordMerger(stored);
      return this.mergerBuilt;
    }
    // (Set whenever no merge table was stored: the source held the merges.)
    const merges = this.mergeIds as Int32Array;
    const count = this.mergeCount;
    const table = new MergeTable(count);
    for (let rank = 0; rank < count; rank++) {
      if (this.firstMergeWins && table.find(merges[3 * rank]!, merges[3 * rank + 1]!) >= 0) continue;
      table.set(merges[3 * rank]!, merges[3 * rank + 1]!, rank, merges[3 * rank + 2]!);
    }
    this.mergeIds = undefined;
    this.mergerBuilt = new WordMerger(table);
    return this.mergerBuilt;
  }

  /** UTF-16 -> UTF-8 bytes -> byte symbol IDs in this.syms; returns the count. Lone surrogates -> U+FFFD. */
  private toByteSymbols(text: string, start: number, stop: number): number {
    const need = (stop - start) * 3;
    if (this.syms.length < need) {
      const cap = need > KEEP_SYMS ? need : need * 2; // a huge word's buffers are exact (and not kept)
      this.syms = new Int32Array(cap);
      this.symsBytes = new Uint8Array(cap);
    }
    const syms = this.syms;
    const bytes = this.symsBytes;
    const ids = this.byteIds;
    // Written out per UTF-8 length (no per-word closure: this runs for every uncached word).
    let n = 0;
    for (let i = start; i < stop; i++) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        bytes[n] = c;
        syms[n++] = ids[c] as number;
        continue;
      }
      if (c < 0x800) {
        const b0 = 0xc0 | (c >> 6);
        const b1 = 0x80 | (c & 0x3f);
        bytes[n] = b0;
        syms[n++] = ids[b0] as number;
        bytes[n] = b1;
        syms[n++] = ids[b1] as number;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < stop ? text.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          i++;
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          const b0 = 0xf0 | (c >> 18);
          const b1 = 0x80 | ((c >> 12) & 0x3f);
          const b2 = 0x80 | ((c >> 6) & 0x3f);
          const b3 = 0x80 | (c & 0x3f);
          bytes[n] = b0;
          syms[n++] = ids[b0] as number;
          bytes[n] = b1;
          syms[n++] = ids[b1] as number;
          bytes[n] = b2;
          syms[n++] = ids[b2] as number;
          bytes[n] = b3;
          syms[n++] = ids[b3] as number;
          continue;
        }
        c = 0xfffd;
      }
      const b0 = 0xe0 | (c >> 12);
      const b1 = 0x80 | ((c >> 6) & 0x3f);
      const b2 = 0x80 | (c & 0x3f);
      bytes[n] = b0;
      syms[n++] = ids[b0] as number;
      bytes[n] = b1;
      syms[n++] = ids[b1] as number;
      bytes[n] = b2;
      syms[n++] = ids[b2] as number;
    }
    return n;
  }

  decode(ids: readonly number[]): string {
    let total = 0;
    const parts: Uint8Array[] = [];
    for (const id of ids) {
      if (this.blocked.has(id)) continue;
      const bytes = this.bytesOf(id);
      if (bytes === undefined) continue; // unknown IDs are skipped, as by the reference
      parts.push(bytes);
      total += bytes.length;
    }
    const all = new Uint8Array(total);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    // WHATWG replacement = one U+FFFD per maximal subpart, as Rust's String::from_utf8_lossy.
    return this.utf8.decode(all);
  }

  /** Bytes the decode table gives this ID (blocked / no piece: 0), without allocating. */
  tokenByteLength(id: number): number {
    if (this.blocked.has(id)) return 0;
    // A table file's piece bytes: their count (an added token's content is not among them).
    const arena = this.vocab.bytes;
    if (arena !== undefined && !this.addedById.has(id)) return arena.byteLength(id);
    const piece = this.idToPiece(id);
    if (piece === undefined) return 0;
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      // A character outside the byte alphabet: the token contributes its own UTF-8.
      if (c >= CHAR_TO_BYTE.length || (CHAR_TO_BYTE[c] as number) < 0) return this.tokenBytes(id).length;
    }
    return piece.length;
  }

  tokenBytes(id: number): Uint8Array {
    return this.bytesOf(id) ?? new Uint8Array(0);
  }

  private bytesOf(id: number): Uint8Array | undefined {
    // A table file's piece bytes are the token bytes already (views, never written to; not
    // cached: a view costs less than growing the cache array to the vocabulary's size).
    const arena = this.vocab.bytes;
    const viewed = arena !== undefined && !this.addedById.has(id) ? arena.bytes(id) : undefined;
    if (viewed !== undefined) return viewed;
    const cached = this.bytesById[id];
    if (cached !== undefined) return cached;
    const piece = this.idToPiece(id);
    if (piece === undefined) return undefined;
    const bytes = byteLevelTokenBytes(piece);
    this.bytesById[id] = bytes;
    return bytes;
  }

  idToPiece(id: number): string | undefined {
    if (!Number.isInteger(id) || id < 0 || id >= this.vocabSize) return undefined;
    return this.addedById.get(id) ?? this.vocab.piece(id);
  }

  pieceToId(piece: string): number | undefined {
    return this.literalPieces.get(piece) ?? this.vocab.get(piece);
  }

  get decodeTable(): DecodeTable {
    this.table ??= buildByteLevelDecodeTable(this);
    return this.table;
  }
}
