// HF tokenizers' ByteFallback rule on a stream (tokenizers/src/decoders/byte_fallback.rs): a
// maximal run of <0xNN> pieces becomes its bytes when they are valid UTF-8 AS A WHOLE, else ONE
// U+FFFD PER BYTE of the run — [E4 BD A0 FF] is four U+FFFD, not "你" + U+FFFD. The native
// per-token path resolves bytes as each character completes (the table's "per-byte" policy,
// SentencePiece's rule), so the template decoder puts this filter in front of it for the
// models whose bytes come from HF's ByteFallback (TextModel family "sentencepiece-json"):
//
// - while the run is valid UTF-8 so far, its IDs are held (nothing of it is known yet: a later
//   invalid byte turns every earlier byte into U+FFFD);
// - at the first byte that makes the run invalid, the whole run is known to be U+FFFD per
//   byte: every held ID, that one and each further byte of the run go on as the table's
//   invalid byte (an ID whose byte is never valid alone, <0xFF>), which the per-byte policy
//   turns into exactly one U+FFFD each, at once;
// - at the run's end (any other ID, or the end of the stream) a valid run's held IDs go on
//   unchanged (the per-byte policy decodes a valid sequence to its text); a run that ends
//   inside a character is invalid (one U+FFFD per byte).
//
// So the streamed text equals HF's one-shot decode of the span and no event splits a
// character. Bounded: at most `cap` IDs are held. A longer run that is still valid is
// released at the next character boundary (its text goes out); if the same run turns invalid
// later, the released characters stay text where HF writes U+FFFD: the one case no bounded
// stream can match (docs/templates.md "Decoding"). Linear: each ID is looked at once.
import type { DecodeTable } from "@chatwire/tokenizer";

/** What the filter needs of a decode table (resolved once per spec). */
export interface ByteRunTable {
  readonly kind: Uint8Array;
  readonly bytes: readonly (Uint8Array | undefined)[];
  /** An ID of kind Bytes whose one byte is invalid UTF-8 on its own (<0xFF>). */
  readonly invalidId: number;
}

const BYTES_KIND = 1;

/**
 * How good a byte is as the stand-in: one the per-byte policy rejects at once, on its own, at
 * the start of a sequence (never held as a lead): 0xF8–0xFF, else a continuation byte. (0xC0,
 * 0xC1 and 0xF5–0xF7 have a lead byte's shape: the per-byte check waits for their trail bytes.)
 */
function invalidAlone(b: number): number {
  if (b >= 0xf8) return 2;
  if (b >= 0x80 && b <= 0xbf) return 1;
  return 0;
}

/** The ByteFallback table of an HF SentencePiece-converted model, or null (no such bytes). */
export function byteRunTable(table: DecodeTable, family: string): ByteRunTable | null {
  if (family !== "sentencepiece-json") return null;
  let invalidId = -1;
  let best = 0;
  for (let id = 0; id < table.size && best < 2; id++) {
    if (table.kind[id] !== BYTES_KIND) continue;
    const b = table.bytes[id];
    if (b === undefined || b.length !== 1) continue;
    const score = invalidAlone(b[0] as number);
    if (score > best) {
      best = score;
      invalidId = id;
    }
  }
  return invalidId < 0 ? null : { kind: table.kind, bytes: table.bytes, invalidId };
}

/** Receives the IDs the filter lets through, in order; returns false when the stream stopped. */
export type IdSink = (id: number) => boolean;

export class ByteRun {
  /** IDs of the run held while it is valid so far. */
  private held: number[] = [];
  /** Continuation bytes the current character still needs. */
  private need = 0;
  /** Allowed range of the next continuation byte. */
  private lo = 0x80;
  private hi = 0xbf;
  /** The run is invalid: each further byte is one U+FFFD. */
  private invalid = false;

  constructor(
    private readonly table: ByteRunTable,
    private readonly cap: number,
  ) {}

  /** The byte of a one-byte Bytes ID, else -1 (the ID ends a run). */
  private byteOf(id: number): number {
    if (id < 0 || id >= this.table.kind.length || this.table.kind[id] !== BYTES_KIND) return -1;
    const b = this.table.bytes[id];
    return b !== undefined && b.length === 1 ? (b[0] as number) : -1;
  }

  /** Whether a byte keeps the run valid UTF-8 so far (strict: no overlongs, surrogates, > U+10FFFF). */
  private accept(b: number): boolean {
    if (this.need > 0) {
      if (b < this.lo || b > this.hi) return false;
      this.need--;
      this.lo = 0x80;
      this.hi = 0xbf;
      return true;
    }
    if (b < 0x80) return true;
    if (b >= 0xc2 && b <= 0xdf) this.need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      this.need = 2;
      if (b === 0xe0) this.lo = 0xa0;
      else if (b === 0xed) this.hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      this.need = 3;
      if (b === 0xf0) this.lo = 0x90;
      else if (b === 0xf4) this.hi = 0x8f;
    } else return false;
    return true;
  }

  /** One ID of the stream; what may go on now goes to `sink`. */
  push(id: number, sink: IdSink): void {
    const b = this.byteOf(id);
    if (b < 0) {
      if (this.end(sink)) sink(id);
      return;
    }
    if (this.invalid) {
      sink(this.table.invalidId);
      return;
    }
    if (!this.accept(b)) {
      this.invalid = true;
      this.release(sink, true);
      sink(this.table.invalidId);
      return;
    }
    this.held.push(id);
    if (this.held.length >= this.cap && this.need === 0) this.release(sink, false);
  }

  /** The run ends (another ID, a stop, the end of input); false when the stream stopped. */
  end(sink: IdSink): boolean {
    const bad = this.invalid || this.need > 0;
    const ok = this.release(sink, bad);
    this.reset();
    return ok;
  }

  reset(): void {
    this.held = [];
    this.need = 0;
    this.lo = 0x80;
    this.hi = 0xbf;
    this.invalid = false;
  }

  /** Lets the held IDs go: unchanged, or each as the invalid byte. */
  private release(sink: IdSink, asInvalid: boolean): boolean {
    const held = this.held;
    this.held = [];
    for (const x of held) if (!sink(asInvalid ? this.table.invalidId : x)) return false;
    return true;
  }
}
