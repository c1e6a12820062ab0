// The "fenced-json-call" body syntax (docs/families/ says which families use it): the body of one
// <｜tool▁call▁begin｜> … <｜tool▁call▁end｜> block, with the <｜tool▁sep｜> marker handed in as
// separator():
//
//   function‹sep›get_weather\n```json\n{"city": "Paris"}\n```
//   └ TYPE ┘     └─ NAME ──┘  └fence┘  └──── ARGS ────┘  └ closing fence
//
// TYPE must be "function" (the only type the vendor templates write). The name is reported as
// soon as its line ends. Streamed (a sink), ARGS and the closing fence go through the
// incremental JSON reader of tool-call-scanner.ts (top "arguments", trail "fence") as they
// arrive: one pass streams the deltas, exactly the raw JSON value text (cut at its last unit,
// nothing guessed, stopped at the first malformed unit), and builds the arguments value, which
// end() returns without reading any text. Not streamed, or when the reader has no value
// (malformed, unclosed, or as deep as the cap where JSON.parse's check still allows it), end(raw)
// reads ARGS from the tail of the body text the decoder kept with JSON.parse (native: in V8 it
// costs less than reading every unit in JavaScript as it arrives), whose messages are the
// errors. The call must be an object, no deeper than MAX_NESTING_DEPTH. Only the type, name and
// fence lines are kept here (bounded) besides a value being built. With the request's tools, a
// call naming any other tool is an error result naming it (knownTool).
//
// Linear in the body (every unit is looked at a bounded number of times: once here, once by
// the reader or JSON.parse, once more by JSON.parse on the streamed error path); memory bounded
// by maxBufferedChars (a longer body is an error result); never throws on model output.
import { type ActionResult, knownTool, NOT_OBJECT_ERROR, parseArgumentsObject } from "../action-parse.ts";
import { isJsonObject as isObject, quote40 } from "../model-text.ts";
import { ToolCallScanner, type ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserOptions, ToolSchemas } from "./body.ts";

// ---- states ----
/** Before the separator: the call type.   ‸function‹sep›… */
const S_TYPE = 0;
/** After the separator: the name up to "\n".   function‹sep›get_we‸ather\n */
const S_NAME = 1;
/** After the name line: the opening fence line up to "\n".   get_weather\n``‸`json\n */
const S_FENCE = 2;
/** After the fence line: the arguments and the closing fence.   ```json\n{"ci‸ty": … */
const S_ARGS = 3;
/** Malformed or too long: `error` says why; nothing more is reported. */
const S_FAIL = 4;

/** Longest call type kept ("function" is 8 units). */
const TYPE_CAP = 64;
/** Longest opening fence line ("```json" is 7 units). */
const FENCE_CAP = 32;
const SEP = "<｜tool▁sep｜>";
const FENCE = "```";
/** The opening fence line without its "\n": "```json" or "```" (a trailing "\r" / spaces allowed). */
function isOpeningFence(line: string): boolean {
  const t = line.trimEnd();
  return t === "```json" || t === "```";
}

export class FencedJsonCallParser implements BodyParser {
  private readonly maxChars: number;
  /** Made at the first streamed body; null until then. */
  private scanner: ToolCallScanner | null = null;
  private sink: ToolCallSink | null = null;
  /** The request's tools: a call must name one of them (knownTool). */
  private tools: ToolSchemas | undefined = undefined;
  private state = S_TYPE;
  private error = "";
  /** Units fed so far (the bound). */
  private fed = 0;
  /** The type, name or fence line being collected. */
  private line = "";
  private name = "";
  /** Units of ARGS and the closing fence fed so far (the tail of end()'s raw text). */
  private argsFed = 0;

  constructor(maxBufferedChars = 1_000_000) {
    this.maxChars = maxBufferedChars;
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, _kind?: string): void {
    this.sink = sink;
    this.tools = tools;
    this.scanner?.reset(null);
    this.state = S_TYPE;
    this.error = "";
    this.fed = 0;
    this.line = "";
    this.name = "";
    this.argsFed = 0;
  }

  separator(): void {
    if (this.state === S_FAIL) return;
    if (this.state !== S_TYPE) {
      this.fail(`a second ${SEP} in the tool call`);
      return;
    }
    if (this.line !== "function") {
      this.fail(`tool call type ${quote40(this.line)} is not "function"`);
      return;
    }
    this.line = "";
    this.state = S_NAME;
  }

  feed(text: string): void {
    // Small on purpose (inlined by V8 into the decoder): most of a body is ARGS.
    if (this.state === S_ARGS) this.argsText(text);
    else this.lines(text);
  }

  /** A chunk of ARGS and the closing fence. */
  private argsText(text: string): void {
    this.fed += text.length;
    if (this.fed > this.maxChars) {
      this.fail(`the tool call body is longer than ${this.maxChars} characters`);
      return;
    }
    this.argsFed += text.length;
    if (this.sink !== null) this.scanner?.feed(text);
  }

  /** A chunk before ARGS: the type, name and fence lines (and ARGS from the fence line's end on). */
  private lines(text: string): void {
    if (this.state === S_FAIL || text.length === 0) return;
    this.fed += text.length;
    if (this.fed > this.maxChars) {
      this.fail(`the tool call body is longer than ${this.maxChars} characters`);
      return;
    }
    let t = text;
    // Each pass consumes the chunk or moves to a later state: at most four passes.
    while (t.length > 0) {
      switch (this.state) {
        case S_TYPE:
          this.line += t;
          if (this.line.length > TYPE_CAP) this.fail(`no ${SEP} after the call type`);
          return;
        case S_NAME: {
          const nl = t.indexOf("\n");
          if (nl < 0) {
            this.line += t;
            return;
          }
          const name = this.line + t.slice(0, nl);
          this.line = "";
          t = t.slice(nl + 1);
          if (name.length === 0) {
            this.fail("the tool call has an empty name");
            return;
          }
          this.name = name;
          this.state = S_FENCE;
          this.sink?.onToolCallName(name);
          break;
        }
        case S_FENCE: {
          const nl = t.indexOf("\n");
          const line = this.line + (nl < 0 ? t : t.slice(0, nl));
          // Refused as soon as it cannot become a fence (the message does not depend on the chunking).
          if (
            line.length > FENCE_CAP ||
            !FENCE.startsWith(line.slice(0, 3)) ||
            (nl >= 0 && !isOpeningFence(line))
          ) {
            this.fail("expected ```json on the line after the name");
            return;
          }
          if (nl < 0) {
            this.line = line;
            return;
          }
          this.line = "";
          t = t.slice(nl + 1);
          this.state = S_ARGS;
          if (this.sink !== null) {
            this.scanner ??= new ToolCallScanner(null, undefined, {
              top: "arguments",
              trail: "fence",
              build: true,
              maxKept: this.maxChars,
            });
            this.scanner.reset(this.sink);
          }
          break;
        }
        case S_ARGS:
          this.argsFed += t.length;
          if (this.sink !== null) this.scanner?.feed(t);
          return;
        default:
          return;
      }
    }
  }

  /** `raw`: the body text fed, concatenated (read only on the error path; BodyParser contract). */
  end(raw: string): ActionResult {
    const r = knownTool(this.result(raw), this.tools);
    // The built value is the caller's now; the parser holds nothing until the next body.
    this.scanner?.reset(null);
    this.sink = null;
    return r;
  }

  private result(raw: string): ActionResult {
    switch (this.state) {
      case S_FAIL:
        return { error: this.error };
      case S_TYPE:
        return { error: `the tool call has no ${SEP}` };
      case S_NAME:
        return { error: "the tool call's name line is not complete" };
      case S_FENCE:
        return { error: "the tool call has no ```json block" };
      default:
        break;
    }
    const built = this.sink !== null ? this.scanner?.result() : undefined;
    if (built !== undefined)
      return isObject(built) ? { call: { name: this.name, arguments: built } } : { error: NOT_OBJECT_ERROR };
    if (raw.length < this.argsFed) return { error: "the tool call body text is incomplete" };
    const args = raw.slice(raw.length - this.argsFed).trimEnd();
    if (!args.endsWith("```")) return { error: "the tool call's arguments are not closed by ```" };
    const json = args.slice(0, -3);
    const parsed = parseArgumentsObject(json);
    return "error" in parsed ? parsed : { call: { name: this.name, arguments: parsed.args } };
  }

  private fail(why: string): void {
    this.state = S_FAIL;
    this.error = why;
    this.line = "";
  }
}

/** The factory of syntax/index.ts: one parser per decoder (one body at a time; reset() at each block open). */
export function createFencedJsonCallParser(options: BodyParserOptions): BodyParser {
  return new FencedJsonCallParser(options.maxBufferedChars);
}
