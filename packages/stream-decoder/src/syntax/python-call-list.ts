// Body syntax "python-call-list": a Python list of calls with keyword arguments, one action per
// call (LFM2 / LFM2.5 between <|tool_call_start|> and <|tool_call_end|>):
//
//   [get_time(city="Paris"), Calendar.create_event(title="demo", tags=["a"], on=True)]
//   └────── action 1 ───────┘└──────────────────── action 2 ──────────────────────────┘
//
// The decoder feeds the body through feedCall() (BodyParser), which stops where the NEXT call's
// name starts: the decoder then ends the current action and opens another of the same kind
// (nextCall()), as for json-call-list. The list brackets may be left out (a bare call, or calls
// separated by ","). A name is a Python identifier that may also hold "." and "-" (dotted tool
// names such as `Calendar.create_event`; OpenAI tool names allow "-").
//
// The values are read the way LFM2's templates write them: a string value is the text between
// the quotes with nothing unescaped (the templates write `"` + value + `"`; a backslash only
// keeps the next quote from ending the string); a list is Python's str() of it (escaped
// strings), a dict JSON (`tojson`: true / null beside True / None). A small lexer (quotes, triple quotes, bracket depth) finds where each top-level value
// ends; the value is then read ONCE by ../python-literal.ts (literals only, nothing evaluated).
//
// Streamed: the name when its "(" arrives, then the arguments as JSON text (json.dumps spelling,
// ./json-text.ts) as the units arrive, at most one delta per fed chunk: a keyword's `{"city": `
// at its "=", a string value's text while it is read (`"Par` ... `is`; the closing quote when the
// value ends, since a Python string literal may be followed by another that it is joined to), any
// other value when it ends, `}` at the call's ")". Concatenated, the deltas are the arguments
// JSON. With the request's tools, a call naming any other tool is an error result naming it
// (knownTool). Linear in the body: every unit is lexed once, every value parsed once and its
// text streamed once; memory bounded by maxBufferedChars (a longer value or body is an error
// result); never throws on model output.
import type { ActionResult } from "../action-parse.ts";
import { MAX_NESTING_DEPTH } from "../limits.ts";
import { type JsonValue, parsePythonLiteral } from "../python-literal.ts";
import { PythonLiteralError } from "../python-literal-error.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, ToolSchemas } from "./body.ts";
import { FAILED, isJsonSpace, setKey, TranslatingBodyParser, tooLongError } from "./body-support.ts";
import { jsonString, jsonText } from "./json-text.ts";
import { LEX_ENDS, LEX_TOO_DEEP, LEX_UNMATCHED, PythonValueLexer } from "./python-value-lexer.ts";

// ---- states (and FAILED, after a fault: `error` says why) ----
/** Before "[" (or a bare call's name).   ‸[get_time(… */
const B_BEFORE = 0;
/** After "[" or ",": a call's name, or "]".   [‸get_time(… */
const B_CALL = 1;
/** In the name.   [get_ti‸me(… */
const B_NAME = 2;
/** After the name, before "(".   [get_time ‸(… */
const B_NAME_END = 3;
/** After "(" or ",": a keyword or ")".   (‸city=… */
const B_ARG = 4;
/** In a keyword.   (ci‸ty=… */
const B_KEY = 5;
/** After a keyword, before "=".   (city ‸=… */
const B_KEY_END = 6;
/** In a value (lexed for its end: depth-0 "," or ")").   (city="Pa‸ris"… */
const B_VALUE = 7;
/** After a call's ")": "," or "]".   …)‸, … */
const B_AFTER_CALL = 8;
/** After "]": only whitespace.   …)]‸ */
const B_DONE = 9;

// ---- a value's streaming (with a sink) ----
/** No quote read yet: the value is streamed when it ends unless its first unit opens a string. */
const V_UNDECIDED = 0;
/** The value opened with a string's quote (STRING_START); single or triple not known yet.   ="‸… */
const V_OPENING = 1;
/** In the value's first string literal: its text streams as it arrives.   ="Pa‸ris"… */
const V_TEXT = 2;
/** The first literal closed (or the value is no string): the rest goes out when the value ends. */
const V_REST = 3;

/** Python literal dialects of LFM2's templates (see the file comment). */
const RAW_STRING = { rawStrings: true, jsonNames: true } as const;
const NESTED = { jsonNames: true } as const;
/** A value that is one string literal: written raw (`"` + text + `"`). */
const STRING_START = /^\s*[rRuU]?["']/u;

function isIdStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
function isIdPart(c: number): boolean {
  return isIdStart(c) || (c >= 48 && c <= 57);
}
function isNamePart(c: number): boolean {
  return isIdPart(c) || c === 46 /* . */ || c === 45 /* - */;
}

export class PythonCallListParser extends TranslatingBodyParser implements BodyParser {
  /** The list has no brackets (a bare call). */
  private bare = false;
  /** A call begun in the current action; its ")" was read; the action ends at the next call. */
  private begun = false;
  private closed = false;
  private cut = false;
  private name = "";
  private key = "";
  private args: { [key: string]: JsonValue } = {};
  private argCount = 0;
  /** The current value's text so far (earlier chunks). */
  private value = "";
  /** Where the value ends (its strings and brackets). */
  private readonly lex = new PythonValueLexer();
  // ---- streaming of the open value (sink only) ----
  private vState = V_UNDECIDED;
  /** V_TEXT: the offset in the value's text of the first unit not yet streamed. */
  private vFrom = 0;
  /** Units of the value's JSON text streamed so far. */
  private vOut = 0;

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, _kind?: string): void {
    this.restartWith(sink, tools);
    this.bare = false;
    this.nextCall();
  }

  /** The decoder opened the action of the next call (after feedCall stopped before it). */
  nextCall(): void {
    this.begun = false;
    this.closed = false;
    this.cut = false;
    // The bound is per call: each call is its own action.
    this.fed = 0;
    this.name = "";
    this.key = "";
    this.args = {};
    this.argCount = 0;
    this.value = "";
  }

  feed(text: string): void {
    this.feedCall(text);
  }

  separator(): void {
    this.fail("a separator marker inside a Python call list");
  }

  /**
   * Reads `text` up to the start of the next call's name: the units consumed (text.length
   * unless the next call starts in it).
   */
  feedCall(text: string): number {
    const n = text.length;
    /** Where the current part (name, keyword or value) starts in this chunk. */
    let from = this.state === B_NAME || this.state === B_KEY || this.state === B_VALUE ? 0 : -1;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      switch (this.state) {
        case B_VALUE: {
          const quote = this.lex.quote;
          const opening = this.lex.opening;
          const goes = this.lexValue(c);
          // A string opened, its kind decided or it closed: the streaming of the value's text.
          if (
            this.sink !== null &&
            this.vState < V_REST &&
            (quote !== this.lex.quote || opening !== this.lex.opening)
          )
            this.stringMove(text, from, i, quote);
          if (goes) continue;
          // The value ends at this "," or ")".
          this.value += text.slice(from, i);
          from = -1;
          if (!this.endValue()) break;
          if (c === 41 /* ) */) this.endCall();
          else this.state = B_ARG;
          break;
        }
        case B_NAME:
          if (isNamePart(c)) break;
          this.name += text.slice(from, i);
          from = -1;
          if (c === 40 /* ( */) this.openArgs();
          else if (isJsonSpace(c)) this.state = B_NAME_END;
          else this.fail(`unexpected ${JSON.stringify(text[i])} in a call's name`);
          break;
        case B_KEY:
          if (isIdPart(c)) break;
          this.key += text.slice(from, i);
          from = -1;
          if (c === 61 /* = */) this.openValue();
          else if (isJsonSpace(c)) this.state = B_KEY_END;
          else this.fail("positional arguments are not allowed");
          break;
        case B_ARG:
          if (isJsonSpace(c)) break;
          if (c === 41) this.endCall();
          else if (isIdStart(c)) {
            this.state = B_KEY;
            this.key = "";
            from = i;
          } else this.fail("positional arguments are not allowed");
          break;
        case B_CALL:
          if (isJsonSpace(c)) break;
          if (isIdStart(c)) {
            if (this.begun) {
              this.cut = true;
              this.pending.flush();
              return i;
            }
            this.begun = true;
            this.state = B_NAME;
            this.name = "";
            from = i;
          } else if (c === 93 /* ] */ && !this.bare) this.state = B_DONE;
          else this.fail("expected a call in the list of calls");
          break;
        case B_BEFORE:
          if (isJsonSpace(c)) break;
          if (c === 91 /* [ */) this.state = B_CALL;
          else if (isIdStart(c)) {
            // A bare call: read as a list without its brackets.
            this.bare = true;
            this.state = B_CALL;
            i--;
          } else this.fail("the tool calls are not a Python list of calls");
          break;
        case B_NAME_END:
          if (isJsonSpace(c)) break;
          if (c === 40) this.openArgs();
          else this.fail('expected "(" after the call\'s name');
          break;
        case B_KEY_END:
          if (isJsonSpace(c)) break;
          if (c === 61) this.openValue();
          else this.fail("positional arguments are not allowed");
          break;
        case B_AFTER_CALL:
          if (isJsonSpace(c)) break;
          if (c === 44 /* , */) this.state = B_CALL;
          else if (c === 93 && !this.bare) this.state = B_DONE;
          else this.fail('expected "," or "]" after a call in the list');
          break;
        case B_DONE:
          if (!isJsonSpace(c)) this.fail("text after the list of calls");
          break;
        default:
          return n;
      }
      if (this.state === B_VALUE && from < 0) from = i + 1;
    }
    this.fed += n;
    if (this.fed > this.maxChars) {
      this.fail(tooLongError(this.maxChars));
      return n;
    }
    if (from >= 0 && from < n) {
      const rest = from === 0 ? text : text.slice(from);
      if (this.state === B_NAME) this.name += rest;
      else if (this.state === B_KEY) this.key += rest;
      else if (this.state === B_VALUE) this.value += rest;
    }
    if (this.state === B_VALUE && this.vState === V_TEXT) {
      // The string's text read so far, less a run of quotes that may be a triple quote's close.
      const end = this.value.length - (this.lex.triple ? this.lex.quoteRun : 0);
      this.streamText(this.value.slice(this.vFrom, end));
      this.vFrom = end;
    }
    this.pending.flush();
    return n;
  }

  /**
   * The lexer opened, decided or closed a string at unit i of `text` (`quote`: its quote before
   * the unit). Only the value's first string literal streams, and only when the value is that
   * string (STRING_START: the same test that picks the raw-string reading of the value).
   */
  private stringMove(text: string, from: number, i: number, quote: number): void {
    const at = this.value.length + i - from;
    switch (this.vState) {
      case V_UNDECIDED:
        // The value's first quote (unit i): does the value start with it?
        this.vState = STRING_START.test(this.valueText(text, from, 0, at + 1)) ? V_OPENING : V_REST;
        return;
      case V_OPENING:
        // A second quote: an empty literal or the start of a triple quote, known at the next unit.
        if (this.lex.opening !== 0) return;
        this.emitValue('"');
        if (this.lex.triple) {
          this.vState = V_TEXT;
          this.vFrom = at + 1;
        } else if (quote !== 0 && this.lex.quote === quote) {
          // One quote, then this unit: the first unit of the text.
          this.vState = V_TEXT;
          this.vFrom = at;
        } else this.vState = V_REST; // an empty literal, then this unit
        return;
      default: {
        // V_TEXT: the literal closed at this unit (a triple quote's first two quotes are before it).
        const end = this.lex.triple ? at - 2 : at;
        this.streamText(this.valueText(text, from, this.vFrom, end));
        this.vState = V_REST;
      }
    }
  }

  /** Units a..b of the value's text: the part kept (this.value), then `text` from `from` on. */
  private valueText(text: string, from: number, a: number, b: number): string {
    const base = this.value.length;
    if (b <= base) return this.value.slice(a, b);
    if (a >= base) return text.slice(from + a - base, from + b - base);
    return this.value.slice(a) + text.slice(from, from + b - base);
  }

  /** A piece of a raw string literal's text: its JSON (verbatim, escaped for JSON). */
  private streamText(s: string): void {
    if (s.length > 0) this.emitValue(jsonString(s).slice(1, -1));
  }

  private emitValue(s: string): void {
    this.pending.add(s);
    this.vOut += s.length;
  }

  /** One unit of a value: true while the value goes on, false at its depth-0 "," or ")". */
  private lexValue(c: number): boolean {
    const r = this.lex.unit(c);
    if (r === LEX_ENDS) return false;
    if (r === LEX_TOO_DEEP) this.fail(`the call is nested deeper than ${MAX_NESTING_DEPTH} levels`);
    else if (r === LEX_UNMATCHED) this.fail(`unexpected ${String.fromCharCode(c)} in a call's arguments`);
    return true;
  }

  private openArgs(): void {
    if (this.name.length === 0) {
      this.fail("the call has an empty name");
      return;
    }
    this.state = B_ARG;
    if (this.sink === null) return;
    this.pending.flush();
    this.sink.onToolCallName(this.name);
  }

  private openValue(): void {
    if (Object.hasOwn(this.args, this.key)) {
      this.fail(`keyword argument ${JSON.stringify(this.key)} repeated`);
      return;
    }
    this.state = B_VALUE;
    if (this.sink !== null) this.pending.add(`${this.argCount === 0 ? "{" : ", "}${jsonString(this.key)}: `);
    this.argCount++;
    this.vState = V_UNDECIDED;
    this.vOut = 0;
    this.value = "";
    this.lex.reset();
  }

  /** The value's text is complete: parsed once, kept and streamed. */
  private endValue(): boolean {
    let v: JsonValue;
    try {
      v = parsePythonLiteral(this.value, STRING_START.test(this.value) ? RAW_STRING : NESTED);
    } catch (e) {
      // Only PythonLiteralError is expected (the parser is depth-bounded: no RangeError).
      this.fail(e instanceof PythonLiteralError ? e.message : String(e));
      return false;
    }
    this.value = "";
    setKey(this.args, this.key, v);
    if (this.sink === null) return true;
    // The value nests at most MAX_NESTING_DEPTH deep: jsonText's recursion is bounded.
    const json = jsonText(v);
    // What streamed so far is the start of a string's JSON: a value that opens with a string
    // literal is that string (with any literals after it joined to it) or an error.
    if (this.vOut > 0 && typeof v !== "string") {
      this.fail("the value's streamed text is not its JSON");
      return false;
    }
    this.pending.add(this.vOut === 0 ? json : json.slice(this.vOut));
    return true;
  }

  private endCall(): void {
    this.closed = true;
    this.state = B_AFTER_CALL;
    if (this.sink !== null) this.pending.add(this.argCount === 0 ? "{}" : "}");
  }

  end(_raw: string): ActionResult {
    const r = this.finish();
    // The sink stays: after a cut the decoder opens the next call's action (nextCall()).
    this.args = {};
    this.value = "";
    return r;
  }

  protected result(): ActionResult {
    if (this.state === FAILED) return { error: this.error };
    if (!this.begun)
      return { error: this.state === B_DONE ? "the list of calls is empty" : "no call in the list of calls" };
    if (!this.closed) return { error: 'the call is not closed by ")"' };
    if (!this.cut && !this.bare && this.state !== B_DONE)
      return { error: 'the list of calls is not closed by "]"' };
    return { call: { name: this.name, arguments: this.args } };
  }

  protected dropPartial(): void {
    this.value = "";
  }
}
