// Assembles one chat encoding from an ordered list of segments: reserved IDs (placed by format
// code) and text (template text or caller text). Consecutive text segments form one RUN, and
// every run is ONE call of the text model's encoder (what the reference tokenizer does after
// splitting on its added tokens); `cut()` ends a run without a reserved ID (a family's
// separate enc calls).
//
// Format code's calls are only recorded (the plan); finish() then works in three steps:
//   1. plan: each run's path is decided and its cached template IDs looked up, and the whole
//      encoding becomes a flat program of ops (reserved ID, cached IDs, caller string, ...);
//   2. run: the program places the IDs; between one message's encoder call and the next only
//      a small loop runs, and each caller string is audited right before the encoder reads it;
//   3. spans: made from the ops and where each ended, in one loop.
// So the encoder calls follow one another without bookkeeping in between (which would evict the
// encoder's code and data each time).
//
// Caller text is scanned for reserved strings (audit; under "reject" at once, in caller(), so
// the first one throws before anything is encoded). Each token of a run is attributed to the
// segment holding its first byte, which gives the spans a trainer builds loss masks from. Cost
// over the bare encoder is kept small: template-only text ("user", "\n") is encoded once per
// model (fixed-runs.ts); a template header ending in "\n" before caller text is cut off where the
// model proves the cut exact (TextModel.cutsAfterNewline), so the caller's own string reaches
// the encoder unconcatenated; otherwise only the tokens before the run's last segment are
// attributed one by one (integer offsets, a per-ID length table), and the encoder writes each
// run's IDs straight into the builder's one ID buffer (TextModel.encodeAt; linear in the number
// of IDs and segments, no per-run array), copied once into the result.

import { trimIds } from "../models/id-scratch.ts";
import { utf8Length as utf8LengthJs } from "../models/sentencepiece/utf8-length.ts";
import type { TextModel } from "../models/text-model.ts";
import { TokenKind } from "../models/text-model.ts";
import { type SpecialTextPolicy, specialTokenError } from "../special-text/policy.ts";
import type { SpecialScanner } from "../special-text/scanner.ts";
import {
  type FixedRun,
  type FixedRunCache,
  findFixedRun,
  fixedRunsOf,
  hasRoom,
  MAX_CHARS,
  MAX_SEGMENTS,
  storeFixedRun,
} from "./fixed-runs.ts";
import { endsAtNfcStop, startsAtNfcBoundary } from "./nfc-boundary.ts";
import { SpanList } from "./span-list.ts";

export interface ChatSpan {
  /** Message index, or null for text that belongs to no message (prefix, generation prompt, top-level tools). */
  readonly message: number | null;
  /** "marker" | "role" | "name" | "content" | "action" | "metadata" | "tools" | "reasoning_content" | "tool_calls" | "template". */
  readonly field: string;
  /** Token range [start, end) in `ids`. */
  readonly start: number;
  readonly end: number;
}

export interface ChatAuditEntry {
  readonly message: number | null;
  /** The caller field (e.g. "content", "name", "tools[0]", "tool_calls[1].function.arguments"). */
  readonly field: string;
  readonly token: string;
  /** UTF-16 offset inside that field's string. */
  readonly index: number;
  readonly id: number;
}

export interface ChatEncoding {
  readonly ids: number[];
  readonly spans: ChatSpan[];
  readonly audit: ChatAuditEntry[];
}

/** Where a caller string came from, for the audit; `offset` = chars of the field dropped before this text. */
export interface CallerRef {
  readonly field: string;
  readonly offset?: number;
}

/**
 * What a segment of the recorded plan is (ChatBuilder.kinds): a reserved ID (itself, >= 0), the
 * end of a run without an ID (CUT), template text (TEXT: format code's literal, may be a key of
 * the fixed-run cache) or caller text (CALLER). Text is every kind below CUT.
 */
const CUT = -1;
const TEXT = -2;
const CALLER = -3;
/** How a run is encoded (ChatBuilder.resolveRun). */
const GENERAL = 0;
const FIXED = 1;
const CUT_RUN = 2;
/** The ops of finish()'s program (ChatBuilder.runProgram); a, b are its operands. */
const OP_ID = 0; // the reserved ID of segment a
const OP_ENCODE = 1; // segment a's caller text (audited, then encoded alone)
const OP_COPY = 2; // copies[a]'s IDs, its segment k is segments[b + k]
const OP_AUDIT = 3; // the audit of the caller text in segments [a, b)
const OP_JOINED = 4; // segments [a, b) as one encoder call on their joined text
const OP_HEAD = 5; // segments [a, b) as a run of its own (a header not in the cache)
/**
 * A builder given back to its tokenizer (release()) keeps the room of its plan's arrays up to
 * this many entries: a conversation of a few hundred messages; a larger one's is let go.
 */
const KEEP_ENTRIES = 4096;

/**
 * Per-ID UTF-8 length of what a token contributes to a run, computed once per text model. One
 * byte per ID keeps the table small enough to stay in cache next to the encoder's own tables (a
 * quarter of an Int32Array of the vocabulary's size); lengths from LONG up live in `long`.
 */
interface TokenLengths {
  readonly short: Uint8Array;
  readonly long: Map<number, number>;
  /**
   * Lazy tables (the model has tokenByteLength): short[id] = 0 means not computed yet, else
   * length + 1 (LONG = in `long`); the first encodeChat then costs only the IDs it emits.
   */
  readonly of?: (id: number) => number;
}
const LONG = 255;
const byteLenCache = new WeakMap<TextModel, TokenLengths>();

/** Scratch for utf8Length: filled and read within one call, so sharing it leaks no state. */
const UTF8_SCRATCH = new Uint8Array(1 << 16);
const UTF8_ENCODER = new TextEncoder();

/**
 * UTF-8 length of a string (a lone surrogate counts 3 bytes, as U+FFFD), without `node:buffer`:
 * the WHATWG `encodeInto` (native in every runtime) into a fixed 64 KiB scratch, continued from
 * where it stopped (it never splits a character, and any character fits the scratch, so every
 * round makes progress; `slice` is O(1) in V8).
 */
function utf8Length(s: string): number {
  if (s.length <= SHORT_UTF8) return utf8LengthJs(s, false);
  let total = 0;
  let rest = s;
  for (;;) {
    const r = UTF8_ENCODER.encodeInto(rest, UTF8_SCRATCH);
    total += r.written;
    if (r.read >= rest.length) return total;
    rest = rest.slice(r.read);
  }
}

/**
 * Strings up to this many UTF-16 units (role headers, separators: most prefix segments) are
 * measured in JS: encodeInto's call into the runtime costs more than the loop for them.
 */
const SHORT_UTF8 = 64;

function tokenByteLengths(model: TextModel): TokenLengths {
  const cached = byteLenCache.get(model);
  if (cached !== undefined) return cached;
  if (model.tokenByteLength !== undefined) {
    const of = model.tokenByteLength.bind(model);
    const lazy: TokenLengths = { short: new Uint8Array(model.vocabSize), long: new Map(), of };
    byteLenCache.set(model, lazy);
    return lazy;
  }
  const t = model.decodeTable;
  const short = new Uint8Array(t.size);
  const long = new Map<number, number>();
  const known = t.byteLength;
  for (let id = 0; id < t.size; id++) {
    const k = t.kind[id];
    const n =
      known !== undefined
        ? (known[id] as number)
        : k === TokenKind.Text
          ? utf8Length(t.text[id] ?? "")
          : k === TokenKind.Bytes
            ? (t.bytes[id]?.length ?? 0)
            : 0;
    if (n >= LONG) {
      short[id] = LONG;
      long.set(id, n);
    } else short[id] = n;
  }
  const table = { short, long };
  byteLenCache.set(model, table);
  return table;
}

/** Length of token `id` (IDs outside the table count 0). */
function tokenLength(lens: TokenLengths, id: number): number {
  if (id >= lens.short.length) return 0;
  const v = lens.short[id] as number;
  if (lens.of === undefined) return v === LONG ? (lens.long.get(id) as number) : v;
  if (v === LONG) return lens.long.get(id) as number;
  if (v !== 0) return v - 1;
  const n = lens.of(id);
  if (n + 1 >= LONG) {
    lens.short[id] = LONG;
    lens.long.set(id, n);
  } else lens.short[id] = n + 1;
  return n;
}

/**
 * The UTF-8 length of `s` when every character is below U+0300 (NFC cannot change such text,
 * nor can it hold a surrogate), else -1: one pass over the (short) prefix segments of a run.
 */
function lowUtf8Length(s: string): number {
  let total = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      if (c >= 0x300) return -1;
      total++;
    }
  }
  return total;
}

/** True when ids[at..end) begins with `head`. */
function startsWithIds(ids: readonly number[], at: number, end: number, head: readonly number[]): boolean {
  if (end - at < head.length) return false;
  for (let t = 0; t < head.length; t++) if (ids[at + t] !== head[t]) return false;
  return true;
}

/**
 * Sum of the lengths of ids[from..]. Through tokenLength: with a lazy table (the model has
 * tokenByteLength) `short` holds length + 1, or 0 for an ID not measured yet (never read it raw: it
 * would undercount every run and start the walk at the wrong offset).
 */
function sumLengths(ids: readonly number[], from: number, end: number, lens: TokenLengths): number {
  let sum = 0;
  for (let t = from; t < end; t++) sum += tokenLength(lens, ids[t] as number);
  return sum;
}

export class ChatBuilder {
  /**
   * The recorded plan: text segments, reserved IDs and cuts in the order format code wrote them.
   * Nothing is encoded until finish(): the renderer's and this builder's bookkeeping then run
   * back to back for the whole conversation, and the encoder calls follow one another with
   * little other code between them (bookkeeping interleaved with the encoder calls would take
   * cache misses each time).
   *
   * One entry per segment in parallel arrays (no object per segment), entries below `count`.
   * Every entry at or above `count` holds "" in the string arrays (release() empties the entries
   * it used), so a reused builder keeps no caller string.
   */
  private readonly texts: string[] = [];
  private readonly messages: (number | null)[] = [];
  private readonly fields: string[] = [];
  /** CUT, TEXT, CALLER or the reserved ID (see CUT). */
  private readonly kinds: number[] = [];
  /** Caller text: the field the audit names and the characters of it dropped before the text. */
  private readonly refFields: string[] = [];
  private readonly offsets: number[] = [];
  private count = 0;
  /** The cached IDs resolveRun found for the run it was last asked about (read right after it). */
  private head: FixedRun | undefined;
  /**
   * The program finish() runs (see runProgram): op kinds and their two operands, entries below
   * opCount (the arrays keep their room when a tokenizer reuses this builder: release()).
   */
  private readonly opKinds: number[] = [];
  private readonly opA: number[] = [];
  private readonly opB: number[] = [];
  private opCount = 0;
  /** idEnd after each op (runProgram): where its tokens end. */
  private readonly opEnds: number[] = [];
  /** OP_COPY's fixed runs, entries below copyCount. */
  private readonly copies: FixedRun[] = [];
  private copyCount = 0;
  /** The result of finish() (it runs the plan once). */
  private done: ChatEncoding | undefined;
  private audit: ChatAuditEntry[] = [];
  /**
   * The IDs so far, entries below `idEnd`: written by index (a reserved ID, a fixed run's IDs) or
   * by the encoder itself (TextModel.encodeAt), then copied once into the result (finish()).
   * The buffer keeps its room when a tokenizer reuses this builder (release(): up to KEEP_IDS,
   * id-scratch.ts), so a conversation's IDs go into room that is already there instead of a fresh
   * array grown by push. Linear either way (joining per-run chunks in batches would re-copy
   * everything joined so far once per batch). Entries at or above idEnd are IDs of an earlier
   * encoding, never read.
   */
  private readonly buf: number[] = [];
  private idEnd = 0;
  /** The spans of the runs attributed while encoded (OP_JOINED, OP_HEAD), and each op's range of them. */
  private readonly side = new SpanList();
  private readonly sideRanges: number[] = [];
  /** spansOf's list (emptied by release(); toSpans makes the result's objects). */
  private readonly spanScratch = new SpanList();
  /** The model's token lengths (looked up once per encoding, not once per run). */
  private lens: TokenLengths | undefined;
  /** Scratch for the prefix segments' end offsets of one run (read only below the run's count). */
  private readonly ends: number[] = [];
  /** false in the builder that computes a fixed run (it must not look itself up). */
  private useFixed = true;
  /** The model's fixed-run cache, looked up on the first run that needs it. */
  private fixedCache: FixedRunCache | undefined;

  constructor(
    private readonly model: TextModel,
    private readonly scanner: SpecialScanner,
    readonly policy: SpecialTextPolicy,
  ) {}

  /**
   * Makes this builder empty for another encoding (builder-spare.ts: a tokenizer keeps one) and
   * drops everything of the last one: its result and the caller's strings in the plan. The
   * plan's and the ops' arrays keep their room up to KEEP_ENTRIES entries (a huge conversation's
   * room is not kept); the model's fixed-run cache and token-length table stay (they depend on
   * the model only).
   */
  release(): void {
    const opRoom = this.opKinds.length;
    if (this.texts.length > KEEP_ENTRIES) {
      this.texts.length = 0;
      this.messages.length = 0;
      this.fields.length = 0;
      this.kinds.length = 0;
      this.refFields.length = 0;
      this.offsets.length = 0;
    } else {
      const { texts, fields, refFields } = this;
      for (let k = 0, n = this.count; k < n; k++) {
        texts[k] = "";
        fields[k] = "";
        refFields[k] = "";
      }
    }
    this.count = 0;
    this.head = undefined;
    this.opCount = 0;
    this.copyCount = 0;
    if (opRoom > KEEP_ENTRIES) {
      this.opKinds.length = 0;
      this.opA.length = 0;
      this.opB.length = 0;
      this.opEnds.length = 0;
      this.copies.length = 0;
    }
    this.done = undefined;
    this.audit = [];
    this.idEnd = 0;
    trimIds(this.buf);
    this.side.clear(KEEP_ENTRIES);
    this.sideRanges.length = 0;
    this.spanScratch.clear(KEEP_ENTRIES);
  }

  /** Appends one plan entry (every entry has the same shape). */
  private record(
    text: string,
    message: number | null,
    field: string,
    kind: number,
    refField: string,
    offset: number,
  ): void {
    const k = this.count++;
    this.texts[k] = text;
    this.messages[k] = message;
    this.fields[k] = field;
    this.kinds[k] = kind;
    this.refFields[k] = refField;
    this.offsets[k] = offset;
  }

  reserved(id: number, message: number | null, field: string): void {
    this.record("", message, field, id, field, 0);
  }

  /** Template text (written by format code, may not hold reserved strings). */
  text(text: string, message: number | null, field: string): void {
    if (text.length > 0) this.record(text, message, field, TEXT, field, 0);
  }

  /**
   * Caller text, encoded as ordinary text by finish(). Under "reject" it is scanned now (the
   * first reserved string in it throws before anything more is rendered); otherwise finish()
   * audits it right before the encoder reads it (auditSegment), in the order format code wrote it.
   */
  caller(text: string, message: number | null, field: string, ref?: CallerRef): void {
    const refField = ref?.field ?? field;
    const offset = ref?.offset ?? 0;
    if (this.policy === "reject") {
      const m = this.scanner.first(text);
      if (m !== undefined)
        throw specialTokenError({ ...m, index: m.index + offset }, { message, field: refField });
    }
    if (text.length > 0) this.record(text, message, field, CALLER, refField, offset);
  }

  /**
   * Template text that may contain reserved strings (e.g. a tools prompt naming <tool_call>): each reserved
   * string becomes its reserved ID, the rest is text.
   */
  template(text: string, message: number | null, field: string): void {
    let from = 0;
    for (const m of this.scanner.scan(text)) {
      this.text(text.slice(from, m.index), message, field);
      this.reserved(m.id, message, "marker");
      from = m.index + m.token.length;
    }
    this.text(text.slice(from), message, field);
  }

  /** End the current text run: the next text starts a new encoder call. */
  cut(): void {
    if (this.count > 0 && (this.kinds[this.count - 1] as number) < CUT) this.record("", null, "", CUT, "", 0);
  }

  /**
   * Runs the plan: every run of text segments (up to a reserved ID, a cut or the end) is one
   * encoder call or its cached form, every reserved ID is placed between them. Once; a second
   * call answers the same encoding. Three steps (see the header): plan the ops for the whole
   * conversation, run them, make the spans.
   */
  finish(): ChatEncoding {
    if (this.done !== undefined) return this.done;
    const kinds = this.kinds;
    const n = this.count;
    let runStart = 0;
    for (let i = 0; i < n; i++) {
      const kind = kinds[i] as number;
      if (kind < CUT) continue;
      if (i > runStart) this.planRun(runStart, i);
      if (kind !== CUT) this.op(OP_ID, i, 0);
      runStart = i + 1;
    }
    if (n > runStart) this.planRun(runStart, n);
    this.runProgram();
    this.done = { ids: this.buf.slice(0, this.idEnd), spans: this.spansOf(), audit: this.audit };
    return this.done;
  }

  private op(kind: number, a: number, b: number): void {
    const o = this.opCount++;
    this.opKinds[o] = kind;
    this.opA[o] = a;
    this.opB[o] = b;
  }

  /**
   * Resolves the run of segments [from, to) and appends the ops that place it: the audit of its
   * caller text first, then its cached IDs, its caller string after a cut header, or one encoder
   * call on its joined text.
   */
  private planRun(from: number, to: number): void {
    const kind = this.resolveRun(from, to);
    const head = this.head;
    if (kind === CUT_RUN) {
      if (this.hasCaller(from, to - 1)) this.op(OP_AUDIT, from, to - 1);
      if (head !== undefined) this.opCopy(head, from);
      else this.op(OP_HEAD, from, to - 1);
      this.op(OP_ENCODE, to - 1, 0);
      return;
    }
    // One caller string alone (a SentencePiece family's content between two cuts): what
    // encodeJoined does with it, without its bookkeeping.
    if (kind === GENERAL && to - from === 1 && this.kinds[from] === CALLER) {
      this.op(OP_ENCODE, from, 0);
      return;
    }
    if (this.hasCaller(from, to)) this.op(OP_AUDIT, from, to);
    if (kind === FIXED) this.opCopy(head as FixedRun, from);
    else this.op(OP_JOINED, from, to);
  }

  /** Whether segments [from, to) hold caller text. */
  private hasCaller(from: number, to: number): boolean {
    const kinds = this.kinds;
    for (let k = from; k < to; k++) if (kinds[k] === CALLER) return true;
    return false;
  }

  /** An op placing a fixed run's IDs (its segment k is segments[from + k]). */
  private opCopy(run: FixedRun, from: number): void {
    const c = this.copyCount++;
    this.op(OP_COPY, c, from);
    this.copies[c] = run;
  }

  /**
   * Places everything the ops say, in order. One small loop: between one message's encoder call
   * and the next only this runs (per-run bookkeeping there would have its code and data evicted
   * by the encoder each time).
   */
  private runProgram(): void {
    const kinds = this.opKinds;
    const as = this.opA;
    const bs = this.opB;
    const ends = this.opEnds;
    const segKinds = this.kinds;
    for (let o = 0, n = this.opCount; o < n; o++) {
      const kind = kinds[o] as number;
      const a = as[o] as number;
      if (kind === OP_ID) this.buf[this.idEnd++] = segKinds[a] as number;
      else if (kind === OP_ENCODE) {
        this.auditSegment(a);
        this.encodeAtEnd(this.texts[a] as string);
      } else if (kind === OP_COPY) this.copyIds((this.copies[a] as FixedRun).ids);
      else if (kind === OP_AUDIT) {
        const b = bs[o] as number;
        for (let k = a; k < b; k++) if (segKinds[k] === CALLER) this.auditSegment(k);
      } else {
        // The rare runs whose tokens are attributed while they are encoded: their spans go to
        // `side` now and are copied in order when the spans are read.
        this.sideRanges.push(this.side.length);
        if (kind === OP_JOINED) this.encodeJoined(a, bs[o] as number, this.side);
        else this.encodeRun(a, bs[o] as number, this.side);
        this.sideRanges.push(this.side.length);
      }
      ends[o] = this.idEnd;
    }
  }

  /**
   * The spans of the finished encoding, from the ops and where each one ended (runProgram), in
   * one loop after all of them ran (not between encoder calls; a lazy getter for `spans` would
   * cost an accessor object per encoding).
   */
  private spansOf(): ChatSpan[] {
    // Empty: spansOf runs once per encoding (finish()), and release() empties it between them.
    const out = this.spanScratch;
    const kinds = this.opKinds;
    const messages = this.messages;
    const fields = this.fields;
    const side = this.side;
    let start = 0;
    let sideAt = 0;
    for (let o = 0, n = this.opCount; o < n; o++) {
      const kind = kinds[o] as number;
      const a = this.opA[o] as number;
      const end = this.opEnds[o] as number;
      if (kind === OP_ID || kind === OP_ENCODE) {
        if (end > start) out.add(messages[a] as number | null, fields[a] as string, start, end);
      } else if (kind === OP_COPY)
        this.spansOfFixed(this.copies[a] as FixedRun, this.opB[o] as number, start, out);
      else if (kind !== OP_AUDIT) {
        const to = this.sideRanges[sideAt + 1] as number;
        for (let k = this.sideRanges[sideAt] as number; k < to; k++)
          out.add(side.messageAt(k), side.fieldAt(k), side.startAt(k), side.endAt(k));
        sideAt += 2;
      }
      start = end;
    }
    return out.toSpans();
  }

  /**
   * The audit entries of one caller segment (not under "reject": caller() scanned it already).
   * Taken right before the segment is encoded, so the encoder reads text the scan has just
   * brought into the CPU's caches (not while rendering, long before the encoder runs). Clean
   * text (the common case) costs one scan that allocates nothing (first()).
   */
  private auditSegment(k: number): void {
    const text = this.texts[k] as string;
    if (this.policy === "reject" || this.scanner.first(text) === undefined) return;
    for (const m of this.scanner.scan(text))
      this.audit.push({
        message: this.messages[k] as number | null,
        field: this.refFields[k] as string,
        token: m.token,
        index: m.index + (this.offsets[k] as number),
        id: m.id,
      });
  }

  /**
   * How the run of segments [from, to) (all text) is encoded: its cached IDs (FIXED), a header
   * cut off before caller text (CUT_RUN; the header's cached IDs, or undefined: encoded as a run
   * of its own), or one encoder call on the joined text (GENERAL). The cached IDs are left in
   * `head`.
   */
  private resolveRun(from: number, to: number): number {
    const texts = this.texts;
    const model = this.model;
    let kind = GENERAL;
    let head: FixedRun | undefined;
    // A run ending in template text (a "\n" between messages, the generation prompt; a
    // template's caller-given role before it, "assistant" + "\n"): its cached encoding.
    if (this.kinds[to - 1] === TEXT && this.useFixed) {
      head = this.fixedRun(from, to, true);
      if (head !== undefined) kind = FIXED;
    } else if (
      to - from > 1 &&
      this.useFixed &&
      model.cutsAfterNewline !== undefined &&
      endsAtNfcStop(texts[to - 2] as string) &&
      model.cutsAfterNewline(texts[to - 1] as string)
    ) {
      // A header ending in "\n" before caller text the model proves it may cut at
      // (models/bytelevel/prefix-cut.ts: encode(P + C) = encode(P) ++ encode(C) for EVERY P ending in
      // "\n"): the header's cached IDs when it is template text only, else the header encoded as
      // a run of its own (a template's "user" role is caller text: "user" + "\n"); then the
      // caller's own string.
      kind = CUT_RUN;
      head = this.fixedRun(from, to - 1, true);
    }
    this.head = head;
    return kind;
  }

  /**
   * Encodes the run of segments [from, to) and attributes its tokens at once, the way
   * resolveRun decides: for a run inside another (OP_HEAD: a header not in the cache, which may
   * itself end in a cut header).
   */
  private encodeRun(from: number, to: number, spans: SpanList): void {
    const kind = this.resolveRun(from, to);
    const head = this.head;
    if (kind === FIXED) {
      this.emitFixed(head as FixedRun, from, spans);
      return;
    }
    if (kind === GENERAL) {
      this.encodeJoined(from, to, spans);
      return;
    }
    if (head !== undefined) this.emitFixed(head, from, spans);
    else this.encodeRun(from, to - 1, spans);
    const last = to - 1;
    const base = this.idEnd;
    this.encodeAtEnd(this.texts[last] as string);
    if (this.idEnd > base)
      spans.add(this.messages[last] as number | null, this.fields[last] as string, base, this.idEnd);
  }

  /** The model's IDs of `text` written at idEnd (which then ends after them). */
  private encodeAtEnd(text: string): void {
    const model = this.model;
    if (model.encodeAt !== undefined) this.idEnd = model.encodeAt(text, this.buf, this.idEnd);
    else if (model.encodeInto !== undefined) {
      // Appends at the array's length: the stale entries past idEnd go first.
      this.buf.length = this.idEnd;
      model.encodeInto(text, this.buf);
      this.idEnd = this.buf.length;
    } else this.copyIds(model.encode(text));
  }

  /** `src`'s IDs written at idEnd (which then ends after them). */
  private copyIds(src: readonly number[]): void {
    const buf = this.buf;
    let at = this.idEnd;
    for (let k = 0; k < src.length; k++) buf[at++] = src[k] as number;
    this.idEnd = at;
  }

  /**
   * Encodes segments [from, to) (all TEXT) as one encoder call on their joined text, IDs written at
   * idEnd, and extends the spans. Only the tokens before the start of the last segment are attributed
   * one by one; from the first token inside the last segment on, the rest of the run is one span.
   */
  private encodeJoined(from: number, to: number, spans: SpanList): void {
    const texts = this.texts;
    const lastMessage = this.messages[to - 1] as number | null;
    const lastField = this.fields[to - 1] as string;
    const model = this.model;
    let text = texts[to - 1] as string;
    let oneOwner = true;
    if (to - from > 1) {
      text = "";
      for (let k = from; k < to; k++) {
        text += texts[k] as string;
        if (this.messages[k] !== lastMessage || this.fields[k] !== lastField) oneOwner = false;
      }
    }
    const base = this.idEnd;
    this.encodeAtEnd(text);
    const ids = this.buf;
    const end = this.idEnd;
    const n = end - base;
    if (n === 0) return;
    if (oneOwner) {
      spans.add(lastMessage, lastField, base, base + n);
      return;
    }
    const count = to - from;
    if (model.normalization === "none" && model.leadingOffsetBytes !== undefined) {
      // A template header before the last segment whose own IDs begin this run's IDs: the IDs'
      // bytes are the lead plus a per-character image of the text ("none"), so those tokens end
      // exactly where the header ends and are attributed as in the header alone (its cached
      // owners); every later token starts in the last segment. No per-token lengths needed (the
      // cache's own builder encodes the header's prefix alone the same way).
      const head = this.useFixed ? this.fixedRun(from, to - 1) : this.computeRun(from, to - 1);
      if (head !== undefined && startsWithIds(ids, base, end, head.ids)) {
        this.spansOfFixed(head, from, base, spans);
        const headEnd = base + head.ids.length;
        if (headEnd < end) spans.add(lastMessage, lastField, headEnd, end);
        return;
      }
    }
    this.lens ??= tokenByteLengths(model);
    const lens = this.lens;
    const lead = model.leadingOffsetBytes;
    const norm = model.normalization;
    if (lead !== undefined && (norm === "none" || norm === "nfc")) {
      // The IDs' bytes are the run's UTF-8 after `lead` bytes when the prefix is below U+0300 and
      // NFC keeps it (nfcKeepsPrefix): only the prefix segments are measured (one pass each:
      // below U+0300, and its UTF-8 length).
      const ends = this.ends;
      let total = 0;
      let k = 0;
      for (; k < count - 1; k++) {
        const n = lowUtf8Length(texts[from + k] as string);
        if (n < 0) break;
        total += n;
        ends[k] = total;
      }
      if (k === count - 1 && (norm === "none" || this.nfcKeepsPrefix(to, text))) {
        this.walk(from, to, ids, base, end, spans, ends, -lead, lens);
        return;
      }
    }
    // Segment end offsets in UTF-8 bytes of the run (the last segment needs no end).
    let ends = new Array<number>(count);
    let total = 0;
    for (let k = 0; k < count; k++) {
      total += utf8Length(texts[from + k] as string);
      ends[k] = total;
    }
    const tokenTotal = sumLengths(ids, base, end, lens);
    // The model normalized the text (NFC in byte-level BPE), which can shorten it (e + U+0301 ->
    // é) or LENGTHEN it (U+01D5 U+0323 -> 4 to 7 bytes): measure boundaries in NFC text. A model
    // that does not say how it normalizes is taken to be NFC when its tokens are shorter.
    const nfc = model.normalization === "nfc" || (model.normalization === undefined && tokenTotal < total);
    if (nfc && tokenTotal !== total) {
      ends = [];
      let prefix = "";
      for (let k = from; k < to; k++) {
        prefix += texts[k] as string;
        ends.push(utf8Length(prefix.normalize("NFC")));
      }
      total = ends[ends.length - 1] as number;
    }
    // A SentencePiece dummy prefix adds bytes before the text: start counting below zero.
    this.walk(from, to, ids, base, end, spans, ends, Math.min(0, total - tokenTotal), lens);
  }

  /**
   * The encoding of segments [from, to) as one run when all are template text (or, with
   * allowCaller, short caller text among them): from the model's cache (fixed-runs.ts), else
   * computed by this builder's own exact path on those segments alone (owners carried as message
   * indexes) and cached; undefined when one is caller text without allowCaller, or the cache
   * takes no more.
   */
  private fixedRun(from: number, to: number, allowCaller = false): FixedRun | undefined {
    // Checked before anything is computed: a long run of template pieces (a tool result's JSON
    // escapes) must not be encoded once more per segment (found by a family's linear render test).
    if (to - from > MAX_SEGMENTS) return undefined;
    const texts = this.texts;
    let chars = 0;
    let caller = false;
    for (let k = from; k < to; k++) {
      if (this.kinds[k] === CALLER) {
        // Caller text (audited when it arrived) only where the caller allows it (a header before
        // a cut, a run ending in template text), within its share of the cache (fixed-runs.ts).
        if (!allowCaller) return undefined;
        caller = true;
      }
      chars += (texts[k] as string).length;
    }
    if (chars > MAX_CHARS) return undefined;
    this.fixedCache ??= fixedRunsOf(this.model);
    const found = findFixedRun(this.fixedCache, texts, from, to);
    if (found !== undefined) return found;
    // A full cache stores nothing: computing the run here would only be done again by the caller.
    if (!hasRoom(this.fixedCache, caller)) return undefined;
    const run = this.computeRun(from, to);
    return storeFixedRun(this.fixedCache, texts, from, to, run, caller) ? run : undefined;
  }

  /**
   * Segments [from, to) encoded as one run by a builder of their own that uses no cache (owners
   * carried as message indexes). It takes the same exact path as any run, on fewer segments than
   * the run that asks (so the recursion of the header shortcut ends).
   */
  private computeRun(from: number, to: number): FixedRun {
    const texts = this.texts;
    const b = new ChatBuilder(this.model, this.scanner, this.policy);
    b.useFixed = false;
    for (let k = from; k < to; k++) b.text(texts[k] as string, k - from, "");
    b.cut();
    const enc = b.finish();
    const owners: number[] = [];
    const counts: number[] = [];
    for (const sp of enc.spans) {
      owners.push(sp.message as number);
      counts.push(sp.end - sp.start);
    }
    return { ids: enc.ids, owners, counts };
  }

  /** Appends a fixed run's IDs and spans; its segment k is segments[from + k]. */
  private emitFixed(run: FixedRun, from: number, spans: SpanList): void {
    const at = this.idEnd;
    this.copyIds(run.ids);
    this.spansOfFixed(run, from, at, spans);
  }

  /** The spans of a fixed run whose IDs start at `at`; its segment k is segments[from + k]. */
  private spansOfFixed(run: FixedRun, from: number, at: number, spans: SpanList): void {
    const messages = this.messages;
    const fields = this.fields;
    const { owners, counts } = run;
    let t = at;
    for (let r = 0; r < owners.length; r++) {
      const k = from + (owners[r] as number);
      const n = counts[r] as number;
      spans.add(messages[k] as number | null, fields[k] as string, t, t + n);
      t += n;
    }
  }

  /**
   * For a model that applies NFC, a run [.., to) whose prefix segments (all but the last) are all
   * below U+0300 (the caller checked): true when NFC(prefix + last) = prefix + NFC(last), so the IDs of
   * the prefix hold exactly its UTF-8, which is all the walk reads (it stops at the first token
   * inside the last segment). That holds when the last segment starts below U+0300 or with another
   * NFC boundary character, or is empty, or the prefix ends in a line feed.
   * Why: a character below U+0300 has combining class 0 and is never the second of a
   * composition pair (those are U+0300 and up: combining marks, Hangul vowels and trailing
   * consonants, a few Indic vowel signs), so nothing in the last segment can compose with or
   * reorder into the prefix, whatever NFC does inside the last segment; U+000A is moreover the
   * first of no composition (nfc-boundary.ts). (A whole-run check, text.normalize("NFC") === text,
   * would be a second NFC pass over every non-ASCII message besides the encoder's own.) Prefix
   * segments below U+0300 also hold no surrogates.
   */
  private nfcKeepsPrefix(to: number, text: string): boolean {
    const texts = this.texts;
    const last = texts[to - 1] as string;
    // CJK, kana, Hangul, emoji starts: nfc-boundary.ts.
    if (last.length === 0 || startsAtNfcBoundary(last)) return true;
    // Every chat header ("user\n", "assistant\n") ends in a line feed.
    if (endsAtNfcStop(texts[to - 2] as string)) return true;
    // The last segment starts with something else at U+0300 or above (a combining mark may
    // compose with the prefix): exact when NFC leaves the whole run unchanged.
    return text.normalize("NFC") === text;
  }

  /** Attributes tokens ids[base..end) from the start of the run until the first token inside its last segment. */
  private walk(
    from: number,
    to: number,
    ids: readonly number[],
    base: number,
    end: number,
    spans: SpanList,
    ends: readonly number[],
    start: number,
    lens: TokenLengths,
  ): void {
    const messages = this.messages;
    const fields = this.fields;
    let pos = start;
    let seg = 0;
    const last = to - from - 1;
    for (let t = base; t < end; t++) {
      while (seg < last && pos >= (ends[seg] as number)) seg++;
      if (seg === last) {
        spans.add(messages[to - 1] as number | null, fields[to - 1] as string, t, end);
        return;
      }
      const k = from + seg;
      spans.add(messages[k] as number | null, fields[k] as string, t, t + 1);
      pos += tokenLength(lens, ids[t] as number);
    }
  }
}
