// Body syntax "python-call": the action kind is the tool's name (a metadata line), the
// body a (fenced) Python `tool_call(k=v, ...)` with literal arguments:
//
//   ```python
//   tool_call(path='notes.md', content='line 1\nline 2')
//   ```
//
// Read as it arrives: the fence, the call's name and keywords are checked unit by unit, a value
// that is one plain quoted string is decoded (escapes included) into its text as the chunks come,
// and any other value is kept until it ends and parsed once by ../python-literal.ts. So a long
// string argument is read once, while its pieces are fresh, instead of being joined and parsed
// again at the close. Inside such a string a JSON-plain piece (BodyParser.feedPlain) is text as
// it is unless it holds the string's single quote, and the decoder may join a run of them
// (defersPlain): the string's text and the raw text then share one concatenation per token.
//
// The result is by construction what parsePythonToolCall (../action-parse.ts) makes of the whole
// body: the reader follows only the plain shapes (ASCII whitespace, no comments or line
// continuations, no adjacent literals, prefixes or triple quotes in a streamed string) and, at
// the first unit outside them, stops and leaves the body to parsePythonToolCall(raw) at the close
// (raw is the text the decoder keeps anyway). Either way the arguments go out as ONE delta at
// the close (streamToolCalls): the Python spelling is converted, not streamed.
//
// Linear in the body: every unit is read once here, and at most once more by the fallback.
// Memory: the decoded text, one pending value's text and the keyword (bounded by
// maxBufferedChars: past it the reader falls back, and the decoder's own bound on raw applies).
import { type ActionResult, parsePythonToolCall } from "../action-parse.ts";
import { type JsonValue, parsePythonLiteral, SIMPLE_ESCAPES } from "../python-literal.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, ToolSchemas } from "./body.ts";
import { BoundedBodyParser, setKey } from "./body-support.ts";
import { LEX_ENDS, LEX_GOES, PythonValueLexer } from "./python-value-lexer.ts";

// ---- states ----
/** Before the fence or the name.   ‸```python… */
const P_LEAD = 0;
/** In the opening fence's backticks.   `‸``python… */
const P_TICKS = 1;
/** The fence's language, then spaces or tabs, then an optional "\r".   ```py‸thon⏎ */
const P_FENCE_LINE = 2;
/** After "\r" in the fence line: "\n" must follow.   ```python\r‸ */
const P_FENCE_CR = 3;
/** Whitespace before the name.   ```python⏎‸tool_call(… */
const P_BEFORE_NAME = 4;
/** In the name.   tool_ca‸ll(… */
const P_NAME = 5;
/** After the name: whitespace, then "(".   tool_call ‸(… */
const P_NAME_END = 6;
/** After "(" or ",": a keyword or ")".   (‸path=… */
const P_ARG = 7;
/** In a keyword.   (pa‸th=… */
const P_KEY = 8;
/** After a keyword: whitespace, then "=".   (path ‸=… */
const P_KEY_END = 9;
/** Right after "=": a second "=" is a comparison, not a keyword.   (path=‸… */
const P_EQ = 10;
/** Whitespace before a value.   (path= ‸'notes.md'… */
const P_VALUE = 11;
/** After a value's opening quote: a second quote is an empty or triple-quoted literal.   ='‸… */
const P_STR_OPEN = 12;
/** After two quotes: a third opens a triple-quoted literal, anything else follows an empty one.   =''‸… */
const P_STR_EMPTY = 23;
/** In a streamed string.   ='note‸s.md'… */
const P_STR = 13;
/** After a backslash in a streamed string.   ='a\‸n… */
const P_ESC = 14;
/** Octal escape digits.   ='\01‸… */
const P_OCT = 15;
/** \x, \u or \U escape digits.   ='\u00‸e9… */
const P_HEX = 16;
/** After "\\\r": a "\n" that belongs to the line continuation.   ='a\⏎‸… */
const P_ESC_CR = 17;
/** After a streamed string's closing quote: whitespace, then "," or ")".   ='notes.md'‸, … */
const P_STR_END = 18;
/** Any other value, kept until its depth-0 "," or ")".   =[1, 2‸]… */
const P_KEPT = 19;
/** After ")": whitespace, the closing fence if one opened.   )‸⏎``` */
const P_AFTER_CALL = 20;
/** In the closing fence's backticks.   ⏎`‸`` */
const P_CLOSE_TICKS = 21;
/** After the closing fence (or the call without a fence): whitespace only.   ```‸ */
const P_DONE = 22;

/** What the fence's language may hold (action-parse.ts stripFence: [A-Za-z0-9_+-]). */
function isLangUnit(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 43 || c === 45
  );
}
function isIdStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
function isIdPart(c: number): boolean {
  return isIdStart(c) || (c >= 48 && c <= 57);
}
/** The whitespace python-literal.ts skips, but for comments and line continuations. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}
function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * Past maxBufferedChars, at a separator or outside the plain shapes the reader fails (the base's
 * FAILED state, no error of its own): parsePythonToolCall(raw) decides at the close.
 */
export class PythonCallParser extends BoundedBodyParser implements BodyParser {
  private sink: ToolCallSink | null = null;
  private kind = "";
  private fenced = false;
  /** Backticks read in the current fence. */
  private ticks = 0;
  /** The fence line had spaces or tabs after its language. */
  private fenceSpace = false;
  private name = "";
  private key = "";
  private args: { [key: string]: JsonValue } = {};
  /** The streamed string's text so far (P_STR ... P_STR_END). */
  private text = "";
  /** The string's quote unit. */
  private quote = 0;
  /** An escape's digits so far (P_OCT, P_HEX) and, for P_HEX, how many it takes. */
  private digits = "";
  private width = 0;
  /** P_KEPT: the value's text so far, and where it ends. */
  private kept = "";
  private readonly lexer = new PythonValueLexer();
  /** During feed(): the chunk, and where the open name, keyword or kept value starts in it (-1: before it). */
  private chunk = "";
  private from = -1;

  reset(sink: ToolCallSink | null, _tools: ToolSchemas | undefined, kind = ""): void {
    this.sink = sink;
    this.kind = kind;
    if (sink !== null) sink.onToolCallName(kind);
    this.restart(); // P_LEAD, nothing fed
    this.fenced = false;
    this.ticks = 0;
    this.name = "";
    this.key = "";
    this.args = {};
    this.text = "";
    this.kept = "";
  }

  separator(): void {
    this.fallBack();
  }

  feed(chunk: string): void {
    if (!this.admit(chunk)) return;
    const n = chunk.length;
    this.chunk = chunk;
    this.from = this.state === P_NAME || this.state === P_KEY || this.state === P_KEPT ? 0 : -1;
    let i = 0;
    while (i < n) {
      const c = chunk.charCodeAt(i);
      switch (this.state) {
        case P_STR: {
          // A run of plain units goes in as one slice.
          let j = i;
          const q = this.quote;
          let u = c;
          while (u !== q && u !== 92 && u !== 10 && u !== 13) {
            if (++j === n) break;
            u = chunk.charCodeAt(j);
          }
          if (j > i) this.text += chunk.slice(i, j);
          if (j === n) return;
          i = j + 1;
          if (u === q) this.state = P_STR_END;
          else if (u === 92) this.state = P_ESC;
          else {
            this.fallBack(); // a newline in a single-quoted string: an error
            return;
          }
          continue;
        }
        case P_ESC:
          this.escape(c);
          break;
        case P_OCT:
          if (c >= 48 && c <= 55 && this.digits.length < 3) {
            this.digits += chunk[i];
            break;
          }
          this.text += String.fromCodePoint(Number.parseInt(this.digits, 8));
          this.state = P_STR;
          continue; // c again, in the string
        case P_HEX: {
          if (hexValue(c) < 0) {
            this.fallBack();
            return;
          }
          this.digits += chunk[i];
          if (this.digits.length < this.width) break;
          const cp = Number.parseInt(this.digits, 16);
          if (cp > 0x10ffff) {
            this.fallBack();
            return;
          }
          this.text += String.fromCodePoint(cp);
          this.state = P_STR;
          break;
        }
        case P_ESC_CR:
          this.state = P_STR;
          if (c === 10) break;
          continue;
        case P_STR_OPEN:
          // A second quote: an empty literal, or a triple-quoted one (read by the fallback).
          this.state = c === this.quote ? P_STR_EMPTY : P_STR;
          if (c === this.quote) break;
          continue; // c again, as the string's first unit
        case P_STR_EMPTY:
          if (c === this.quote) {
            this.fallBack();
            return;
          }
          this.state = P_STR_END;
          continue; // c again, after the empty literal
        default:
          if (!this.structure(c, i)) return;
      }
      i++;
    }
    const from = this.from;
    if (from >= 0 && from < n) {
      const rest = from === 0 ? chunk : chunk.slice(from);
      if (this.state === P_NAME) this.name += rest;
      else if (this.state === P_KEY) this.key += rest;
      else if (this.state === P_KEPT) this.kept += rest;
    }
    this.chunk = "";
  }

  /**
   * A JSON-plain chunk (BodyParser.feedPlain: no backslash, double quote or unit below U+0020).
   * Inside a string it is all text unless it holds the string's single quote.
   */
  feedPlain(chunk: string): void {
    if (this.state === P_STR && (this.quote === 34 || chunk.indexOf("'") < 0)) {
      if (this.admit(chunk)) this.text += chunk;
    } else this.feed(chunk);
  }

  /** Inside a string (whose text is streamed only with the call): plain chunks may come as one run. */
  get defersPlain(): boolean {
    return this.state === P_STR;
  }

  /** The name, keyword or kept value that started at `from` ends before unit `i` of the chunk. */
  private part(i: number): string {
    const from = this.from;
    this.from = -1;
    return from < 0 ? "" : this.chunk.slice(from, i);
  }

  /**
   * One unit `c` (unit `i` of the chunk) outside streamed strings (false: the reader fell back).
   * A name, keyword or kept value starts at its first unit (`from`) and is read with part().
   */
  private structure(c: number, i: number): boolean {
    switch (this.state) {
      case P_LEAD:
        if (isSpace(c)) return true;
        if (c === 96 /* ` */) {
          this.fenced = true;
          this.fenceSpace = false;
          this.ticks = 1;
          this.state = P_TICKS;
          return true;
        }
        return this.startPart(c, i, P_NAME);
      case P_TICKS:
        return this.tick(c, i, P_FENCE_LINE);
      case P_FENCE_LINE:
        // stripFence: the language, then spaces or tabs, then an optional "\r", then "\n".
        if (c === 10) this.state = P_BEFORE_NAME;
        else if (c === 13) this.state = P_FENCE_CR;
        else if (c === 32 || c === 9) this.fenceSpace = true;
        else if (!isLangUnit(c) || this.fenceSpace) return this.fallBack();
        return true;
      case P_FENCE_CR:
        if (c !== 10) return this.fallBack();
        this.state = P_BEFORE_NAME;
        return true;
      case P_BEFORE_NAME:
        if (isSpace(c)) return true;
        return this.startPart(c, i, P_NAME);
      case P_NAME:
        if (isIdPart(c)) return true;
        this.name += this.part(i);
        if (this.name !== "tool_call") return this.fallBack();
        this.state = P_NAME_END;
        return this.structure(c, i);
      case P_NAME_END:
        if (isSpace(c)) return true;
        if (c !== 40 /* ( */) return this.fallBack();
        this.state = P_ARG;
        return true;
      case P_ARG:
        if (isSpace(c)) return true;
        if (c === 41 /* ) */) {
          this.state = P_AFTER_CALL;
          return true;
        }
        this.key = "";
        return this.startPart(c, i, P_KEY);
      case P_KEY:
        if (isIdPart(c)) return true;
        this.key += this.part(i);
        this.state = P_KEY_END;
        return this.structure(c, i);
      case P_KEY_END:
        if (isSpace(c)) return true;
        if (c !== 61 /* = */ || Object.hasOwn(this.args, this.key)) return this.fallBack();
        this.state = P_EQ;
        return true;
      case P_EQ:
        // "==" is a comparison, not a keyword argument.
        if (c === 61) return this.fallBack();
        this.state = P_VALUE;
        return this.structure(c, i);
      case P_VALUE:
        if (isSpace(c)) return true;
        if (c === 34 || c === 39) {
          this.quote = c;
          this.text = "";
          this.state = P_STR_OPEN;
          return true;
        }
        this.kept = "";
        // The call's own parenthesis counts (parsePythonCall starts at depth 1).
        this.lexer.reset(1);
        this.from = i;
        this.state = P_KEPT;
        return this.structure(c, i);
      case P_KEPT: {
        const lex = this.lexer.unit(c);
        if (lex === LEX_GOES) return true;
        // Too deep, unmatched, a comment or a line continuation: the fallback reads them.
        if (lex !== LEX_ENDS) return this.fallBack();
        this.kept += this.part(i);
        if (!this.keepValue()) return false;
        this.state = c === 41 ? P_AFTER_CALL : P_ARG;
        return true;
      }
      case P_STR_END:
        if (isSpace(c)) return true;
        // An adjacent literal, a comment, ...: the fallback reads them.
        if (c !== 44 && c !== 41) return this.fallBack();
        setKey(this.args, this.key, this.text);
        this.text = "";
        this.state = c === 41 ? P_AFTER_CALL : P_ARG;
        return true;
      case P_AFTER_CALL:
        if (isSpace(c)) return true;
        if (c !== 96 || !this.fenced) return this.fallBack();
        this.ticks = 1;
        this.state = P_CLOSE_TICKS;
        return true;
      case P_CLOSE_TICKS:
        return this.tick(c, i, P_DONE);
      case P_DONE:
        return isSpace(c) || this.fallBack();
      default:
        return false;
    }
  }

  /** A fence's backticks: three, then the unit after them is read in state `after`. */
  private tick(c: number, i: number, after: number): boolean {
    if (this.ticks === 3) {
      this.state = after;
      return this.structure(c, i);
    }
    if (c !== 96) return this.fallBack();
    this.ticks++;
    return true;
  }

  private startPart(c: number, i: number, state: number): boolean {
    if (!isIdStart(c)) return this.fallBack();
    this.from = i;
    this.state = state;
    return true;
  }

  /** The unit after a backslash in a streamed string (python-literal.ts escape()). */
  private escape(c: number): void {
    const e = String.fromCharCode(c);
    const simple = SIMPLE_ESCAPES[e];
    this.state = P_STR;
    if (simple !== undefined) this.text += simple;
    else if (c === 10) return;
    else if (c === 13) this.state = P_ESC_CR;
    else if (c >= 48 && c <= 55) {
      this.digits = e;
      this.state = P_OCT;
    } else if (c === 120 || c === 117 || c === 85) {
      this.digits = "";
      this.width = c === 120 ? 2 : c === 117 ? 4 : 8;
      this.state = P_HEX;
    } else if (c === 78 /* N */) this.fallBack();
    else this.text += `\\${e}`; // Python keeps unknown escapes verbatim.
  }

  /** A kept value's text is complete: parsed once (false: it is not a literal, the reader fell back). */
  private keepValue(): boolean {
    let v: JsonValue;
    try {
      v = parsePythonLiteral(this.kept);
    } catch {
      return this.fallBack();
    }
    this.kept = "";
    setKey(this.args, this.key, v);
    return true;
  }

  private fallBack(): false {
    this.fail("");
    return false;
  }

  protected dropPartial(): void {
    this.text = "";
    this.kept = "";
    this.args = {};
  }

  end(raw: string): ActionResult {
    const r: ActionResult =
      this.state === P_DONE ||
      (this.state === P_CLOSE_TICKS && this.ticks === 3) ||
      (this.state === P_AFTER_CALL && !this.fenced)
        ? { call: { name: this.kind, arguments: this.args } }
        : parsePythonToolCall(raw, this.kind);
    // A parsed call nests at most MAX_NESTING_DEPTH deep (../limits.ts): this recursive
    // stringify cannot overflow the stack (deeper calls are errors, no call).
    if (this.sink !== null && "call" in r) this.sink.onToolCallArguments(JSON.stringify(r.call.arguments));
    this.sink = null;
    this.args = {};
    this.text = "";
    this.kept = "";
    return r;
  }
}
