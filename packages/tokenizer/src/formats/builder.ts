// Assembles one chat encoding from an ordered list of segments: reserved IDs (placed by format
// code) and text (template text or caller text). Consecutive text segments form one RUN, and
// every run is ONE call of the text model's encoder (what the reference tokenizer does after
// splitting on its added tokens); `cut()` ends a run without a reserved ID (ChatGLM3's
// separate enc calls).
//
// Caller text is scanned for reserved strings first (audit; the "reject" policy throws before
// anything is encoded). Each token of a run is attributed to the segment holding its first
// byte, which gives the spans a trainer builds loss masks from.

import { type SpecialTextPolicy, specialTokenError } from "../special-text/policy.ts";
import type { SpecialScanner } from "../special-text/scanner.ts";
import type { TextModel } from "../text-model.ts";
import { TokenKind } from "../text-model.ts";

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

const RESERVED = 0;
const TEXT = 1;
const CUT = 2;

interface Segment {
  readonly kind: typeof RESERVED | typeof TEXT | typeof CUT;
  readonly id: number;
  readonly text: string;
  readonly message: number | null;
  readonly field: string;
}

/** Per-ID UTF-8 length of what a token contributes to a run, computed once per text model. */
const byteLenCache = new WeakMap<TextModel, Int32Array>();

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

function tokenByteLengths(model: TextModel): Int32Array {
  let table = byteLenCache.get(model);
  if (table !== undefined) return table;
  const t = model.decodeTable;
  table = new Int32Array(t.size);
  for (let id = 0; id < t.size; id++) {
    const k = t.kind[id];
    if (k === TokenKind.Text) table[id] = utf8Length(t.text[id] ?? "");
    else if (k === TokenKind.Bytes) table[id] = t.bytes[id]?.length ?? 0;
  }
  byteLenCache.set(model, table);
  return table;
}

export class ChatBuilder {
  private readonly segments: Segment[] = [];
  private readonly audit: ChatAuditEntry[] = [];

  constructor(
    private readonly model: TextModel,
    private readonly scanner: SpecialScanner,
    private readonly policy: SpecialTextPolicy,
  ) {}

  reserved(id: number, message: number | null, field: string): void {
    this.segments.push({ kind: RESERVED, id, text: "", message, field });
  }

  /** Template text (written by format code, may not hold reserved strings). */
  text(text: string, message: number | null, field: string): void {
    if (text.length > 0) this.segments.push({ kind: TEXT, id: -1, text, message, field });
  }

  /** Caller text: audited (and rejected under "reject"), then encoded as ordinary text. */
  caller(text: string, message: number | null, field: string, ref: CallerRef = { field }): void {
    const matches = this.scanner.scan(text);
    for (const m of matches) {
      if (this.policy === "reject")
        throw specialTokenError({ ...m, index: m.index + (ref.offset ?? 0) }, { message, field: ref.field });
      this.audit.push({
        message,
        field: ref.field,
        token: m.token,
        index: m.index + (ref.offset ?? 0),
        id: m.id,
      });
    }
    this.text(text, message, field);
  }

  /**
   * Template text that may contain reserved strings (e.g. Qwen3's tools prompt): each reserved
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
    this.segments.push({ kind: CUT, id: -1, text: "", message: null, field: "" });
  }

  finish(): ChatEncoding {
    const ids: number[] = [];
    const owners: Array<readonly [number | null, string]> = [];
    const segs = this.segments;
    let i = 0;
    while (i < segs.length) {
      const s = segs[i] as Segment;
      if (s.kind === RESERVED) {
        ids.push(s.id);
        owners.push([s.message, s.field]);
        i++;
      } else if (s.kind === CUT) i++;
      else {
        let j = i;
        while (j < segs.length && (segs[j] as Segment).kind === TEXT) j++;
        this.encodeRun(segs.slice(i, j), ids, owners);
        i = j;
      }
    }
    const spans: ChatSpan[] = [];
    for (let t = 0; t < owners.length; t++) {
      const [message, field] = owners[t] as readonly [number | null, string];
      const last = spans[spans.length - 1];
      if (last !== undefined && last.message === message && last.field === field && last.end === t) {
        spans[spans.length - 1] = { ...last, end: t + 1 };
      } else spans.push({ message, field, start: t, end: t + 1 });
    }
    return { ids, spans, audit: this.audit };
  }

  private encodeRun(
    run: readonly Segment[],
    ids: number[],
    owners: Array<readonly [number | null, string]>,
  ): void {
    const text = run.map((s) => s.text).join("");
    const tokens = this.model.encode(text);
    // Segment boundaries in UTF-8 bytes of the run.
    let ends = run.map((s) => utf8Length(s.text));
    let total = 0;
    for (let k = 0; k < ends.length; k++) {
      total += ends[k] as number;
      ends[k] = total;
    }
    const lens = tokenByteLengths(this.model);
    let tokenTotal = 0;
    for (const id of tokens) tokenTotal += id < lens.length ? (lens[id] as number) : 0;
    if (tokenTotal < total) {
      // The model normalized the text (NFC in byte-level BPE): measure boundaries in NFC text.
      let prefix = "";
      ends = run.map((s) => {
        prefix += s.text;
        return utf8Length(prefix.normalize("NFC"));
      });
    }
    // A SentencePiece dummy prefix adds bytes before the text: start counting below zero.
    let pos = Math.min(0, total - tokenTotal);
    let seg = 0;
    for (const id of tokens) {
      while (seg < run.length - 1 && pos >= (ends[seg] as number)) seg++;
      const s = run[seg] as Segment;
      ids.push(id);
      owners.push([s.message, s.field]);
      pos += id < lens.length ? (lens[id] as number) : 0;
    }
  }
}
