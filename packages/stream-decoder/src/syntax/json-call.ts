// Body syntax "json-call": `{"name": N, "arguments"|"parameters": {...}}`.
// One pass of the incremental JSON reader (../tool-call-scanner.ts) as the chunks arrive gives
// the call's value (and, streamed, the name and the raw arguments text), so end() only checks
// the built value; a malformed body is the exception: JSON.parse of the decoder's text spells
// the error. Inside a string value the reader takes a JSON-plain chunk whole (feedPlain: the
// decoder knows from a per-ID table that it holds no quote, backslash or control unit), and,
// not streamed, it lets the decoder join a run of them into one chunk (defersPlain): a long
// argument string then costs one concatenation per token, shared with the action's raw text.
// With the request's tools, a call naming any other tool is an error result naming it
// (knownTool).
import { type ActionResult, jsonCallResult, knownTool } from "../action-parse.ts";
import { ToolCallScanner, type ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserOptions, ToolSchemas } from "./body.ts";

const ARGUMENTS_FIRST: readonly string[] = ["arguments", "parameters"];
const PARAMETERS_FIRST: readonly string[] = ["parameters", "arguments"];

export class JsonCallParser implements BodyParser {
  private readonly argsKeys: readonly string[];
  private readonly scanner: ToolCallScanner;
  private sink: ToolCallSink | null = null;
  /** The request's tools: a call must name one of them (knownTool). */
  private tools: ToolSchemas | undefined = undefined;
  /** Not streamed and inside a string value: plain chunks may come as one run (BodyParser). */
  defersPlain = false;

  constructor(options: BodyParserOptions) {
    this.argsKeys = options.argumentsKey === "parameters" ? PARAMETERS_FIRST : ARGUMENTS_FIRST;
    const max = options.maxBufferedChars;
    this.scanner = new ToolCallScanner(null, max, { build: true, maxKept: max });
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined): void {
    this.tools = tools;
    this.sink = sink;
    this.scanner.reset(sink);
    this.defersPlain = false;
  }

  feed(text: string): void {
    this.scanner.feed(text);
    this.defersPlain = this.sink === null && this.scanner.inStringValue;
  }

  feedPlain(text: string): void {
    this.scanner.feedPlain(text);
    this.defersPlain = this.sink === null && this.scanner.inStringValue;
  }

  separator(): void {}

  /** `raw`: the body text the decoder kept (read only when the reader has no value). */
  end(raw: string): ActionResult {
    const scanner = this.scanner;
    const r = jsonCallResult(scanner, raw, this.argsKeys);
    // Arguments written as a JSON string were not streamed: the decoded object is one delta.
    if (scanner.argumentsString && "call" in r)
      this.sink?.onToolCallArguments(JSON.stringify(r.call.arguments));
    // The built value is the caller's now; the reader holds nothing until the next body.
    scanner.reset(null);
    this.defersPlain = false;
    return knownTool(r, this.tools);
  }
}
