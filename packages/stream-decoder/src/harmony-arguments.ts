// The body of a harmony message addressed to a tool (header recipient): its whole content is
// the call's JSON arguments and the name comes from the header. With tool-call streaming the
// name goes out at the start and every chunk of content as an arguments delta (the content IS
// the arguments text); the call is parsed once, at the message end, from the raw text the
// engine kept (bounded by maxBufferedChars there).
import type { ActionResult } from "./action-parse.ts";
import { parseHarmonyArguments } from "./harmony-header.ts";
import type { BodyParser, ToolSchemas } from "./syntax/body.ts";
import type { ToolCallSink } from "./tool-call-scanner.ts";

export class HarmonyArgumentsParser implements BodyParser {
  private sink: ToolCallSink | null = null;
  private name = "";

  /** `kind` is the tool's name (the header's recipient, minus a "functions." prefix). */
  reset(sink: ToolCallSink | null, _tools: ToolSchemas | undefined, kind?: string): void {
    this.sink = sink;
    this.name = kind ?? "";
    if (sink !== null) sink.onToolCallName(this.name);
  }

  feed(text: string): void {
    if (this.sink !== null) this.sink.onToolCallArguments(text);
  }

  readsText(): boolean {
    return this.sink !== null;
  }

  separator(): void {}

  end(raw: string): ActionResult {
    const a = parseHarmonyArguments(raw);
    return typeof a === "string" ? { error: a } : { call: { name: this.name, arguments: a } };
  }
}
