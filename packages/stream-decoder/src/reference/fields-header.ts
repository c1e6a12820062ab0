// A header made of named fields (Header.Harmony), as the reference decoder collects it between
// its message start and header end: the text before any field marker, then one part per field
// marker (channel, constrain), parsed at the header end by ../harmony-header.ts.
//
//   ‹start›assistant to=functions.f‹channel›commentary json‹message›
//          ^ part 0 (head)           ^ part 1 (channel)     ^ parsed here
import { P_CHANNEL, P_CONSTRAIN, P_HEAD } from "../harmony-header.ts";
import { HeaderField } from "../spec.ts";

/** Most parts (field markers + 1) of one header. */
export const MAX_FIELD_PARTS = 64;

export class FieldsHeader {
  kinds: number[] = [P_HEAD];
  texts: string[] = [""];
  chars = 0;

  constructor(
    /** The role the prompt already wrote (undefined: none). */
    readonly presetRole: string | undefined,
  ) {}

  /** Whether any field marker or text came. */
  get begun(): boolean {
    return this.kinds.length > 1 || this.texts[0] !== "";
  }

  addText(t: string): void {
    this.chars += t.length;
    this.texts[this.texts.length - 1] += t;
  }

  /** A field marker (HeaderField.*) starts a new part. */
  addField(field: number): void {
    this.kinds.push(field === HeaderField.Channel ? P_CHANNEL : P_CONSTRAIN);
    this.texts.push("");
  }
}
