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
import type { ActionResult } from "../action-parse.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserFactory, ToolSchemas } from "./body.ts";
import { tooLongError } from "./body-support.ts";
import { JsonArgumentsTail } from "./json-arguments-tail.ts";

// ---- states ----
/** Before ">": the name.   get_wea‸ther>… */
const T_NAME = 0;
/** After ">": the arguments.   …>{"ci‸ty": … */
const T_ARGS = 1;
/** Malformed or too long: `error` says why. */
const T_FAIL = 2;

export class TagNameJsonParser implements BodyParser {
  private readonly maxChars: number;
  /** ARGS; the sink and the request's tools. */
  private readonly args: JsonArgumentsTail;
  private state = T_NAME;
  private error = "";
  private fed = 0;
  private name = "";

  constructor(maxBufferedChars = 1_000_000) {
    this.maxChars = maxBufferedChars;
    this.args = new JsonArgumentsTail(maxBufferedChars, "trim");
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, _kind?: string): void {
    this.args.reset(sink, tools);
    this.state = T_NAME;
    this.error = "";
    this.fed = 0;
    this.name = "";
  }

  separator(): void {
    this.fail("a separator marker inside a function tag");
  }

  feed(text: string): void {
    if (this.state === T_FAIL || text.length === 0) return;
    this.fed += text.length;
    if (this.fed > this.maxChars) {
      this.fail(tooLongError(this.maxChars));
      return;
    }
    if (this.state === T_ARGS) {
      this.args.feed(text);
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
    this.args.sink?.onToolCallName(this.name);
    this.args.start(text.slice(gt + 1));
  }

  /** `raw`: the body text fed, concatenated (read only without a built value). */
  end(raw: string): ActionResult {
    return this.args.end(this.result(raw));
  }

  private result(raw: string): ActionResult {
    if (this.state === T_FAIL) return { error: this.error };
    if (this.state === T_NAME) return { error: 'the tool call has no ">" after its name' };
    const a = this.args.read(raw);
    return "error" in a ? a : { call: { name: this.name, arguments: a.args } };
  }

  private fail(why: string): void {
    this.state = T_FAIL;
    this.error = why;
    this.name = "";
  }
}

/** The factory of syntax/index.ts: one parser per decoder (reset() at each block open). */
export const createTagNameJsonParser: BodyParserFactory = (o) => new TagNameJsonParser(o.maxBufferedChars);
