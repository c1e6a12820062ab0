// Body syntax "marker-quoted-call": a call written as `call:NAME{key:value,...}` whose strings
// are quoted by a reserved marker (the block's separator) instead of a character:
//
//   call:get_time{city:‹q›San Francisco‹q›,days:3,opts:{units:‹q›metric‹q›,raw:true},tags:[]}
//   └── name ───┘└────────────────────── arguments ──────────────────────────────────────┘
//
// Keys are bare text up to ":" (or marker-quoted); values are marker-quoted strings (the text
// between the two markers, verbatim: the quote is a token, so nothing inside needs escaping),
// numbers, true / false, null / None, lists `[v,...]` and objects `{k:v,...}`. A bare value
// that is none of these is read as a string (trimmed). The `call:` prefix may be left out.
//
// Streamed as it is read: the name at the "{" that opens the arguments, then the arguments as
// JSON text (json.dumps spelling, ./json-text.ts) translated unit by unit: a string's text
// streams as it arrives, a bare value (number, literal) when its delimiter arrives; at most one
// delta per fed chunk. The value is built beside (no second pass). With the request's tools, a
// call naming any other tool is an error result naming it (knownTool). Linear in the body, memory
// bounded by maxBufferedChars (a longer body is an error result) and nesting by
// MAX_NESTING_DEPTH; never throws on model output.
import type { ActionResult } from "../action-parse.ts";
import { MAX_NESTING_DEPTH } from "../limits.ts";
import type { JsonValue } from "../python-literal.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, ToolSchemas } from "./body.ts";
import { FAILED, isJsonSpace, setKey, TranslatingBodyParser } from "./body-support.ts";
import { jsonNumber, jsonString } from "./json-text.ts";

// ---- states (and FAILED, after a fault: `error` says why) ----
/** Before the arguments' "{": the `call:NAME` head.   call:get_ti‸me{… */
const M_HEAD = 0;
/** After "{" or an object's ",": a key (or "}" right after "{").   {‸city:… */
const M_KEY = 1;
/** In a bare key.   {ci‸ty:… */
const M_BARE_KEY = 2;
/** In a marker-quoted key.   {‹q›ci‸ty‹q›:… */
const M_QUOTED_KEY = 3;
/** After a marker-quoted key: ":".   {‹q›city‹q›‸:… */
const M_COLON = 4;
/** A value (or "]" right after "[").   {city:‸‹q›Paris‹q›… */
const M_VALUE = 5;
/** In a marker-quoted string.   {city:‹q›Pa‸ris‹q›… */
const M_STRING = 6;
/** In a bare value (number, literal, bare word).   {days:3‸… */
const M_BARE = 7;
/** After a value: "," or the container's close.   {days:3‸,… */
const M_AFTER = 8;
/** After the arguments' "}": only whitespace.   …}‸ */
const M_DONE = 9;

const PREFIX = "call:";
/** A number as the templates print one (Python's str() of an int or float; JSON's too). */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/u;

type Container = JsonValue[] | { [key: string]: JsonValue };

/** A bare value's meaning. */
function bareValue(text: string): JsonValue {
  const t = text.trim();
  if (t === "true") return true;
  if (t === "false") return false;
  if (t === "null" || t === "None") return null;
  if (NUMBER.test(t)) {
    const n = Number(t);
    if (Number.isFinite(n)) return n;
  }
  return t;
}

/** JSON text of a scalar (the arguments delta of a bare value). */
function scalarJson(v: JsonValue): string {
  if (typeof v === "number") return jsonNumber(v);
  if (typeof v === "string") return jsonString(v);
  return v === null ? "null" : String(v);
}

export class MarkerQuotedCallParser extends TranslatingBodyParser implements BodyParser {
  /** The head, a key or a bare value being read; a string's text. */
  private part = "";
  private name = "";
  /** Open containers, outermost first; `keys[i]` the pending key of an object at i. */
  private readonly stack: Container[] = [];
  private readonly keys: string[] = [];
  /** Whether the container at i has an item yet (for the "," of the JSON text). */
  private readonly filled: boolean[] = [];
  private result_: JsonValue | undefined;

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, _kind?: string): void {
    this.restartWith(sink, tools);
    this.part = "";
    this.name = "";
    this.stack.length = 0;
    this.keys.length = 0;
    this.filled.length = 0;
    this.result_ = undefined;
  }

  /** The quote marker. */
  separator(): void {
    switch (this.state) {
      case M_KEY:
        this.state = M_QUOTED_KEY;
        this.part = "";
        return;
      case M_QUOTED_KEY:
        if (this.key(this.part)) this.state = M_COLON;
        return;
      case M_VALUE:
        this.item();
        this.pending.add('"');
        this.state = M_STRING;
        this.part = "";
        return;
      case M_STRING:
        this.pending.add('"');
        this.value(this.part);
        return;
      case FAILED:
        return;
      default:
        this.fail("a quote marker where no string can start");
    }
  }

  feed(text: string): void {
    if (!this.admit(text)) return;
    const n = text.length;
    /** Where the text of the current part starts in this chunk (-1: none). */
    let from = this.state === M_HEAD || this.state === M_BARE_KEY || this.state === M_BARE ? 0 : -1;
    for (let i = 0; i < n && this.state !== FAILED; i++) {
      const c = text.charCodeAt(i);
      switch (this.state) {
        case M_STRING: {
          // The whole rest of the chunk is string text (the quote is a marker, never a unit).
          const s = i === 0 ? text : text.slice(i);
          this.part += s;
          this.pending.add(jsonString(s).slice(1, -1));
          i = n;
          break;
        }
        case M_QUOTED_KEY:
          this.part += i === 0 ? text : text.slice(i);
          i = n;
          break;
        case M_HEAD:
          if (c !== 123 /* { */) break;
          this.part += text.slice(from, i);
          from = -1;
          this.head();
          break;
        case M_BARE_KEY:
          if (c !== 58 /* : */) break;
          this.part += text.slice(from, i);
          from = -1;
          if (this.key(this.part.trim())) this.state = M_VALUE;
          break;
        case M_BARE:
          if (c !== 44 && c !== 125 && c !== 93) break;
          this.part += text.slice(from, i);
          from = -1;
          this.bare();
          this.after(c);
          break;
        case M_KEY:
          if (isJsonSpace(c)) break;
          if (c === 125 && this.isEmpty()) this.close(c);
          else if (c === 58 || c === 44 || c === 125)
            this.fail(`unexpected ${text[i]} where a key should be`);
          else {
            this.state = M_BARE_KEY;
            this.part = "";
            from = i;
          }
          break;
        case M_COLON:
          if (isJsonSpace(c)) break;
          if (c === 58) this.state = M_VALUE;
          else this.fail('expected ":" after a key');
          break;
        case M_VALUE:
          if (isJsonSpace(c)) break;
          if (c === 123 || c === 91) this.open(c);
          else if (c === 93 && this.isEmpty()) this.close(c);
          else if (c === 44 || c === 125 || c === 93)
            this.fail(`unexpected ${text[i]} where a value should be`);
          else {
            this.state = M_BARE;
            this.part = "";
            from = i;
          }
          break;
        case M_AFTER:
          if (!isJsonSpace(c)) this.after(c);
          break;
        default:
          // M_DONE
          if (!isJsonSpace(c)) this.fail("text after the call's arguments");
      }
    }
    if (this.state === FAILED) return;
    if (from >= 0 && from < n) this.part += from === 0 ? text : text.slice(from);
    this.pending.flush();
  }

  /** The head before "{" is `call:NAME` (or NAME): the name is known. */
  private head(): void {
    const h = this.part.trim();
    this.name = (h.startsWith(PREFIX) ? h.slice(PREFIX.length) : h).trim();
    this.part = "";
    if (this.name.length === 0 || this.name.includes("\n")) {
      this.fail("the tool call has an empty or multi-line name");
      return;
    }
    this.sink?.onToolCallName(this.name);
    this.open(123);
  }

  /** "," or a close after a value. */
  private after(c: number): void {
    if (c === 44) {
      this.state = Array.isArray(this.stack.at(-1)) ? M_VALUE : M_KEY;
      return;
    }
    if (c === 125 || c === 93) {
      this.close(c);
      return;
    }
    this.fail('expected "," or a closing bracket after a value');
  }

  private open(c: number): void {
    if (this.stack.length >= MAX_NESTING_DEPTH) {
      this.fail(`the call is nested deeper than ${MAX_NESTING_DEPTH} levels`);
      return;
    }
    if (this.stack.length > 0) this.item();
    const object = c === 123;
    this.stack.push(object ? {} : []);
    this.keys.push("");
    this.filled.push(false);
    this.pending.add(object ? "{" : "[");
    this.state = object ? M_KEY : M_VALUE;
  }

  /** The container closes with `c` ("}" or "]"), which must be its own. */
  private close(c: number): void {
    const top = this.stack.at(-1);
    if (top === undefined || Array.isArray(top) !== (c === 93)) {
      this.fail(`unexpected ${String.fromCharCode(c)}`);
      return;
    }
    this.stack.pop();
    this.keys.pop();
    this.filled.pop();
    this.pending.add(c === 93 ? "]" : "}");
    this.value(top);
  }

  private isEmpty(): boolean {
    return this.filled.at(-1) === false;
  }

  /** An object's key: its JSON text now (the value's text follows). False: malformed. */
  private key(k: string): boolean {
    if (k.length === 0) {
      this.fail("an empty key");
      return false;
    }
    const top = this.stack.at(-1);
    if (top !== undefined && !Array.isArray(top) && Object.hasOwn(top, k)) {
      this.fail(`key ${JSON.stringify(k.slice(0, 40))} repeated`);
      return false;
    }
    this.keys[this.keys.length - 1] = k;
    this.pending.add(`${this.filled.at(-1) === true ? ", " : ""}${jsonString(k)}: `);
    this.filled[this.filled.length - 1] = true;
    return true;
  }

  /** An array item starts: its "," in the JSON text. */
  private item(): void {
    if (!Array.isArray(this.stack.at(-1))) return;
    if (this.filled.at(-1) === true) this.pending.add(", ");
    this.filled[this.filled.length - 1] = true;
  }

  private bare(): void {
    const v = bareValue(this.part);
    this.part = "";
    this.item();
    this.pending.add(scalarJson(v));
    this.value(v);
  }

  /** A complete value goes into its container (or is the arguments). */
  private value(v: JsonValue): void {
    this.part = "";
    const top = this.stack.at(-1);
    if (top === undefined) {
      this.result_ = v;
      this.state = M_DONE;
      return;
    }
    if (Array.isArray(top)) top.push(v);
    else setKey(top, this.keys.at(-1) ?? "", v);
    this.state = M_AFTER;
  }

  end(_raw: string): ActionResult {
    const r = this.finish();
    this.stack.length = 0;
    this.result_ = undefined;
    this.part = "";
    return r;
  }

  protected result(): ActionResult {
    if (this.state === FAILED) return { error: this.error };
    if (this.state === M_HEAD) return { error: 'the tool call has no "{" after its name' };
    const v = this.result_;
    if (this.state !== M_DONE || v === undefined || typeof v !== "object" || v === null || Array.isArray(v))
      return { error: "the call's arguments are not closed" };
    return { call: { name: this.name, arguments: v } };
  }

  protected dropPartial(): void {
    this.part = "";
  }
}
