// Body syntax "json-arguments": the action kind is the tool's name (a metadata line names it:
// Functionary v3.2 `>>>get_weather\n`), the body is the call's arguments, one JSON object:
//
//   >>>get_weather\n{"city": "Paris"}>>>all\nDone.
//                   └──── body ────┘
//
// The name is reported at reset (it is the kind); the arguments stream through the incremental
// JSON reader (tool-call-scanner.ts, top "arguments") as they arrive, or are read by JSON.parse
// at the end from the body text the decoder kept. Given the request's tools, a call naming any
// other tool is an error result naming it (knownTool). Linear in the body, memory bounded by
// maxBufferedChars (a longer body is an error result), never throws on model output.
import type { ActionResult } from "../action-parse.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserFactory, ToolSchemas } from "./body.ts";
import { tooLongError } from "./body-support.ts";
import { JsonArgumentsTail } from "./json-arguments-tail.ts";

export class JsonArgumentsParser implements BodyParser {
  private readonly maxChars: number;
  /** The body; the sink and the request's tools. */
  private readonly args: JsonArgumentsTail;
  private name = "";
  private fed = 0;
  /** Why the body is not a call ("" while it may be one). */
  private error = "";

  constructor(maxBufferedChars = 1_000_000) {
    this.maxChars = maxBufferedChars;
    this.args = new JsonArgumentsTail(maxBufferedChars, "trim");
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, kind = ""): void {
    this.args.reset(sink, tools);
    this.name = kind;
    this.fed = 0;
    this.error = kind === "" ? "the tool call has no name" : "";
    if (this.error !== "") return;
    sink?.onToolCallName(kind);
    this.args.start();
  }

  separator(): void {
    if (this.error === "") this.error = "a separator marker inside the arguments";
  }

  feed(text: string): void {
    if (this.error !== "" || text.length === 0) return;
    this.fed += text.length;
    if (this.fed > this.maxChars) {
      this.error = tooLongError(this.maxChars);
      return;
    }
    this.args.feed(text);
  }

  /** `raw`: the body text fed, concatenated (read only without a built value). */
  end(raw: string): ActionResult {
    return this.args.end(this.result(raw));
  }

  private result(raw: string): ActionResult {
    if (this.error !== "") return { error: this.error };
    const a = this.args.read(raw);
    return "error" in a ? a : { call: { name: this.name, arguments: a.args } };
  }
}

/** The factory of syntax/index.ts: one parser per decoder (reset() at each block open). */
export const createJsonArgumentsParser: BodyParserFactory = (o) =>
  new JsonArgumentsParser(o.maxBufferedChars);
