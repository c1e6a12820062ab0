// The arguments of a "response-field" region whose content is one JSON object (the arguments
// themselves: transform path []), streamed one top-level member at a time as each completes:
//
//   call:get_time{city:<|"|>Paris<|"|>,days:3}
//                 └──── member 1 ────┘ └ 2 ┘
//   deltas  {"city":"Paris"   ,"days":3   } (the "}" once the region closes)
//
// Each member is read exactly as the whole region is (./response-field.ts `content` on
// `{MEMBER}`: the lax knobs, JSON.parse, the schema typing of its key) and written as
// JSON.stringify writes it in the whole object, so the deltas are the start of the arguments'
// JSON. Members are found by a small lexer (JSON strings with escapes, the delimited strings,
// bracket depth); a part it cannot place (a member that is not one key, text before the "{")
// stops the streaming, and the rest comes at the close. What can still make the arguments differ
// from what streamed is a key written twice (JSON.parse keeps the last value at the first
// key's place): the owner compares at the close (`sent`).
//
// Linear: every unit is lexed once (a delimited string's close is searched from where the last
// search stopped), every member read once. Memory: the open member's text and the text sent.
import type { ResponseFieldBody } from "@chatwire/tokenizer";

/** Reads `{MEMBER}` as the region's content would be read and typed; null when it is not one member. */
export type MemberReader = (text: string) => string | null;

// ---- states ----
/** Before the object's "{" (whitespace only).   ‸{city:… */
const R_BEFORE = 0;
/** Inside the object, outside any string.   {city:‸… */
const R_IN = 1;
/** In a JSON string.   {"ci‸ty":… */
const R_STRING = 2;
/** In a delimited string (`delim` says which).   {city:<|"|>Pa‸ris… */
const R_DELIM = 3;
/** The object closed, or streaming stopped: nothing more is read. */
const R_OFF = 4;

export class MemberStream {
  private state = R_BEFORE;
  /** The open member's text, from after its "{" or ","; `pos`: how far it is lexed. */
  private member = "";
  private pos = 0;
  private depth = 0;
  private escaped = false;
  private delim = 0;
  /** R_DELIM: where the search for the close continues. */
  private searchFrom = 0;
  private count = 0;
  /** The JSON text sent so far (the arguments' start). */
  sent = "";

  constructor(
    private readonly delims: ReadonlyArray<readonly [string, string]>,
    private readonly read: MemberReader,
    private readonly emit: ((text: string) => void) | null,
  ) {}

  /** More of the content (the region's text after its header). */
  feed(text: string): void {
    if (this.state === R_OFF || text.length === 0) return;
    this.member += text;
    this.lex();
  }

  private lex(): void {
    const b = this.member;
    /** Where the open member starts in b (the text before it is dropped at the end). */
    let start = 0;
    let i = this.pos;
    lexing: while (i < b.length) {
      switch (this.state) {
        case R_BEFORE: {
          const c = b.charCodeAt(i);
          if (c === 32 || c === 9 || c === 10 || c === 13) {
            i++;
            break;
          }
          if (c !== 123 /* { */) {
            this.off();
            return;
          }
          i++;
          start = i;
          this.depth = 1;
          this.state = R_IN;
          break;
        }
        case R_STRING: {
          const c = b.charCodeAt(i);
          i++;
          if (this.escaped) this.escaped = false;
          else if (c === 92 /* \ */) this.escaped = true;
          else if (c === 34 /* " */) this.state = R_IN;
          break;
        }
        case R_DELIM: {
          const [open, close] = this.delims[this.delim] as readonly [string, string];
          const from = Math.max(this.searchFrom, i + open.length);
          const j = b.indexOf(close, from);
          if (j < 0) {
            // The close may start in the last units: the next search starts there.
            this.searchFrom = Math.max(from, b.length - close.length + 1);
            break lexing;
          }
          i = j + close.length;
          this.state = R_IN;
          break;
        }
        case R_IN: {
          // A delimited string first, as the lax reading extracts them before anything else.
          const d = this.delimAt(b, i);
          if (d === -2) break lexing;
          if (d >= 0) {
            this.delim = d;
            this.searchFrom = 0;
            this.state = R_DELIM;
            break;
          }
          const c = b.charCodeAt(i);
          if (c === 34) {
            this.state = R_STRING;
            this.escaped = false;
          } else if (c === 123 || c === 91) this.depth++;
          else if (c === 125 || c === 93) {
            if (--this.depth === 0) {
              this.memberEnds(b.slice(start, i), true);
              return;
            }
          } else if (c === 44 /* , */ && this.depth === 1) {
            if (!this.memberEnds(b.slice(start, i), false)) return;
            start = i + 1;
          }
          i++;
          break;
        }
        default:
          return;
      }
    }
    // Keep the open member only; positions move with it.
    if (start > 0) {
      this.member = b.slice(start);
      if (this.state === R_DELIM) this.searchFrom = Math.max(0, this.searchFrom - start);
    }
    this.pos = i - start;
  }

  /** The index of the delimiter opening at b[i], -1 none, -2 not known yet (b ends in one's prefix). */
  private delimAt(b: string, i: number): number {
    let maybe = false;
    for (let k = 0; k < this.delims.length; k++) {
      const open = (this.delims[k] as readonly [string, string])[0];
      if (open.length === 0) continue;
      if (b.startsWith(open, i)) return k;
      if (b.length - i < open.length && open.startsWith(b.slice(i))) maybe = true;
    }
    return maybe ? -2 : -1;
  }

  /** A member's text is complete; false when it cannot be streamed (then nothing more is). */
  private memberEnds(text: string, last: boolean): boolean {
    // `{}` (or `{ }`): no member.
    if (last && this.count === 0 && text.trim() === "") {
      this.off();
      return false;
    }
    const json = this.read(text);
    if (json === null) {
      this.off();
      return false;
    }
    const piece = `${this.count === 0 ? "{" : ","}${json}`;
    this.count++;
    this.sent += piece;
    this.emit?.(piece);
    if (last) this.off();
    return !last;
  }

  private off(): void {
    this.state = R_OFF;
    this.member = "";
  }
}

/** Whether a region's arguments stream by member: JSON content that is the arguments, the name in the header. */
export function streamsMembers(f: ResponseFieldBody): boolean {
  return (
    f.content === "json" &&
    "content" in f.arguments &&
    f.arguments.content.length === 0 &&
    "capture" in f.name
  );
}
