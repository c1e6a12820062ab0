// The SentencePiece-converted tokenizer.json TextModel (Gemma 3, Llama 2, Mistral v1): added
// text pieces matched in the raw text -> per segment: normalizer -> pre-tokenizer -> BPE over
// characters (a character missing from the vocabulary: its UTF-8 bytes as <0xNN> pieces with
// byte_fallback, else unk) -> IDs. The merge loop is the byte-level one (../bytelevel/bpe.ts,
// HF Word::merge_all order) on character symbols.
//
// Blocking (the injection defence of docs/formats.md): encode() is the reference encoder with the
// blocked IDs ABSENT FROM THE VOCABULARY: their strings are never matched as added tokens, a
// blocked single-character piece is not a symbol (its bytes fall back), and a merge that would
// produce a blocked ID never fires. Only the added tokens given as `textPieces` are matched,
// exactly as HF matches added tokens (leftmost, longest at a position, in the raw text).

import { TokenizerError } from "../../errors.ts";
import { createSpecialScanner, type SpecialScanner } from "../../special-text/scanner.ts";
import { MergeTable, WordMerger } from "../bytelevel/bpe.ts";
import { type ScannedTokenizerJson, scanTokenizerJson } from "../bytelevel/json-scan.ts";
import type { Vocab } from "../bytelevel/vocab.ts";
import { type ModelTables, registerTableExporter } from "../tables/model-tables.ts";
import type { DecodeTable, TextModel } from "../text-model.ts";
import { fileFail } from "../tokenizer-json-fields.ts";
import { buildSpDecodeTable, byteOfToken, decodeTokens } from "./decode.ts";
import { readSpJsonTables, type StoredSpJson, spJsonTableFile } from "./model-tables.ts";
import { normalize, preTokenize } from "./pretokenize.ts";
import {
  type DecoderStep,
  isSentencePieceJson,
  parseSpJson,
  type SpAddedToken,
  type SpJsonSpec,
  type SpJsonVocabulary,
} from "./spec.ts";

export interface SpJsonModelOptions {
  /** Names the file in errors. */
  readonly file: string;
  /** IDs encode() never returns and decode() skips (the reserved added tokens). */
  readonly blocked?: ReadonlySet<number>;
  /**
   * Added tokens (content -> ID) matched inside ordinary text as HF does: the template
   * format's text pieces (Gemma 3's whitespace runs and HTML tags). Default: none.
   */
  readonly textPieces?: ReadonlyMap<string, number>;
  /**
   * The template path applies lstrip / rstrip where it places a blocked added token
   * (../../template/strip-sink.ts): such tokens are accepted. Default: refused.
   */
  readonly stripApplied?: boolean;
  /**
   * The model's tables from an earlier load of this content (../tables/model-tables.ts): the
   * vocabulary and merges are then read from them, not from the file's text.
   */
  readonly tables?: ModelTables;
  /** The fast read of the file's text (../bytelevel/json-scan.ts), when the caller made it. */
  readonly scanned?: ScannedTokenizerJson;
  /** `tables` as the caller already read them (readSpJsonTables); `json` is then their rest. */
  readonly stored?: StoredSpJson;
}

export interface SpJsonModel extends TextModel {
  readonly family: "sentencepiece-json";
  readonly addedTokens: readonly SpAddedToken[];
}

export { isSentencePieceJson };

const CACHE_MAX_KEY = 48;
const CACHE_WORDS = 50_000;

/**
 * The parsed file and where its vocabulary comes from: a table file of this content (`tables`),
 * else the caller's or this function's fast scan of the text, else JSON.parse of the whole text.
 */
function readSpJson(
  json: string | object,
  file: string,
  tables: ModelTables | undefined,
  scannedGiven: ScannedTokenizerJson | undefined,
  storedGiven?: StoredSpJson,
): { spec: SpJsonSpec; rest: object | undefined; used: boolean } {
  const stored = storedGiven ?? readSpJsonTables(tables);
  let from: SpJsonVocabulary | undefined;
  let root: unknown = json;
  if (stored !== undefined) {
    from = { stored };
    root = stored.rest;
  } else if (typeof json === "string") {
    const scanned = scannedGiven ?? scanTokenizerJson(json);
    if (scanned !== undefined) {
      from = { scanned };
      root = scanned.rest;
    } else {
      try {
        root = JSON.parse(json);
      } catch (e) {
        throw new TokenizerError("bad-tokenizer-file", `${file}: not valid JSON: ${(e as Error).message}`, {
          file,
        });
      }
    }
  } else if (scannedGiven !== undefined) {
    from = { scanned: scannedGiven };
  }
  const spec = parseSpJson(root, file, from);
  // A file without table-able parts (shared ids, duplicate keys) is never exported.
  const rest = typeof root === "object" && root !== null && !Array.isArray(root) ? root : undefined;
  // A file without a stored merge table serves this load and is rewritten with one.
  return { spec, rest: from === undefined ? undefined : rest, used: stored?.currentLayout === true };
}

/** Loads a SentencePiece-flavoured tokenizer.json (text or parsed). Throws TokenizerError. */
export function loadSpJsonModel(json: string | object, options: SpJsonModelOptions): SpJsonModel {
  const read = readSpJson(json, options.file, options.tables, options.scanned, options.stored);
  return withTables(new SpJsonBpeModel(read.spec, options), read, options.tables);
}

/**
 * The template format's model: the file's added tokens that are `textPieces` are matched, every
 * other ID of `added` is blocked (text pieces absent from the file's added_tokens are blocked
 * too: HF would not match them).
 */
export function loadSpJsonForTemplate(
  text: string | object,
  file: string,
  added: Iterable<number>,
  textPieces: ReadonlyMap<string, number>,
  from: {
    readonly tables?: ModelTables;
    readonly scanned?: ScannedTokenizerJson;
    readonly stored?: StoredSpJson;
  } = {},
): SpJsonModel {
  const read = readSpJson(text, file, from.tables, from.scanned, from.stored);
  const spec = read.spec;
  const inFile = new Map(spec.addedTokens.map((t) => [t.content, t.id]));
  const pieces = new Map<string, number>();
  for (const [content, id] of textPieces) if (inFile.get(content) === id) pieces.set(content, id);
  const kept = new Set(pieces.values());
  const blocked = new Set<number>();
  for (const id of added) if (!kept.has(id)) blocked.add(id);
  // The whitespace an lstrip / rstrip token takes is cut from the text before this model sees
  // it; HF still matches a text piece inside that whitespace (its match bounds the strip). This
  // model matches text pieces itself, so a text piece holding whitespace beside strip tokens is
  // refused rather than encoded differently.
  const strips = spec.addedTokens.find((t) => (t.lstrip || t.rstrip) && !pieces.has(t.content));
  const spaced = [...pieces.keys()].find((c) => /\p{White_Space}/u.test(c));
  if (strips !== undefined && spaced !== undefined)
    throw new TokenizerError(
      "bad-tokenizer-file",
      `${file}: unsupported added token ${JSON.stringify(strips.content)} with ${strips.lstrip ? "lstrip" : "rstrip"}: true beside text piece ${JSON.stringify(spaced)} holding whitespace`,
      { file, field: "added_tokens" },
    );
  const model = new SpJsonBpeModel(spec, { file, blocked, textPieces: pieces, stripApplied: true });
  return withTables(model, read, from.tables);
}

/** Tells `tables` whether they were used, and registers the export of this model's tables. */
function withTables(
  model: SpJsonBpeModel,
  read: { readonly spec: SpJsonSpec; readonly rest: object | undefined; readonly used: boolean },
  tables: ModelTables | undefined,
): SpJsonModel {
  tables?.report?.(read.used);
  const { spec, rest } = read;
  if (rest !== undefined)
    registerTableExporter(model, (source) =>
      spJsonTableFile(source, rest, spec.vocab, spec.merges, model.blocked, () =>
        model.fullMergeTable().toStored(),
      ),
    );
  return model;
}

class SpJsonBpeModel implements SpJsonModel {
  readonly family = "sentencepiece-json" as const;
  readonly vocabSize: number;
  readonly blocked: ReadonlySet<number>;
  readonly literalPieces: ReadonlyMap<string, number>;
  readonly addedTokens: readonly SpAddedToken[];
  /** Set (0 / "none") only when the pipeline adds no prefix: the builder then skips measuring. */
  readonly leadingOffsetBytes?: number;
  readonly normalization?: "none";

  private readonly spec: SpJsonSpec;
  private readonly vocab: Vocab;
  private readonly addedById = new Map<number, string>();
  private readonly scanner: SpecialScanner | undefined;
  /** <0xNN> piece IDs (-1: missing), for byte_fallback. */
  private readonly byteIds = new Int32Array(256).fill(-1);
  private readonly unkId: number;
  private mergerBuilt: WordMerger | undefined;
  private fullTable: MergeTable | undefined;
  private readonly cache = new Map<string, readonly number[]>();
  private syms = new Int32Array(256);
  private table: DecodeTable | undefined;
  private readonly decoder: readonly DecoderStep[];

  constructor(spec: SpJsonSpec, options: SpJsonModelOptions) {
    const { file } = options;
    const fail = fileFail(file);
    this.spec = spec;
    this.decoder = spec.decoder;
    this.vocab = spec.vocab;
    this.addedTokens = spec.addedTokens;
    this.blocked = options.blocked ?? new Set();
    let maxId = this.vocab.maxId;
    const literal = new Map<string, number>();
    for (const t of spec.addedTokens) {
      if (t.id > maxId) maxId = t.id;
      this.addedById.set(t.id, t.content);
      literal.set(t.content, t.id);
    }
    this.vocabSize = maxId + 1;
    this.literalPieces = literal;
    // HF applies these where it matches a token in text (beside the token a rendered template
    // places as an ID). lstrip / rstrip: applied by the template path (stripApplied), refused
    // elsewhere; single_word (match only between non-word characters): refused everywhere.
    const stripApplied = options.stripApplied === true;
    for (const t of spec.addedTokens)
      if (t.singleWord || (!stripApplied && (t.lstrip || t.rstrip)))
        fail(
          `unsupported added token ${JSON.stringify(t.content)} with ${!stripApplied && t.lstrip ? "lstrip" : !stripApplied && t.rstrip ? "rstrip" : "single_word"}: true`,
          "added_tokens",
        );
    const pieces = options.textPieces ?? new Map<string, number>();
    const byContent = new Map(spec.addedTokens.map((t) => [t.content, t]));
    for (const [content, id] of pieces) {
      const t = byContent.get(content);
      if (t === undefined || t.id !== id)
        throw new TokenizerError(
          "invalid-argument",
          `${file}: text piece ${JSON.stringify(content)} is not added token ${id}`,
          { file },
        );
      if (t.lstrip || t.rstrip || t.singleWord || t.normalized)
        fail(
          `added token ${JSON.stringify(content)}: unsupported lstrip/rstrip/single_word/normalized on a matched token`,
          "added_tokens",
        );
      if (this.blocked.has(id))
        throw new TokenizerError("invalid-argument", `${file}: text piece ${id} is also blocked`, {
          file,
          index: id,
        });
    }
    this.scanner = pieces.size > 0 ? createSpecialScanner(pieces) : undefined;

    if (spec.byteFallback) {
      for (let b = 0; b < 256; b++) {
        const id = this.vocab.get(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
        if (id !== undefined) this.byteIds[b] = id;
      }
    }
    const unk = spec.unkToken === null ? undefined : this.vocab.get(spec.unkToken);
    if (spec.unkToken !== null && unk === undefined)
      fail(`model.unk_token ${JSON.stringify(spec.unkToken)} is not in model.vocab`, "model.unk_token");
    this.unkId = unk ?? -1;
    for (const id of this.blocked) {
      const p = this.vocab.pieces[id];
      // Unknown text is encoded with these: blocking them would make some text unencodable.
      // unk is needed only when some text has no piece and no complete byte fallback.
      const unkNeeded = !spec.byteFallback || this.byteIds.includes(-1);
      if (
        (id === this.unkId && unkNeeded) ||
        (p !== undefined && spec.byteFallback && byteOfToken(p) >= 0 && this.byteIds.includes(id))
      )
        throw new TokenizerError(
          "invalid-argument",
          `${file}: id ${id} (${JSON.stringify(p)}) cannot be blocked: unknown text is encoded with it`,
          { file, index: id },
        );
    }
    // A merge whose parts or result are missing is an error at load, as in HF.
    const merges = spec.merges;
    for (let rank = 0; rank < merges.length / 3; rank++)
      if (
        (merges[3 * rank] as number) < 0 ||
        (merges[3 * rank + 1] as number) < 0 ||
        (merges[3 * rank + 2] as number) < 0
      ) {
        const [a, b] = spec.mergeStrings(rank);
        fail(
          `model.merges[${rank}] ${JSON.stringify(`${a} ${b}`)} uses a piece missing from model.vocab`,
          "model.merges",
        );
      }
    // Byte-exact offsets: no prefix is added and the only rewrite is " " -> "▁" (decoded back).
    const adds =
      spec.normalizer.some((s) => s.kind === "prepend") ||
      spec.preTokenizer.some((s) => s.kind === "metaspace" && s.prepend !== "never");
    if (!adds) Object.assign(this, { leadingOffsetBytes: 0, normalization: "none" });
  }

  encode(text: string): number[] {
    const out: number[] = [];
    let from = 0;
    if (this.scanner !== undefined) {
      for (const m of this.scanner.scan(text)) {
        if (m.index > from) this.encodeSegment(text.slice(from, m.index), from === 0, out);
        out.push(m.id);
        from = m.index + m.token.length;
      }
    }
    if (from < text.length) this.encodeSegment(from === 0 ? text : text.slice(from), from === 0, out);
    return out;
  }

  private encodeSegment(segment: string, atOrigin: boolean, out: number[]): void {
    const normalized = normalize(this.spec.normalizer, segment);
    for (const word of preTokenize(this.spec.preTokenizer, normalized, atOrigin)) this.encodeWord(word, out);
  }

  private encodeWord(word: string, out: number[]): void {
    const short = word.length <= CACHE_MAX_KEY;
    if (short) {
      const hit = this.cache.get(word);
      if (hit !== undefined) {
        for (const id of hit) out.push(id);
        return;
      }
    }
    if (this.spec.ignoreMerges) {
      const whole = this.vocab.get(word);
      if (whole !== undefined && !this.blocked.has(whole)) {
        out.push(whole);
        return;
      }
    }
    const n = this.toSymbols(word);
    const len = this.merger().merge(this.syms, n);
    const start = out.length;
    for (let i = 0; i < len; i++) out.push(this.syms[i] as number);
    if (this.syms.length > 1 << 18) this.syms = new Int32Array(256);
    if (short) {
      if (this.cache.size >= CACHE_WORDS) this.cache.clear();
      this.cache.set(word, out.slice(start));
    }
  }

  /** HF BPE::merge_word's initial symbols into this.syms; returns the count. */
  private toSymbols(word: string): number {
    if (this.syms.length < word.length * 4) this.syms = new Int32Array(word.length * 4);
    const syms = this.syms;
    let n = 0;
    let unkPending = false;
    const enc = new TextEncoder();
    for (let i = 0; i < word.length; ) {
      let cp = word.codePointAt(i) as number;
      const w = cp > 0xffff ? 2 : 1;
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // lone surrogate: U+FFFD, as UTF-8 conversion does
      i += w;
      const ch = String.fromCodePoint(cp);
      const id = this.vocab.get(ch);
      if (id !== undefined && !this.blocked.has(id)) {
        if (unkPending) {
          syms[n++] = this.unkId;
          unkPending = false;
        }
        syms[n++] = id;
        continue;
      }
      if (this.spec.byteFallback) {
        const bytes = enc.encode(ch);
        let ok = true;
        for (const b of bytes) if ((this.byteIds[b] as number) < 0) ok = false;
        if (ok) {
          // As HF: a pending unk is NOT flushed before byte pieces (it follows them).
          for (const b of bytes) syms[n++] = this.byteIds[b] as number;
          continue;
        }
      }
      if (this.unkId >= 0) {
        if (unkPending && !this.spec.fuseUnk) syms[n++] = this.unkId;
        unkPending = true;
      }
    }
    if (unkPending) syms[n++] = this.unkId;
    return n;
  }

  private merger(): WordMerger {
    if (this.mergerBuilt !== undefined) return this.mergerBuilt;
    // A merge producing (or using) a blocked ID never fires: as if the piece were absent. When
    // no merge involves one, the table of every merge is this model's (stored, or built once).
    const blocked = this.blocked;
    const merges = this.spec.merges;
    let involved = false;
    if (blocked.size > 0) {
      // A flag per ID: one array read per merge id instead of a hash lookup.
      const flag = new Uint8Array(this.vocabSize);
      for (const id of blocked) if (id < flag.length) flag[id] = 1;
      for (let k = 0; k < merges.length && !involved; k++) involved = flag[merges[k] as number] === 1;
    }
    this.mergerBuilt = new WordMerger(involved ? mergeTableOf(merges, blocked) : this.fullMergeTable());
    return this.mergerBuilt;
  }

  /** The table of every merge, none blocked: the table file's, else built once (and exported). */
  fullMergeTable(): MergeTable {
    this.fullTable ??= this.spec.mergeTable ?? mergeTableOf(this.spec.merges, new Set());
    return this.fullTable;
  }

  decode(ids: readonly number[]): string {
    const tokens: string[] = [];
    for (const id of ids) {
      if (this.blocked.has(id)) continue;
      const p = this.idToPiece(id);
      if (p !== undefined) tokens.push(p); // unknown IDs are skipped, as by the reference
    }
    return decodeTokens(this.decoder, tokens);
  }

  idToPiece(id: number): string | undefined {
    if (!Number.isInteger(id) || id < 0 || id >= this.vocabSize) return undefined;
    return this.addedById.get(id) ?? this.vocab.pieces[id];
  }

  pieceToId(piece: string): number | undefined {
    return this.literalPieces.get(piece) ?? this.vocab.get(piece);
  }

  get decodeTable(): DecodeTable {
    this.table ??= buildSpDecodeTable(this, this.decoder);
    return this.table;
  }
}

/** The merge table of `merges` (ids checked at load) without the merges that involve a blocked ID. */
function mergeTableOf(merges: Int32Array, blocked: ReadonlySet<number>): MergeTable {
  const count = merges.length / 3;
  const table = new MergeTable(count);
  for (let rank = 0; rank < count; rank++) {
    const l = merges[3 * rank] as number;
    const r = merges[3 * rank + 1] as number;
    const m = merges[3 * rank + 2] as number;
    if (blocked.has(m) || blocked.has(l) || blocked.has(r)) continue;
    table.set(l, r, rank, m);
  }
  return table;
}
