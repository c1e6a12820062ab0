// Body syntax "python-call": the action kind is the tool's name (a metadata line), the body a
// (fenced) Python `tool_call(k=v, ...)` with literal arguments. Streamed: the name at the
// block's open, ONE arguments delta (the parsed arguments as JSON) at its close.
import { type ActionResult, parsePythonToolCall } from "../action-parse.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, ToolSchemas } from "./body.ts";

export class PythonCallParser implements BodyParser {
  private sink: ToolCallSink | null = null;
  private name = "";

  reset(sink: ToolCallSink | null, _tools: ToolSchemas | undefined, kind = ""): void {
    this.sink = sink;
    this.name = kind;
    if (sink !== null) sink.onToolCallName(kind);
  }

  feed(_text: string): void {}

  readsText(): boolean {
    return false;
  }

  separator(): void {}

  end(raw: string): ActionResult {
    const r = parsePythonToolCall(raw, this.name);
    // A parsed call nests at most MAX_NESTING_DEPTH deep (../limits.ts): this recursive
    // stringify cannot overflow the stack (deeper calls are errors, no call).
    if (this.sink !== null && "call" in r) this.sink.onToolCallArguments(JSON.stringify(r.call.arguments));
    this.sink = null;
    return r;
  }
}
