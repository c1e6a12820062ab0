// The chat builder's spans while it encodes: four flat arrays (start, end, message, field), one
// entry per span, the last one extended in place when the next tokens have the same owner and
// follow it directly. The ChatSpan objects are made in one loop at the end (toSpans). Measured
// on the bench's chat pool (embedded tokenizer, paired in one process): a span object pushed
// between one message's encoder call and the next cost ~1% of encodeChat more than the same
// spans recorded as numbers and made into objects afterwards. clear() keeps the arrays (a
// builder reused by its tokenizer reuses its span list too: chat/builder-spare.ts).
import type { ChatSpan } from "./builder.ts";

/** `message` as stored: null is -1 (the arrays hold only small integers). */
const NO_MESSAGE = -1;

export class SpanList {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly messages: number[] = [];
  /** Format code's field names ("content", "role", ...), never caller text. */
  private readonly fields: string[] = [];
  /** Entries in use (the arrays may hold more from before a clear()). */
  private n = 0;

  /** Attributes tokens [start, end) to (message, field): extends the last span when it is the same owner and adjacent. */
  add(message: number | null, field: string, start: number, end: number): void {
    const m = message ?? NO_MESSAGE;
    const last = this.n - 1;
    if (last >= 0 && this.ends[last] === start && this.messages[last] === m && this.fields[last] === field) {
      this.ends[last] = end;
      return;
    }
    const k = this.n++;
    this.starts[k] = start;
    this.ends[k] = end;
    this.messages[k] = m;
    this.fields[k] = field;
  }

  /** How many spans so far; entry k (below that) is read with the *At accessors. */
  get length(): number {
    return this.n;
  }

  /** Empty again; the arrays keep their room, up to `keep` entries (beyond it they are let go). */
  clear(keep: number): void {
    this.n = 0;
    if (this.ends.length > keep) {
      this.starts.length = 0;
      this.ends.length = 0;
      this.messages.length = 0;
      this.fields.length = 0;
    }
  }

  messageAt(k: number): number | null {
    const m = this.messages[k] as number;
    return m === NO_MESSAGE ? null : m;
  }

  fieldAt(k: number): string {
    return this.fields[k] as string;
  }

  startAt(k: number): number {
    return this.starts[k] as number;
  }

  endAt(k: number): number {
    return this.ends[k] as number;
  }

  /** The spans, in order. */
  toSpans(): ChatSpan[] {
    const n = this.n;
    const out = new Array<ChatSpan>(n);
    for (let k = 0; k < n; k++) {
      const m = this.messages[k] as number;
      out[k] = {
        message: m === NO_MESSAGE ? null : m,
        field: this.fields[k] as string,
        start: this.starts[k] as number,
        end: this.ends[k] as number,
      };
    }
    return out;
  }
}
