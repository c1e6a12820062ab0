// "fenced-json-call" with the request's tools: a call naming any other tool is an error result
// naming it (knownTool), as for the other body syntaxes. A subclass rather than a change to
// ./fenced-json-call.ts, whose feed() stays small enough for V8 to inline into the decoder:
// only reset() and end(), once per body, are added to.
import { type ActionResult, knownTool } from "../action-parse.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserOptions, ToolSchemas } from "./body.ts";
import { FencedJsonCallParser } from "./fenced-json-call.ts";

export class ToolCheckedFencedJsonCallParser extends FencedJsonCallParser {
  /** The request's tools: a call must name one of them (knownTool). */
  private tools: ToolSchemas | undefined = undefined;

  override reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, kind?: string): void {
    this.tools = tools;
    super.reset(sink, tools, kind);
  }

  override end(raw: string): ActionResult {
    return knownTool(super.end(raw), this.tools);
  }
}

/** The factory of syntax/index.ts: one parser per decoder (one body at a time; reset() at each block open). */
export function createToolCheckedFencedJsonCallParser(options: BodyParserOptions): BodyParser {
  return new ToolCheckedFencedJsonCallParser(options.maxBufferedChars);
}
