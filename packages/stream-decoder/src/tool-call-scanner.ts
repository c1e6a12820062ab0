// Incremental reading of a JSON tool call, one pass over the chunks as they arrive:
//  - for OpenAI-style streaming (a sink), the name as soon as its string is complete and the
//    RAW text of the arguments value as it arrives;
//  - with `build`, the value itself, built as it is read, so the call at the body's end needs
//    no second pass (what JSON.parse would give; a property test holds the two together).
// A small explicit state machine over UTF-16 code units that validates JSON as it goes
// (strings with escapes, numbers, literals, nesting): it never guesses, never closes anything,
// and stops at the first unit that makes the text malformed. Text is never held back: one
// arguments delta per fed chunk at most, cut exactly at the value's last unit.
//
//   ‹\n›{"name": "get_weather", "arguments": {"city": "Paris"}}‹\n›
//               └ name on the closing quote  └──── deltas ────┘ (never a unit beyond "}")
//
// Two shapes of top-level value (ScanTop): a call object, where keys may come in any order,
// "arguments" and "parameters" are both argument keys and the first one met is streamed; or
// the arguments value itself (a body whose name came before, e.g. fenced-json-call). What may
// follow the value is the body syntax's (ScanTrail): whitespace only, or a closing fence.
// A second top-level "name" key is remembered (duplicateName): the stream cannot take back
// the name it sent, so the call parsers reject such a call.
//
// Memory is bounded: the open containers are a fixed array of MAX_NESTING_DEPTH entries (a
// value nested deeper ends the scan there, like malformed text), kept strings are capped
// (KEY_CAP, maxName) when not building, and a built value is dropped past `maxKept` fed units.
import { MAX_NESTING_DEPTH } from "./limits.ts";
import type { JsonValue } from "./python-literal.ts";

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
/** The top-level value is complete: only what ScanTrail allows may follow.   {…}‸\n */
const P_TRAIL = 12;
/** Malformed, not the expected shape, or too deep: nothing more. */
const P_DONE = 13;

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
/** A value (kept only when building). */
const STR_VALUE = 0;
/** A key below the top level (kept only when building). */
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
/** The place of a top-level arguments value (ScanTop "arguments"): holds the root. */
const C_ROOT = 3;

// ---- arguments stream ----
const A_NOT_YET = 0;
const A_STREAMING = 1;
const A_DONE = 2;

/** Longest top-level key kept for comparison ("parameters" is 10 units). */
const KEY_CAP = 16;

/**
 * The top-level value: "call", an object `{"name": …, "arguments" | "parameters": …}` (trim
 * whitespace before it); "arguments", the arguments value itself, any JSON value (JSON
 * whitespace before it, as JSON.parse takes); "named", an object whose first key is the tool
 * name and its value the arguments (Apertus `{"NAME": {...}}`; a second key counts as a second
 * name, duplicateName).
 */
export type ScanTop = "call" | "arguments" | "named";

/**
 * What may follow the top-level value: "trim", String.prototype.trim whitespace; "fence",
 * JSON whitespace, then "```", then trim whitespace (the fenced-json-call body's end).
 */
export type ScanTrail = "trim" | "fence";

export interface ScanOptions {
  readonly top?: ScanTop;
  readonly trail?: ScanTrail;
  /** Build the value as it is read (result()). Default false: stream only. */
  readonly build?: boolean;
  /** Fed units beyond which a built value is dropped (the body is then too long). */
  readonly maxKept?: number;
  /** The key of the tool name in a "call" object (default "name"; Command-R "tool_name"). */
  readonly nameKey?: string;
}

/** A JSON object as JSON.parse makes it (own data properties, "__proto__" included). */
export type JsonObject = { [key: string]: JsonValue };

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

/** Sets a key as JSON.parse does (CreateDataProperty: "__proto__" is an ordinary own key). */
function setKey(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__")
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/**
 * Feed it the action text in the chunks it arrives in; stream results go to the sink during
 * feed(), the built value is result() once the text is complete. One instance per stream,
 * reset() at each action start.
 */
export class ToolCallScanner {
  private sink: ToolCallSink | null;
  /** Cap on the kept name (longer names are not reported). */
  private readonly maxName: number;
  private readonly argsTop: boolean;
  private readonly named: boolean;
  private readonly nameKey: string;
  /** Cap on a kept top-level key: a named call's key is its name. */
  private readonly keyCap: number;
  private readonly fenceTrail: boolean;
  private readonly buildOption: boolean;
  private readonly maxKept: number;
  private state = P_BEFORE;
  /**
   * Open containers (C_OBJECT / C_ARRAY / C_ROOT) in stack[0 .. depth); the top-level object is
   * depth 1. At most MAX_NESTING_DEPTH entries (startValue). A plain array grown as needed, not a
   * typed array of the cap: a reader is made per decoder, and a typed array of that size is
   * allocated outside the JS heap, which cost more than a short call's whole read.
   */
  private readonly stack: number[] = [];
  private depth = 0;
  private num = N_MINUS;
  private lit = "";
  private litPos = 0;
  private hexLeft = 0;
  private hexCode = 0;
  private strKind = STR_VALUE;
  /** Not building: decoded text of a kept string (a top-level key or the name, capped). */
  private buf = "";
  /**
   * Building: the decoded text of the open string. Concatenated per piece on purpose: V8 keeps
   * it as a rope that is flattened only if someone reads it (an array joined at the close cost
   * more than the whole body's JSON.parse).
   */
  private str = "";
  /** Role of the next top-level value (set by its key). */
  private valRole = V_OTHER;
  private nameDone = false;
  private nameKeys = 0;
  private args = A_NOT_YET;
  /** The arguments value is a JSON string (not streamed: the call parser decodes it once). */
  private argsString = false;
  /** The chunk being fed, and the start of its unsent arguments text. */
  private chunk = "";
  private segStart = 0;
  /** Building: on for this body (off once maxKept is passed). */
  private build: boolean;
  private fed = 0;
  /** Building: the open containers' values and keys, by depth - 1 (null: the root's place). */
  private readonly values: (JsonObject | JsonValue[] | null)[] = [];
  private readonly keys: string[] = [];
  private root: JsonValue = null;
  /** Building: the number's text from earlier chunks, and where it starts in this one. */
  private numText = "";
  private numStart = 0;
  /** P_TRAIL with a "fence" trail: backquotes of "```" seen. */
  private ticks = 0;

  constructor(sink: ToolCallSink | null, maxName = 1_000_000, options: ScanOptions = {}) {
    this.sink = sink;
    this.maxName = maxName;
    this.argsTop = options.top === "arguments";
    this.named = options.top === "named";
    this.nameKey = options.nameKey ?? "name";
    this.keyCap = this.named ? maxName : Math.max(KEY_CAP, this.nameKey.length);
    this.fenceTrail = options.trail === "fence";
    this.buildOption = options.build === true;
    this.build = this.buildOption;
    this.maxKept = options.maxKept ?? Number.POSITIVE_INFINITY;
    this.reset(sink);
  }

  /** A new body; `sink` replaces the current one (null: nothing streamed). */
  reset(sink: ToolCallSink | null = this.sink): void {
    this.sink = sink;
    this.depth = 0;
    this.valRole = V_OTHER;
    // (Setting an array's length is a builtin call: skipped when there is nothing to drop.)
    if (this.values.length !== 0) this.values.length = 0;
    if (this.keys.length !== 0) this.keys.length = 0;
    if (this.argsTop) {
      // The arguments value sits where a call object's "arguments" value would: depth 1.
      this.stack[0] = C_ROOT;
      this.depth = 1;
      this.valRole = V_ARGS;
      this.state = P_VALUE;
      this.values.push(null);
    } else this.state = P_BEFORE;
    this.num = N_MINUS;
    this.lit = "";
    this.litPos = 0;
    this.hexLeft = 0;
    this.hexCode = 0;
    this.strKind = STR_VALUE;
    this.buf = "";
    this.str = "";
    this.nameDone = false;
    this.nameKeys = 0;
    this.args = A_NOT_YET;
    this.argsString = false;
    this.chunk = "";
    this.segStart = 0;
    this.build = this.buildOption;
    this.fed = 0;
    this.root = null;
    this.numText = "";
    this.ticks = 0;
  }

  /** True once nothing more can be reported (the value closed, or malformed). */
  get done(): boolean {
    return this.state >= P_TRAIL;
  }

  /** More than one top-level name key was read. */
  get duplicateName(): boolean {
    return this.nameKeys > 1;
  }

  /**
   * The arguments value was a JSON string: nothing of it was streamed (a call parser that
   * decodes it once sends the decoded arguments as one delta at the end).
   */
  get argumentsString(): boolean {
    return this.argsString;
  }

  /**
   * The built value when the text fed so far is one complete top-level value of the expected
   * shape followed only by what the trail allows; undefined otherwise (malformed, incomplete,
   * not that shape, nested deeper than MAX_NESTING_DEPTH, longer than maxKept, not building).
   */
  result(): JsonValue | undefined {
    if (this.state !== P_TRAIL || !this.build) return undefined;
    if (this.fenceTrail && this.ticks < 3) return undefined;
    return this.root;
  }

  feed(t: string): void {
    // Small on purpose (inlined into the body parser's feed): most of a call is argument text.
    if (this.state === P_STR && this.strKind === STR_VALUE && this.plainValueChunk(t)) return;
    this.feedUnits(t);
  }

  /**
   * Hot path: the chunk lies inside a string value (no quote, backslash or control unit). What
   * feedUnits() does for such a chunk, without its per-chunk set-up. False: nothing was done.
   */
  private plainValueChunk(t: string): boolean {
    const n = t.length;
    for (let j = 0; j < n; j++) {
      const d = t.charCodeAt(j);
      if (d === 34 || d === 92 || d < 32) return false;
    }
    this.plainValue(t);
    return true;
  }

  /** True inside a string value: a JSON-plain chunk now only adds to that string (feedPlain). */
  get inStringValue(): boolean {
    return this.state === P_STR && this.strKind === STR_VALUE;
  }

  /**
   * feed() of a chunk known to hold no quote, backslash or control unit (JSON-plain: the
   * decoder's per-ID table says so): inside a string value it is taken whole, with no scan.
   */
  feedPlain(t: string): void {
    if (this.state === P_STR && this.strKind === STR_VALUE) this.plainValue(t);
    else this.feedUnits(t);
  }

  /** A JSON-plain chunk inside a string value: kept (building) and streamed. */
  private plainValue(t: string): void {
    const n = t.length;
    if (this.build) {
      this.fed += n;
      if (this.fed <= this.maxKept) this.str += t;
      else this.dropBuild();
    }
    if (this.args === A_STREAMING && n > 0 && this.sink !== null) this.sink.onToolCallArguments(t);
  }

  private feedUnits(t: string): void {
    const n = t.length;
    // Not building, nothing after the value can be reported.
    if (this.state === P_DONE || (this.state === P_TRAIL && !this.build)) return;
    if (this.build) {
      this.fed += n;
      if (this.fed > this.maxKept) this.dropBuild();
    }
    const build = this.build;
    this.chunk = t;
    this.segStart = 0;
    this.numStart = 0;
    let i = 0;
    while (i < n) {
      const c = t.charCodeAt(i);
      switch (this.state) {
        case P_STR: {
          // Runs of plain units in one go (kept strings are sliced, not built per unit; a chunk
          // inside one string is kept whole, no slice).
          let j = i;
          let d = c;
          while (d !== 34 && d !== 92 && d >= 32) {
            if (++j === n) break;
            d = t.charCodeAt(j);
          }
          if (j > i) {
            if (build) this.str += i === 0 && j === n ? t : t.slice(i, j);
            else if (this.strKind >= STR_TOP_KEY) this.keep(t.slice(i, j));
          }
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
            if (build) this.str += e;
            else if (this.strKind >= STR_TOP_KEY) this.keep(e);
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
            if (build) this.str += String.fromCharCode(this.hexCode);
            else if (this.strKind >= STR_TOP_KEY) this.keep(String.fromCharCode(this.hexCode));
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
          if (++this.litPos === this.lit.length)
            this.valueDone(i + 1, this.lit === "null" ? null : this.lit === "true");
          break;
        case P_AFTER:
          if (!isJsonWs(c)) {
            const top = this.stack[this.depth - 1];
            if (c === 44) this.state = top === C_OBJECT ? P_KEY : P_VALUE;
            else if ((c === 125 && top === C_OBJECT) || (c === 93 && top === C_ARRAY)) this.closeContainer(i);
            else {
              this.fail(i);
              return;
            }
          }
          break;
        case P_VALUE:
          if (!isJsonWs(c) && !this.startValue(c, i)) return;
          break;
        case P_VALUE_OR_CLOSE:
          if (c === 93) this.closeContainer(i);
          else if (!isJsonWs(c) && !this.startValue(c, i)) return;
          break;
        case P_KEY_OR_CLOSE:
        case P_KEY:
          if (c === 34) this.startKey();
          else if (c === 125 && this.state === P_KEY_OR_CLOSE) this.closeContainer(i);
          else if (!isJsonWs(c)) {
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
            if (build) this.values.push({});
          } else if (!isTrimWs(c)) {
            // Not an object: the call will not parse; nothing to report.
            this.state = P_DONE;
            return;
          }
          break;
        case P_TRAIL:
          // Nothing more is reported; only whether the text stays acceptable is followed.
          if (!this.trailUnit(c)) {
            this.state = P_DONE;
            return;
          }
          break;
        default:
          // P_DONE: malformed; what follows cannot change any event.
          return;
      }
      if (this.state === P_DONE) return;
      i++;
    }
    if (this.args === A_STREAMING) this.sendArgs(n);
    // A number's digits so far (it ends at the first unit after it, in a later chunk).
    if (build && this.state === P_NUM) this.numText += t.slice(this.numStart);
  }

  /** One unit after the top-level value; false when the trail does not allow it. */
  private trailUnit(c: number): boolean {
    if (!this.fenceTrail || this.ticks === 3) return isTrimWs(c);
    if (c === 96) {
      this.ticks++;
      return true;
    }
    return this.ticks === 0 && isJsonWs(c);
  }

  private keep(s: string): void {
    const b = this.buf + s;
    if (this.strKind === STR_TOP_KEY ? b.length > this.keyCap : b.length > this.maxName) {
      // Too long to be a key we look for / a name we report: stop keeping it.
      this.strKind = this.strKind === STR_TOP_KEY ? STR_KEY : STR_VALUE;
      this.buf = "";
    } else this.buf = b;
  }

  private startKey(): void {
    this.state = P_STR;
    this.strKind = this.depth === 1 ? STR_TOP_KEY : STR_KEY;
    this.buf = "";
    this.str = "";
  }

  private closeString(i: number): void {
    const kind = this.strKind;
    const s = this.build ? this.joined() : this.buf;
    this.buf = "";
    if (kind === STR_KEY || kind === STR_TOP_KEY) {
      if (kind === STR_TOP_KEY) {
        // Building, `s` is the whole key; else at most KEY_CAP units (a longer key is STR_KEY).
        if (this.named) {
          // {"NAME": ARGS}: the first key is the name, its value the arguments.
          if (++this.nameKeys === 1 && s.length <= this.maxName) {
            this.nameDone = true;
            this.sink?.onToolCallName(s);
          }
          this.valRole = this.nameKeys === 1 ? V_ARGS : V_OTHER;
        } else if (s === this.nameKey) {
          this.valRole = V_NAME;
          this.nameKeys++;
        } else this.valRole = s === "arguments" || s === "parameters" ? V_ARGS : V_OTHER;
      } else if (this.depth === 1) this.valRole = V_OTHER;
      if (this.build) this.keys[this.depth - 1] = s;
      this.state = P_COLON;
      return;
    }
    // Building, the cap on a reported name is checked here (not building, keep() did it).
    if (kind === STR_NAME && s.length <= this.maxName) {
      this.nameDone = true;
      this.sink?.onToolCallName(s);
    }
    this.valueDone(i + 1, s);
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
        if (this.build) this.values.push({});
        break;
      case 91:
        this.stack[this.depth++] = C_ARRAY;
        this.state = P_VALUE_OR_CLOSE;
        if (this.build) this.values.push([]);
        break;
      case 34:
        this.state = P_STR;
        this.strKind = role === V_NAME && !this.nameDone ? STR_NAME : STR_VALUE;
        this.buf = "";
        this.str = "";
        break;
      case 45:
        this.startNumber(N_MINUS, i);
        break;
      case 48:
        this.startNumber(N_ZERO, i);
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
          this.startNumber(N_INT, i);
          break;
        }
        this.fail(i);
        return false;
    }
    if (role === V_ARGS && this.args === A_NOT_YET) {
      if (c === 34 && !this.argsTop) {
        // A JSON string holding the arguments: its raw text is not the arguments' JSON.
        this.args = A_DONE;
        this.argsString = true;
      } else {
        this.args = A_STREAMING;
        this.segStart = i;
      }
    }
    return true;
  }

  private startNumber(sub: number, i: number): void {
    this.state = P_NUM;
    this.num = sub;
    this.numText = "";
    this.numStart = i;
  }

  /** The number ended before unit i: its value (Number() of valid JSON number text is JSON.parse's). */
  private numberDone(i: number): void {
    this.valueDone(i, this.build ? Number(this.numText + this.chunk.slice(this.numStart, i)) : 0);
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
        this.numberDone(i);
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
        this.numberDone(i);
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
        this.numberDone(i);
        return NUM_ENDED;
    }
    this.fail(i);
    return NUM_FAILED;
  }

  /** The open container closes at unit i. */
  private closeContainer(i: number): void {
    this.depth--;
    this.valueDone(i + 1, this.build ? (this.values.pop() as JsonObject | JsonValue[]) : null);
  }

  /** A value `v` (meaningful only when building) ended just before unit `end` of the current chunk. */
  private valueDone(end: number, v: JsonValue): void {
    const depth = this.depth;
    if (depth === 0) {
      if (this.build) this.root = v;
      this.state = P_TRAIL;
      return;
    }
    if (this.build) {
      const parent = this.values[depth - 1];
      if (parent === null || parent === undefined) this.root = v;
      else if (Array.isArray(parent)) parent.push(v);
      else setKey(parent, this.keys[depth - 1] as string, v);
    }
    this.state = P_AFTER;
    if (depth === 1) {
      if (this.args === A_STREAMING) {
        this.sendArgs(end);
        this.args = A_DONE;
      }
      if (this.stack[0] === C_ROOT) this.state = P_TRAIL;
    }
  }

  /** The open string's pieces as one string (building). */
  private joined(): string {
    const s = this.str;
    this.str = "";
    return s;
  }

  /**
   * Past maxKept: the value is not built (result() undefined); streaming goes on. The open
   * string's text moves to `buf`: keep() caps it from here on as it does when not building.
   */
  private dropBuild(): void {
    this.buf = this.joined();
    this.build = false;
    this.values.length = 0;
    this.keys.length = 0;
    this.root = null;
    this.numText = "";
  }

  /** Malformed at unit i: what was valid goes out, then nothing more. */
  private fail(i: number): void {
    if (this.args === A_STREAMING) this.sendArgs(i);
    this.args = A_DONE;
    this.state = P_DONE;
    this.values.length = 0;
    this.root = null;
  }

  /** The arguments text of the current chunk up to unit `end` (never an empty delta). */
  private sendArgs(end: number): void {
    if (end > this.segStart && this.sink !== null)
      this.sink.onToolCallArguments(this.chunk.slice(this.segStart, end));
    this.segStart = end;
  }
}
