// HF tokenizers' added-token lstrip / rstrip on the template path (added_vocabulary.rs
// find_matches): when an added token with lstrip is matched, the whitespace run before it (back
// to the end of the previous match) is part of the match, so it is never encoded; with rstrip,
// the whitespace run after it (up to the next match) is. "Whitespace" is Rust regex `\s`
// (Unicode White_Space: U+0085 and U+3000 are, U+FEFF is not — unlike JS `\s`). A match here is
// what the template path places as an ID: a reserved string in template-origin text, or a text
// piece; caller text spelling a reserved string is no match (it strips nothing and is never an
// ID). The stripped whitespace may be template or caller text, as in HF: removing whitespace
// cannot place an ID. Caller text that loses whitespace is passed on shorter (its audit offset
// moved by what was dropped in front), so the builder's spans still tile the IDs.
//
// A filter in front of the ChatBuilder: text since the last match is held until the next match
// (an lstrip token trims its tail), each character is looked at at most twice: linear.
import type { CallerRef } from "../chat/builder.ts";
import type { ChatSink } from "../chat/sink.ts";
import type { SpecialScanner } from "../special-text/scanner.ts";

/** Rust `char::is_whitespace` / regex `\s` (Unicode White_Space); every such character is in the BMP. */
export function isRustWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

function leadingWhitespace(s: string): number {
  let i = 0;
  while (i < s.length && isRustWhitespace(s.charCodeAt(i))) i++;
  return i;
}

function withoutTrailingWhitespace(s: string): string {
  let j = s.length;
  while (j > 0 && isRustWhitespace(s.charCodeAt(j - 1))) j--;
  return j === s.length ? s : s.slice(0, j);
}

interface Held {
  readonly caller: boolean;
  text: string;
  readonly message: number | null;
  readonly field: string;
  readonly ref: CallerRef | undefined;
}

export interface StripSets {
  /** IDs whose match takes the whitespace before it. */
  readonly lstrip: ReadonlySet<number>;
  /** IDs whose match takes the whitespace after it. */
  readonly rstrip: ReadonlySet<number>;
}

export class StripSink implements ChatSink {
  private held: Held[] = [];
  private stripLead = false;

  constructor(
    private readonly target: ChatSink,
    private readonly scanner: SpecialScanner,
    private readonly sets: StripSets,
  ) {}

  reserved(id: number, message: number | null, field: string): void {
    if (this.sets.lstrip.has(id)) this.trimTail();
    this.flush();
    this.target.reserved(id, message, field);
    this.stripLead = this.sets.rstrip.has(id);
  }

  text(text: string, message: number | null, field: string): void {
    this.hold(false, text, message, field, undefined);
  }

  caller(text: string, message: number | null, field: string, ref?: CallerRef): void {
    this.hold(true, text, message, field, ref);
  }

  template(text: string, message: number | null, field: string): void {
    let from = 0;
    for (const m of this.scanner.scan(text)) {
      if (m.index > from) this.text(text.slice(from, m.index), message, field);
      this.reserved(m.id, message, "marker");
      from = m.index + m.token.length;
    }
    if (from < text.length) this.text(text.slice(from), message, field);
  }

  cut(): void {
    this.flush();
    this.target.cut();
  }

  /** Passes on what is held (call before reading the target). */
  finish(): void {
    this.flush();
  }

  private hold(
    caller: boolean,
    raw: string,
    message: number | null,
    field: string,
    ref: CallerRef | undefined,
  ): void {
    let text = raw;
    let r = ref;
    if (this.stripLead) {
      const n = leadingWhitespace(text);
      if (n === text.length) return;
      this.stripLead = false;
      if (n > 0) {
        text = text.slice(n);
        if (caller) r = { field: ref?.field ?? field, offset: (ref?.offset ?? 0) + n };
      }
    }
    if (text.length === 0) return;
    if (this.sets.lstrip.size === 0) this.pass({ caller, text, message, field, ref: r });
    else this.held.push({ caller, text, message, field, ref: r });
  }

  private trimTail(): void {
    const held = this.held;
    while (held.length > 0) {
      const last = held[held.length - 1] as Held;
      last.text = withoutTrailingWhitespace(last.text);
      if (last.text.length > 0) return;
      held.pop();
    }
  }

  private flush(): void {
    for (const h of this.held) this.pass(h);
    this.held = [];
  }

  private pass(h: Held): void {
    if (h.caller) this.target.caller(h.text, h.message, h.field, h.ref);
    else this.target.text(h.text, h.message, h.field);
  }
}
