// Where a format renders to: the ChatBuilder (token IDs, spans, audit) or the TextRenderer (the
// prompt as text with reserved tokens written out, like apply_chat_template(tokenize=False)).
// Format code talks only to this interface, so both come from the same rendering.
import { type SpecialTextPolicy, specialTokenError } from "../special-text/policy.ts";
import type { SpecialScanner } from "../special-text/scanner.ts";
import type { CallerRef } from "./builder.ts";

export interface ChatSink {
  /** A reserved ID placed by format code. */
  reserved(id: number, message: number | null, field: string): void;
  /** Template text (written by format code, holds no reserved string). */
  text(text: string, message: number | null, field: string): void;
  /** Caller text: audited (rejected under "reject"), encoded as ordinary text. */
  caller(text: string, message: number | null, field: string, ref?: CallerRef): void;
  /** Template text whose reserved strings become their IDs (format literals only, never caller text). */
  template(text: string, message: number | null, field: string): void;
  /** End the current text run (ChatGLM3's separate enc calls). */
  cut(): void;
}

/** Renders to a string: reserved IDs by their names, text as is. */
export class TextRenderer implements ChatSink {
  private readonly parts: string[] = [];

  constructor(
    private readonly names: ReadonlyMap<number, string>,
    private readonly scanner: SpecialScanner,
    private readonly policy: SpecialTextPolicy,
  ) {}

  reserved(id: number): void {
    this.parts.push(this.names.get(id) ?? "");
  }

  text(text: string): void {
    this.parts.push(text);
  }

  caller(text: string, message: number | null, field: string, ref: CallerRef = { field }): void {
    if (this.policy === "reject") {
      const m = this.scanner.first(text);
      if (m !== undefined)
        throw specialTokenError({ ...m, index: m.index + (ref.offset ?? 0) }, { message, field: ref.field });
    }
    this.parts.push(text);
  }

  template(text: string): void {
    this.parts.push(text);
  }

  cut(): void {}

  finish(): string {
    return this.parts.join("");
  }
}
