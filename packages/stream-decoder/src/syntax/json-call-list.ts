// Body syntax "json-call-list": a JSON list of json-call objects, one action per element
// (docs/families/ says which families write it):
//
//   [{"name": "a", "arguments": {...}, "id": "..."}, {"name": "b", "arguments": {...}}]
//   └──────────── action 1 ─────────────────────────┘└──────────── action 2 ──────────┘
//
// The decoder feeds the body through feedCall() (BodyParser), which stops where the NEXT element
// starts (its "{" after a ","): the decoder then ends the current action and opens another of
// the same kind at that point (nextCall()). So an action's text is `[{...}, ` for the first
// element and `{...}, ` / `{...}]` for the others, and every consumer that reads one call per
// action sees one call per element. A small lexer (strings, escapes, bracket depth) finds the
// element boundaries; the element object itself is read as json-call reads a body (streamed
// through the incremental JSON reader when there is a sink, JSON.parse at the action's end
// otherwise); its string "id" is the call's id. Linear in the body, keeps nothing but offsets and the reader's bounded state,
// never throws: a malformed list is an error result of the action it is in.
import { type ActionResult, jsonCallResult, parseJsonCall } from "../action-parse.ts";
import { ToolCallScanner, type ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserOptions, ToolSchemas } from "./body.ts";

// ---- states ----
/** Before "[".   ‸[{"name": … */
const L_BEFORE = 0;
/** After "[" or ",": an element's "{" (or "]" of an empty list).   [‸{"name": … */
const L_ELEMENT = 1;
/** Inside an element object.   [{"na‸me": … */
const L_IN = 2;
/** After an element: "," or "]".   …}‸, {… */
const L_AFTER = 3;
/** After "]": only whitespace.   …}]‸ */
const L_DONE = 4;
/** Malformed: `error` says why; the rest of the body is not read. */
const L_FAIL = 5;

const ARGUMENTS_FIRST: readonly string[] = ["arguments", "parameters"];
const PARAMETERS_FIRST: readonly string[] = ["parameters", "arguments"];

/** JSON whitespace (space, \t, \n, \r). */
function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

export class JsonCallListParser implements BodyParser {
  private readonly argsKeys: readonly string[];
  private readonly maxChars: number;
  /** Made at the first streamed body; null until then. */
  private scanner: ToolCallScanner | null = null;
  private sink: ToolCallSink | null = null;
  private state = L_BEFORE;
  private error = "";
  /** Elements begun in the whole list. */
  private elements = 0;
  /** An element begun in the current action. */
  private begun = false;
  /** The current action ends because the next element starts (not at the body's end). */
  private cut = false;
  /** Units of the current action's text consumed so far. */
  private pos = 0;
  /** The current element's object in the action's text: [start, end). */
  private start = 0;
  private end_ = 0;
  /** Bracket depth inside the element; string and escape state. */
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(options: BodyParserOptions) {
    this.argsKeys = options.argumentsKey === "parameters" ? PARAMETERS_FIRST : ARGUMENTS_FIRST;
    this.maxChars = options.maxBufferedChars;
  }

  reset(sink: ToolCallSink | null, _tools: ToolSchemas | undefined, _kind?: string): void {
    this.sink = sink;
    this.state = L_BEFORE;
    this.error = "";
    this.elements = 0;
    this.nextCall();
  }

  /** The decoder opened the action of the next element (after feedCall stopped before it). */
  nextCall(): void {
    this.begun = false;
    this.cut = false;
    this.pos = 0;
    this.start = 0;
    this.end_ = 0;
    if (this.sink === null) return;
    const max = this.maxChars;
    if (this.scanner === null)
      this.scanner = new ToolCallScanner(this.sink, max, { build: true, maxKept: max });
    else this.scanner.reset(this.sink);
  }

  /** The decoder calls feedCall for this syntax; feed() reads like it but cannot report a cut. */
  feed(text: string): void {
    this.feedCall(text);
  }

  /**
   * Reads `text` up to the start of the next element: the units consumed (text.length unless
   * the next element starts in it; then the decoder ends this action, calls nextCall() and
   * feeds the rest).
   */
  feedCall(text: string): number {
    const n = text.length;
    /** Where the element's text in this chunk starts (-1: none). */
    let seg = this.state === L_IN ? 0 : -1;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      switch (this.state) {
        case L_IN:
          if (this.inString) {
            if (this.escaped) this.escaped = false;
            else if (c === 92) this.escaped = true;
            else if (c === 34) this.inString = false;
          } else if (c === 34) this.inString = true;
          else if (c === 123 || c === 91) this.depth++;
          else if ((c === 125 || c === 93) && --this.depth === 0) {
            this.state = L_AFTER;
            this.end_ = this.pos + i + 1;
            this.stream(text, seg, i + 1);
            seg = -1;
          }
          break;
        case L_BEFORE:
          if (c === 91) this.state = L_ELEMENT;
          else if (!isSpace(c)) this.fail("the tool calls are not a JSON list");
          break;
        case L_ELEMENT:
          if (c === 123) {
            if (this.begun) {
              this.cut = true;
              this.pos += i;
              return i;
            }
            this.begun = true;
            this.elements++;
            this.state = L_IN;
            this.depth = 1;
            this.inString = false;
            this.escaped = false;
            this.start = this.pos + i;
            seg = i;
          } else if (c === 93 && this.elements === 0) this.state = L_DONE;
          else if (!isSpace(c)) this.fail("expected a call object in the list of calls");
          break;
        case L_AFTER:
          if (c === 44) this.state = L_ELEMENT;
          else if (c === 93) this.state = L_DONE;
          else if (!isSpace(c)) this.fail('expected "," or "]" after a call in the list');
          break;
        case L_DONE:
          if (!isSpace(c)) this.fail("text after the list of calls");
          break;
        default:
          this.pos += n;
          return n;
      }
    }
    this.stream(text, seg, n);
    this.pos += n;
    return n;
  }

  /** The element's text text[from, to) to the incremental reader (streamed bodies only). */
  private stream(text: string, from: number, to: number): void {
    if (from < 0 || from >= to || this.sink === null) return;
    this.scanner?.feed(from === 0 && to === text.length ? text : text.slice(from, to));
  }

  separator(): void {}

  /** `raw`: this action's text (the decoder's; the element is read from it). */
  end(raw: string): ActionResult {
    const r = this.result(raw);
    this.scanner?.reset(null);
    return r;
  }

  private result(raw: string): ActionResult {
    if (this.state === L_FAIL) return { error: this.error };
    if (!this.begun)
      return { error: this.state === L_DONE ? "the list of calls is empty" : "no call in the list of calls" };
    if (this.state === L_IN) return { error: "the call object is not closed" };
    if (!this.cut && this.state !== L_DONE) return { error: 'the list of calls is not closed by "]"' };
    if (raw.length < this.end_) return { error: "the tool call body text is incomplete" };
    const element = raw.slice(this.start, this.end_);
    if (this.sink === null || this.scanner === null) return parseJsonCall(element, this.argsKeys, "id");
    return jsonCallResult(this.scanner, element, this.argsKeys, "id");
  }

  private fail(why: string): void {
    this.state = L_FAIL;
    this.error = why;
  }
}

/** The factory of syntax/index.ts: one parser per decoder (reset() at each block open). */
export function createJsonCallListParser(options: BodyParserOptions): BodyParser {
  return new JsonCallListParser(options);
}
