// Body syntax "json-call": `{"name": N, "arguments"|"parameters": {...}}`.
// Streamed (a sink): one pass of the incremental JSON reader (../tool-call-scanner.ts) as the
// chunks arrive gives the name, the raw arguments text AND the call's value, so end() only
// checks the built value (a malformed body is the exception: JSON.parse of the decoder's text
// spells the error). Not streamed: feed() is one test per chunk and end() parses the text the
// decoder kept with JSON.parse (parseJsonCall), which in V8 costs less than reading it unit by
// unit in JavaScript as it arrives; no reader is made until a body is streamed. With the
// request's tools, a call naming any other tool is an error result naming it (knownTool).
import { type ActionResult, jsonCallResult, knownTool, parseJsonCall } from "../action-parse.ts";
import { ToolCallScanner, type ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserOptions, ToolSchemas } from "./body.ts";

const ARGUMENTS_FIRST: readonly string[] = ["arguments", "parameters"];
const PARAMETERS_FIRST: readonly string[] = ["parameters", "arguments"];

export class JsonCallParser implements BodyParser {
  private readonly argsKeys: readonly string[];
  private readonly maxBufferedChars: number;
  /** Made at the first streamed body; null until then. */
  private scanner: ToolCallScanner | null = null;
  private streaming = false;
  private sink: ToolCallSink | null = null;
  /** The request's tools: a call must name one of them (knownTool). */
  private tools: ToolSchemas | undefined = undefined;

  constructor(options: BodyParserOptions) {
    this.argsKeys = options.argumentsKey === "parameters" ? PARAMETERS_FIRST : ARGUMENTS_FIRST;
    this.maxBufferedChars = options.maxBufferedChars;
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined): void {
    this.tools = tools;
    this.streaming = sink !== null;
    this.sink = sink;
    if (sink === null) return;
    const max = this.maxBufferedChars;
    if (this.scanner === null) this.scanner = new ToolCallScanner(sink, max, { build: true, maxKept: max });
    else this.scanner.reset(sink);
  }

  feed(text: string): void {
    if (this.streaming) (this.scanner as ToolCallScanner).feed(text);
  }

  readsText(): boolean {
    return this.streaming;
  }

  separator(): void {}

  /** `raw`: the body text the decoder kept (read unless the body was streamed and well formed). */
  end(raw: string): ActionResult {
    if (!this.streaming) return knownTool(parseJsonCall(raw, this.argsKeys), this.tools);
    this.streaming = false;
    const scanner = this.scanner as ToolCallScanner;
    const r = jsonCallResult(scanner, raw, this.argsKeys);
    // Arguments written as a JSON string were not streamed: the decoded object is one delta.
    if (scanner.argumentsString && "call" in r)
      this.sink?.onToolCallArguments(JSON.stringify(r.call.arguments));
    // The built value is the caller's now; the reader holds nothing until the next body.
    scanner.reset(null);
    return knownTool(r, this.tools);
  }
}
