// The "fenced-json-call" body syntax (docs/families/ says which families use it): the body of one
// <｜tool▁call▁begin｜> … <｜tool▁call▁end｜> block, with the <｜tool▁sep｜> marker handed in as
// separator():
//
//   function‹sep›get_weather\n```json\n{"city": "Paris"}\n```
//   └ TYPE ┘     └─ NAME ──┘  └fence┘  └──── ARGS ────┘  └ closing fence
//
// TYPE must be "function" (the only type the vendor templates write). The name is reported as
// soon as its line ends. ARGS and the closing fence go through the incremental JSON reader of
// tool-call-scanner.ts (top "arguments", trail "fence") as they arrive (JsonArgumentsTail): one
// pass builds the arguments value, which end() returns without reading any text, and, streamed
// (a sink), streams the deltas, exactly the raw JSON value text (cut at its last unit, nothing
// guessed, stopped at the first malformed unit). When the reader has no value (malformed,
// unclosed, or as deep as the cap where JSON.parse's check still allows it), end(raw) reads ARGS
// from the tail of the body text the decoder kept with JSON.parse, whose messages are the
// errors. The call must be an object, no deeper than MAX_NESTING_DEPTH. Only the type, name and
// fence lines are kept here (bounded) besides a value being built. With the request's tools, a
// call naming any other tool is an error result naming it (knownTool).
//
// Linear in the body (every unit is looked at a bounded number of times: once here, once by
// the reader, once more by JSON.parse on the error path); memory bounded
// by maxBufferedChars (a longer body is an error result); never throws on model output.
import type { ActionResult } from "../action-parse.ts";
import { quote40 } from "../model-text.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserFactory, ToolSchemas } from "./body.ts";
import { tooLongError } from "./body-support.ts";
import { JsonArgumentsTail } from "./json-arguments-tail.ts";

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

/** ARGS less the closing fence after them (and the whitespace around it). */
function beforeClosingFence(tail: string): string | { readonly error: string } {
  const args = tail.trimEnd();
  return args.endsWith(FENCE)
    ? args.slice(0, -FENCE.length)
    : { error: "the tool call's arguments are not closed by ```" };
}

export class FencedJsonCallParser implements BodyParser {
  private readonly maxChars: number;
  /** ARGS and the closing fence (the reader's trail "fence"); the sink and the request's tools. */
  private readonly args: JsonArgumentsTail;
  private state = S_TYPE;
  private error = "";
  /** Units fed so far (the bound). */
  private fed = 0;
  /** The type, name or fence line being collected. */
  private line = "";
  private name = "";

  constructor(maxBufferedChars = 1_000_000) {
    this.maxChars = maxBufferedChars;
    this.args = new JsonArgumentsTail(maxBufferedChars, "fence");
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, _kind?: string): void {
    this.args.reset(sink, tools);
    this.state = S_TYPE;
    this.error = "";
    this.fed = 0;
    this.line = "";
    this.name = "";
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

  /** A JSON-plain chunk (BodyParser.feedPlain): whole into ARGS, else through the lines. */
  feedPlain(text: string): void {
    if (this.state !== S_ARGS) this.lines(text);
    else if (this.admit(text)) this.args.feedPlain(text);
  }

  /** Inside a string of ARGS, not streamed: the decoder may join plain chunks (BodyParser). */
  get defersPlain(): boolean {
    return this.state === S_ARGS && this.args.defersPlain;
  }

  /** A chunk of ARGS and the closing fence. */
  private argsText(text: string): void {
    if (this.admit(text)) this.args.feed(text);
  }

  /** Counts a chunk against maxBufferedChars: false (and the body failed) past it. */
  private admit(text: string): boolean {
    this.fed += text.length;
    if (this.fed <= this.maxChars) return true;
    this.fail(tooLongError(this.maxChars));
    return false;
  }

  /** A chunk before ARGS: the type, name and fence lines (and ARGS from the fence line's end on). */
  private lines(text: string): void {
    if (this.state === S_FAIL || text.length === 0 || !this.admit(text)) return;
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
          this.args.sink?.onToolCallName(name);
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
          this.args.start();
          break;
        }
        case S_ARGS:
          this.args.feed(t);
          return;
        default:
          return;
      }
    }
  }

  /** `raw`: the body text fed, concatenated (read only on the error path; BodyParser contract). */
  end(raw: string): ActionResult {
    // The parser holds nothing after it until the next body.
    return this.args.end(this.result(raw));
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
    const a = this.args.read(raw, beforeClosingFence);
    return "error" in a ? a : { call: { name: this.name, arguments: a.args } };
  }

  private fail(why: string): void {
    this.state = S_FAIL;
    this.error = why;
    this.line = "";
  }
}

/** The factory of syntax/index.ts: one parser per decoder (reset() at each block open). */
export const createFencedJsonCallParser: BodyParserFactory = (o) =>
  new FencedJsonCallParser(o.maxBufferedChars);
