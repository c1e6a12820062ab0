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
import { type ActionResult, knownTool, NOT_OBJECT_ERROR, parseArgumentsObject } from "../action-parse.ts";
import { isJsonObject as isObject } from "../model-text.ts";
import { ToolCallScanner, type ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserOptions, ToolSchemas } from "./body.ts";

export class JsonArgumentsParser implements BodyParser {
  private readonly maxChars: number;
  private scanner: ToolCallScanner | null = null;
  private sink: ToolCallSink | null = null;
  /** The request's tools: a call must name one of them (knownTool). */
  private tools: ToolSchemas | undefined;
  private name = "";
  private fed = 0;
  /** Why the body is not a call ("" while it may be one). */
  private error = "";

  constructor(maxBufferedChars = 1_000_000) {
    this.maxChars = maxBufferedChars;
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, kind = ""): void {
    this.sink = sink;
    this.tools = tools;
    this.name = kind;
    this.fed = 0;
    this.error = kind === "" ? "the tool call has no name" : "";
    if (sink === null || this.error !== "") {
      this.scanner?.reset(null);
      return;
    }
    this.scanner ??= new ToolCallScanner(null, undefined, {
      top: "arguments",
      trail: "trim",
      build: true,
      maxKept: this.maxChars,
    });
    this.scanner.reset(sink);
    sink.onToolCallName(kind);
  }

  separator(): void {
    if (this.error === "") this.error = "a separator marker inside the arguments";
  }

  feed(text: string): void {
    if (this.error !== "" || text.length === 0) return;
    this.fed += text.length;
    if (this.fed > this.maxChars) {
      this.error = `the tool call body is longer than ${this.maxChars} characters`;
      return;
    }
    if (this.sink !== null) this.scanner?.feed(text);
  }

  /** `raw`: the body text fed, concatenated (read only without a built value). */
  end(raw: string): ActionResult {
    const r = knownTool(this.result(raw), this.tools);
    this.scanner?.reset(null);
    this.sink = null;
    return r;
  }

  private result(raw: string): ActionResult {
    if (this.error !== "") return { error: this.error };
    const built = this.sink !== null ? this.scanner?.result() : undefined;
    if (built !== undefined)
      return isObject(built) ? { call: { name: this.name, arguments: built } } : { error: NOT_OBJECT_ERROR };
    const parsed = parseArgumentsObject(raw);
    return "error" in parsed ? parsed : { call: { name: this.name, arguments: parsed.args } };
  }
}

/** The factory of syntax/index.ts: one parser per decoder (reset() at each block open). */
export function createJsonArgumentsParser(options: BodyParserOptions): BodyParser {
  return new JsonArgumentsParser(options.maxBufferedChars);
}
