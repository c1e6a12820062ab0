// Body syntax "json-call": `{"name": N, "arguments"|"parameters": {...}}`. Streamed through the
// incremental JSON scanner (../tool-call-scanner.ts: the name when its string is complete, the
// raw arguments text as it arrives); parsed once at the block's close from the text the
// decoder kept. Not streaming, feed() is one test per chunk, and no scanner is made (it is
// made at the first streamed body: a decoder is made per stream, and the scanner's fields and
// nesting stack were a measurable part of a non-streaming tool call's cost).
import { type ActionResult, parseJsonCall } from "../action-parse.ts";
import { ToolCallScanner, type ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserOptions, ToolSchemas } from "./body.ts";

const ARGUMENTS_FIRST: readonly string[] = ["arguments", "parameters"];
const PARAMETERS_FIRST: readonly string[] = ["parameters", "arguments"];

export class JsonCallParser implements BodyParser, ToolCallSink {
  private readonly argsKeys: readonly string[];
  private readonly maxBufferedChars: number;
  /** Made at the first body with a sink; null until then. */
  private scanner: ToolCallScanner | null = null;
  private sink: ToolCallSink | null = null;

  constructor(options: BodyParserOptions) {
    this.argsKeys = options.argumentsKey === "parameters" ? PARAMETERS_FIRST : ARGUMENTS_FIRST;
    this.maxBufferedChars = options.maxBufferedChars;
  }

  reset(sink: ToolCallSink | null, _tools: ToolSchemas | undefined): void {
    this.sink = sink;
    if (sink === null) return;
    if (this.scanner === null) this.scanner = new ToolCallScanner(this, this.maxBufferedChars);
    else this.scanner.reset();
  }

  feed(text: string): void {
    if (this.sink !== null) (this.scanner as ToolCallScanner).feed(text);
  }

  separator(): void {}

  end(raw: string): ActionResult {
    this.sink = null;
    return parseJsonCall(raw, this.argsKeys);
  }

  onToolCallName(name: string): void {
    this.sink?.onToolCallName(name);
  }

  onToolCallArguments(text: string): void {
    this.sink?.onToolCallArguments(text);
  }
}
