// Body syntax "tag-name-json": the rest of a call tag whose opening text names the function,
// `NAME>ARGS`, ARGS a JSON object (Functionary v3.1 writes `<function=NAME>{...}</function>` as
// plain text; the text markers `<function=` and `</function>` open and close the block, so the
// body is what lies between):
//
//   get_weather>{"city": "Paris"}
//   └── NAME ─┘ └──── ARGS ────┘
//
// The name ends at the first ">" (trimmed; non-empty, one line) and is reported there; ARGS
// stream through the incremental JSON reader (tool-call-scanner.ts, top "arguments") as they
// arrive, or are read by JSON.parse at the end from the tail of the body text the decoder kept.
// With the request's tools, a call naming any other tool is an error result naming it (knownTool).
// Linear in the body, memory bounded by maxBufferedChars (a longer body is an error result),
// never throws on model output.
import { type ActionResult, knownTool, NOT_OBJECT_ERROR, parseArgumentsObject } from "../action-parse.ts";
import { isJsonObject as isObject } from "../model-text.ts";
import { ToolCallScanner, type ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserOptions, ToolSchemas } from "./body.ts";

// ---- states ----
/** Before ">": the name.   get_wea‸ther>… */
const T_NAME = 0;
/** After ">": the arguments.   …>{"ci‸ty": … */
const T_ARGS = 1;
/** Malformed or too long: `error` says why. */
const T_FAIL = 2;

export class TagNameJsonParser implements BodyParser {
  private readonly maxChars: number;
  private scanner: ToolCallScanner | null = null;
  private sink: ToolCallSink | null = null;
  /** The request's tools: a call must name one of them (knownTool). */
  private tools: ToolSchemas | undefined = undefined;
  private state = T_NAME;
  private error = "";
  private fed = 0;
  private name = "";
  /** Units of ARGS fed (the tail of end()'s raw text). */
  private argsFed = 0;

  constructor(maxBufferedChars = 1_000_000) {
    this.maxChars = maxBufferedChars;
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, _kind?: string): void {
    this.tools = tools;
    this.sink = sink;
    this.scanner?.reset(null);
    this.state = T_NAME;
    this.error = "";
    this.fed = 0;
    this.name = "";
    this.argsFed = 0;
  }

  separator(): void {
    this.fail("a separator marker inside a function tag");
  }

  feed(text: string): void {
    if (this.state === T_FAIL || text.length === 0) return;
    this.fed += text.length;
    if (this.fed > this.maxChars) {
      this.fail(`the tool call body is longer than ${this.maxChars} characters`);
      return;
    }
    if (this.state === T_ARGS) {
      this.args(text);
      return;
    }
    const gt = text.indexOf(">");
    if (gt < 0) {
      this.name += text;
      return;
    }
    this.name = (this.name + text.slice(0, gt)).trim();
    if (this.name.length === 0 || this.name.includes("\n")) {
      this.fail("the tool call has an empty or multi-line name");
      return;
    }
    this.state = T_ARGS;
    if (this.sink !== null) {
      this.scanner ??= new ToolCallScanner(null, undefined, {
        top: "arguments",
        trail: "trim",
        build: true,
        maxKept: this.maxChars,
      });
      this.scanner.reset(this.sink);
      this.sink.onToolCallName(this.name);
    }
    this.args(text.slice(gt + 1));
  }

  private args(text: string): void {
    this.argsFed += text.length;
    if (this.sink !== null && text.length > 0) this.scanner?.feed(text);
  }

  /** `raw`: the body text fed, concatenated (read only without a built value). */
  end(raw: string): ActionResult {
    const r = knownTool(this.result(raw), this.tools);
    this.scanner?.reset(null);
    this.sink = null;
    return r;
  }

  private result(raw: string): ActionResult {
    if (this.state === T_FAIL) return { error: this.error };
    if (this.state === T_NAME) return { error: 'the tool call has no ">" after its name' };
    const built = this.sink !== null ? this.scanner?.result() : undefined;
    if (built !== undefined)
      return isObject(built) ? { call: { name: this.name, arguments: built } } : { error: NOT_OBJECT_ERROR };
    if (raw.length < this.argsFed) return { error: "the tool call body text is incomplete" };
    const parsed = parseArgumentsObject(raw.slice(raw.length - this.argsFed));
    return "error" in parsed ? parsed : { call: { name: this.name, arguments: parsed.args } };
  }

  private fail(why: string): void {
    this.state = T_FAIL;
    this.error = why;
    this.name = "";
  }
}

/** The factory of syntax/index.ts: one parser per decoder (reset() at each block open). */
export function createTagNameJsonParser(options: BodyParserOptions): BodyParser {
  return new TagNameJsonParser(options.maxBufferedChars);
}
