// The grammar's whitespace rules as the reference decoder applies them to a span's text, in
// two small pieces with no knowledge of markers or events:
// - LeadingText: text the template writes right after a marker (every "\n" of an lstrip, or a
//   fixed prefix such as Llama 3's "\n\n"), dropped from the start of the span;
// - TrailingNewlines: "\n" at the end of the text held back, because the template may have
//   written them before the next marker (dropped or released when the span ends).
import { Nl } from "../spec.ts";

function repeatNl(n: number): string {
  return n > 0 ? "\n".repeat(n) : "";
}

export class LeadingText {
  /** Drop every leading "\n" of the span. */
  private lstrip = false;
  /** A prefix still to drop (matched unit by unit across pieces), null: none. */
  private prefix: string | null = null;

  /** Nl.All: every "\n" after the marker; Nl.One: one "\n"; anything else: nothing. */
  afterMarker(rule: number): void {
    if (rule === Nl.All) this.lstrip = true;
    else if (rule === Nl.One) this.dropPrefix("\n");
  }

  dropPrefix(s: string): void {
    this.prefix = s === "" ? null : s;
  }

  /** Whether a rule still waits for text. */
  get active(): boolean {
    return this.lstrip || this.prefix !== null;
  }

  /** The piece minus what the rules drop (possibly ""). */
  take(piece: string): string {
    let t = piece;
    if (this.lstrip) {
      const rest = t.replace(/^\n+/, "");
      if (rest === "") return "";
      this.lstrip = false;
      t = rest;
    }
    if (this.prefix !== null) {
      const d = this.prefix;
      let i = 0;
      while (i < t.length && i < d.length && t[i] === d[i]) i++;
      // The whole prefix was seen, or the text differs from it: dropping is over; else the
      // rest of the prefix may still come in the next piece.
      this.prefix = i === d.length || i < t.length ? null : d.slice(i);
      t = t.slice(i);
    }
    return t;
  }

  /** The span ended: the rules no longer apply. */
  clear(): void {
    this.lstrip = false;
    this.prefix = null;
  }
}

export class TrailingNewlines {
  /** Nl.* of the current text state (Nl.OneBeforeEnd: right after a block that has that afterClose). */
  mode: number = Nl.None;
  /** "\n" held back. */
  held = 0;

  /** The text of a piece that may go out now (possibly ""); trailing "\n" held by the mode. */
  shape(t: string): string {
    if (this.mode === Nl.None) return t;
    let trailing = 0;
    while (trailing < t.length && t[t.length - 1 - trailing] === "\n") trailing++;
    if (trailing === t.length) {
      if (this.mode === Nl.One) {
        // Only the last "\n" can be the template's; the ones before it are text.
        const out = this.held + trailing - 1;
        this.held = 1;
        return repeatNl(out);
      }
      this.held += trailing;
      return "";
    }
    const whole = repeatNl(this.held) + t;
    this.held = 0;
    if (this.mode === Nl.OneBeforeEnd) {
      // Text after the block: the one "\n" before the message end was not the template's.
      this.mode = Nl.None;
      return whole;
    }
    const hold = this.mode === Nl.All ? trailing : trailing > 0 ? 1 : 0;
    this.held = hold;
    return whole.slice(0, whole.length - hold);
  }

  /** The span ends at a marker whose rule drops `drop` (Nl.All: every held "\n", Nl.One: one). */
  close(drop: number): string {
    const n = drop === Nl.All ? 0 : drop === Nl.One ? this.held - 1 : this.held;
    this.held = 0;
    return repeatNl(n);
  }
}
