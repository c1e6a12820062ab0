// Incremental scan of a JSON tool call ({"name": ..., "arguments": ...}) for OpenAI-style
// streaming: the name as soon as its string is complete, the RAW text of the arguments value
// as it arrives. A small explicit state machine over UTF-16 code units that validates JSON as
// it goes (strings with escapes, numbers, literals, nesting): it never guesses, never closes
// anything, and stops at the first unit that makes the text malformed. Text is never held
// back: one arguments delta per fed chunk at most, cut exactly at the value's last unit.
//
//   ‹\n›{"name": "get_weather", "arguments": {"city": "Paris"}}‹\n›
//               └ name on the closing quote  └──── deltas ────┘ (never a unit beyond "}")
//
// Keys may come in any order. "arguments" and "parameters" are both argument keys; the first
// one met is streamed (JSON.parse keeps the LAST of duplicate keys: such a call can differ
// from the streamed one; the stream cannot take back text it already sent).
//
// Memory is bounded: the open containers are a fixed array of MAX_NESTING_DEPTH entries (a
// value nested deeper ends the stream there, like malformed text: the call itself is then an
// action_end error), and kept strings are capped (KEY_CAP, maxName).
import { MAX_NESTING_DEPTH } from "./limits.ts";

/** Where the scan results go (DecoderHandler's optional methods, made required). */
export interface ToolCallSink {
  onToolCallName(name: string): void;
  onToolCallArguments(text: string): void;
}

// ---- scanner states ----
/** Before the top-level value: String.prototype.trim whitespace (the call parser trims). */
const P_BEFORE = 0;
/** After ":" or "," in an array: a value. */
const P_VALUE = 1;
/** After "[": a value or "]". */
const P_VALUE_OR_CLOSE = 2;
/** After "{": a key or "}". */
const P_KEY_OR_CLOSE = 3;
/** After "," in an object: a key. */
const P_KEY = 4;
const P_COLON = 5;
/** After a value: "," or the container's closing bracket. */
const P_AFTER = 6;
const P_STR = 7;
/** After "\" in a string. */
const P_ESC = 8;
/** In the 4 hex digits of \uXXXX. */
const P_HEX = 9;
const P_NUM = 10;
/** In true / false / null. */
const P_LIT = 11;
/** The top-level object closed, or the text is malformed / not an object: nothing more. */
const P_DONE = 12;

// ---- number sub-states (-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?) ----
const N_MINUS = 0;
const N_ZERO = 1;
const N_INT = 2;
const N_DOT = 3;
const N_FRAC = 4;
const N_E = 5;
const N_ESIGN = 6;
const N_EXP = 7;

const NUM_TAKEN = 0;
const NUM_ENDED = 1;
const NUM_FAILED = 2;

// ---- what a string is ----
/** A value (not kept). */
const STR_VALUE = 0;
/** A key below the top level (not kept). */
const STR_KEY = 1;
/** A key of the top-level object (kept, compared with name / arguments / parameters). */
const STR_TOP_KEY = 2;
/** The value of the top-level "name" (kept: the tool name). */
const STR_NAME = 3;

// ---- role of the value after a top-level key ----
const V_OTHER = 0;
const V_NAME = 1;
const V_ARGS = 2;

// ---- containers ----
const C_OBJECT = 1;
const C_ARRAY = 2;

// ---- arguments stream ----
const A_NOT_YET = 0;
const A_STREAMING = 1;
const A_DONE = 2;

/** Longest top-level key kept for comparison ("parameters" is 10 units). */
const KEY_CAP = 16;

const LITERALS = ["true", "false", "null"] as const;

function isJsonWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** WhiteSpace and LineTerminator of ECMAScript (what String.prototype.trim removes). */
function isTrimWs(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function escapeValue(c: number): string {
  switch (c) {
    case 34:
      return '"';
    case 92:
      return "\\";
    case 47:
      return "/";
    case 98:
      return "\b";
    case 102:
      return "\f";
    case 110:
      return "\n";
    case 114:
      return "\r";
    case 116:
      return "\t";
    default:
      return "";
  }
}

/**
 * Feed it the action text in the chunks it arrives in; results go to the sink during feed().
 * One instance per stream, reset() at each action start.
 */
export class ToolCallScanner {
  private readonly sink: ToolCallSink;
  /** Cap on the kept name (longer names are not reported). */
  private readonly maxName: number;
  private state = P_BEFORE;
  /** Open containers (C_OBJECT / C_ARRAY) in stack[0 .. depth); the top-level object is depth 1. */
  private readonly stack = new Uint8Array(MAX_NESTING_DEPTH);
  private depth = 0;
  private num = N_MINUS;
  private lit = "";
  private litPos = 0;
  private hexLeft = 0;
  private hexCode = 0;
  private strKind = STR_VALUE;
  /** Decoded text of a kept string (top-level key or name). */
  private buf = "";
  /** Role of the next top-level value (set by its key). */
  private valRole = V_OTHER;
  private nameDone = false;
  private args = A_NOT_YET;
  /** The chunk being fed, and the start of its unsent arguments text. */
  private chunk = "";
  private segStart = 0;

  constructor(sink: ToolCallSink, maxName = 1_000_000) {
    this.sink = sink;
    this.maxName = maxName;
  }

  reset(): void {
    this.state = P_BEFORE;
    this.depth = 0;
    this.num = N_MINUS;
    this.lit = "";
    this.litPos = 0;
    this.hexLeft = 0;
    this.hexCode = 0;
    this.strKind = STR_VALUE;
    this.buf = "";
    this.valRole = V_OTHER;
    this.nameDone = false;
    this.args = A_NOT_YET;
    this.chunk = "";
    this.segStart = 0;
  }

  /** True once nothing more can be reported (object closed, or malformed). */
  get done(): boolean {
    return this.state === P_DONE;
  }

  feed(t: string): void {
    if (this.state === P_DONE) return;
    this.chunk = t;
    this.segStart = 0;
    const n = t.length;
    let i = 0;
    while (i < n) {
      const c = t.charCodeAt(i);
      switch (this.state) {
        case P_STR: {
          // Runs of plain units in one go (kept strings are sliced, not built per unit).
          let j = i;
          let d = c;
          while (d !== 34 && d !== 92 && d >= 32) {
            if (++j === n) break;
            d = t.charCodeAt(j);
          }
          if (j > i && this.strKind >= STR_TOP_KEY) this.keep(t.slice(i, j));
          if (j === n) {
            i = n;
            continue;
          }
          i = j;
          if (d === 34) this.closeString(i);
          else if (d === 92) this.state = P_ESC;
          else {
            this.fail(i);
            return;
          }
          break;
        }
        case P_ESC:
          if (c === 117) {
            this.state = P_HEX;
            this.hexLeft = 4;
            this.hexCode = 0;
          } else {
            const e = escapeValue(c);
            if (e === "") {
              this.fail(i);
              return;
            }
            if (this.strKind >= STR_TOP_KEY) this.keep(e);
            this.state = P_STR;
          }
          break;
        case P_HEX: {
          const v = hexValue(c);
          if (v < 0) {
            this.fail(i);
            return;
          }
          this.hexCode = this.hexCode * 16 + v;
          if (--this.hexLeft === 0) {
            if (this.strKind >= STR_TOP_KEY) this.keep(String.fromCharCode(this.hexCode));
            this.state = P_STR;
          }
          break;
        }
        case P_NUM: {
          const r = this.numberUnit(c, i);
          if (r === NUM_FAILED) return;
          // The number ended before this unit: look at it again as what follows a value.
          if (r === NUM_ENDED) continue;
          break;
        }
        case P_LIT:
          if (c !== this.lit.charCodeAt(this.litPos)) {
            this.fail(i);
            return;
          }
          if (++this.litPos === this.lit.length) this.valueDone(i + 1);
          break;
        case P_AFTER:
          if (!isJsonWs(c)) {
            const top = this.stack[this.depth - 1];
            if (c === 44) this.state = top === C_OBJECT ? P_KEY : P_VALUE;
            else if ((c === 125 && top === C_OBJECT) || (c === 93 && top === C_ARRAY)) {
              this.depth--;
              this.valueDone(i + 1);
            } else {
              this.fail(i);
              return;
            }
          }
          break;
        case P_VALUE:
          if (!isJsonWs(c) && !this.startValue(c, i)) return;
          break;
        case P_VALUE_OR_CLOSE:
          if (c === 93) {
            this.depth--;
            this.valueDone(i + 1);
          } else if (!isJsonWs(c) && !this.startValue(c, i)) return;
          break;
        case P_KEY_OR_CLOSE:
        case P_KEY:
          if (c === 34) this.startKey();
          else if (c === 125 && this.state === P_KEY_OR_CLOSE) {
            this.depth--;
            this.valueDone(i + 1);
          } else if (!isJsonWs(c)) {
            this.fail(i);
            return;
          }
          break;
        case P_COLON:
          if (c === 58) this.state = P_VALUE;
          else if (!isJsonWs(c)) {
            this.fail(i);
            return;
          }
          break;
        case P_BEFORE:
          if (c === 123) {
            this.stack[this.depth++] = C_OBJECT;
            this.state = P_KEY_OR_CLOSE;
          } else if (!isTrimWs(c)) {
            // Not an object: the call will not parse; nothing to report.
            this.state = P_DONE;
            return;
          }
          break;
        default:
          // P_DONE: the object closed in this chunk; what follows cannot change any event.
          return;
      }
      if (this.state === P_DONE) return;
      i++;
    }
    if (this.args === A_STREAMING) this.sendArgs(n);
  }

  private keep(s: string): void {
    const b = this.buf + s;
    if (this.strKind === STR_TOP_KEY ? b.length > KEY_CAP : b.length > this.maxName) {
      // Too long to be a key we look for / a name we report: stop keeping it.
      this.strKind = this.strKind === STR_TOP_KEY ? STR_KEY : STR_VALUE;
      this.buf = "";
    } else this.buf = b;
  }

  private startKey(): void {
    this.state = P_STR;
    this.strKind = this.depth === 1 ? STR_TOP_KEY : STR_KEY;
    this.buf = "";
  }

  private closeString(i: number): void {
    const kind = this.strKind;
    if (kind === STR_KEY || kind === STR_TOP_KEY) {
      if (kind === STR_TOP_KEY) {
        const k = this.buf;
        this.valRole = k === "name" ? V_NAME : k === "arguments" || k === "parameters" ? V_ARGS : V_OTHER;
      } else if (this.depth === 1) this.valRole = V_OTHER;
      this.buf = "";
      this.state = P_COLON;
      return;
    }
    if (kind === STR_NAME) {
      const name = this.buf;
      this.buf = "";
      this.nameDone = true;
      this.sink.onToolCallName(name);
    }
    this.valueDone(i + 1);
  }

  /** A value starts at unit i (c, not whitespace). False when c cannot start one. */
  private startValue(c: number, i: number): boolean {
    let role = V_OTHER;
    if ((c === 123 || c === 91) && this.depth === MAX_NESTING_DEPTH) {
      // Too deep to follow: what was valid goes out, then nothing more.
      this.fail(i);
      return false;
    }
    if (this.depth === 1) {
      role = this.valRole;
      this.valRole = V_OTHER;
    }
    switch (c) {
      case 123:
        this.stack[this.depth++] = C_OBJECT;
        this.state = P_KEY_OR_CLOSE;
        break;
      case 91:
        this.stack[this.depth++] = C_ARRAY;
        this.state = P_VALUE_OR_CLOSE;
        break;
      case 34:
        this.state = P_STR;
        this.strKind = role === V_NAME && !this.nameDone ? STR_NAME : STR_VALUE;
        this.buf = "";
        break;
      case 45:
        this.state = P_NUM;
        this.num = N_MINUS;
        break;
      case 48:
        this.state = P_NUM;
        this.num = N_ZERO;
        break;
      case 116:
      case 102:
      case 110:
        this.state = P_LIT;
        this.lit = c === 116 ? LITERALS[0] : c === 102 ? LITERALS[1] : LITERALS[2];
        this.litPos = 1;
        break;
      default:
        if (c >= 49 && c <= 57) {
          this.state = P_NUM;
          this.num = N_INT;
          break;
        }
        this.fail(i);
        return false;
    }
    if (role === V_ARGS && this.args === A_NOT_YET) {
      this.args = A_STREAMING;
      this.segStart = i;
    }
    return true;
  }

  /**
   * One unit of a number: NUM_TAKEN, NUM_ENDED (the number ended BEFORE this unit; the state
   * is now P_AFTER and the unit must be looked at again) or NUM_FAILED (malformed).
   */
  private numberUnit(c: number, i: number): number {
    const digit = c >= 48 && c <= 57;
    switch (this.num) {
      case N_MINUS:
        if (digit) {
          this.num = c === 48 ? N_ZERO : N_INT;
          return NUM_TAKEN;
        }
        break;
      case N_ZERO:
      case N_INT:
        if (digit && this.num === N_INT) return NUM_TAKEN;
        if (c === 46) {
          this.num = N_DOT;
          return NUM_TAKEN;
        }
        if (c === 101 || c === 69) {
          this.num = N_E;
          return NUM_TAKEN;
        }
        this.valueDone(i);
        return NUM_ENDED;
      case N_DOT:
        if (digit) {
          this.num = N_FRAC;
          return NUM_TAKEN;
        }
        break;
      case N_FRAC:
        if (digit) return NUM_TAKEN;
        if (c === 101 || c === 69) {
          this.num = N_E;
          return NUM_TAKEN;
        }
        this.valueDone(i);
        return NUM_ENDED;
      case N_E:
        if (digit || c === 43 || c === 45) {
          this.num = digit ? N_EXP : N_ESIGN;
          return NUM_TAKEN;
        }
        break;
      case N_ESIGN:
        if (digit) {
          this.num = N_EXP;
          return NUM_TAKEN;
        }
        break;
      default:
        // N_EXP
        if (digit) return NUM_TAKEN;
        this.valueDone(i);
        return NUM_ENDED;
    }
    this.fail(i);
    return NUM_FAILED;
  }

  /** A value ended just before unit `end` of the current chunk. */
  private valueDone(end: number): void {
    const depth = this.depth;
    if (depth === 0) {
      this.state = P_DONE;
      return;
    }
    this.state = P_AFTER;
    if (depth === 1 && this.args === A_STREAMING) {
      this.sendArgs(end);
      this.args = A_DONE;
    }
  }

  /** Malformed at unit i: what was valid goes out, then nothing more. */
  private fail(i: number): void {
    if (this.args === A_STREAMING) this.sendArgs(i);
    this.args = A_DONE;
    this.state = P_DONE;
  }

  /** The arguments text of the current chunk up to unit `end` (never an empty delta). */
  private sendArgs(end: number): void {
    if (end > this.segStart) this.sink.onToolCallArguments(this.chunk.slice(this.segStart, end));
    this.segStart = end;
  }
}
