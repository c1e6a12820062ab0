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
import type { BodyParser, ToolSchemas } from "./body.ts";
import { callOf, FAILED, TailArgumentsParser } from "./body-support.ts";

/** Its one state is 0, the arguments; FAILED after a fault (no name, a separator, too long). */
export class JsonArgumentsParser extends TailArgumentsParser implements BodyParser {
  private name = "";

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, kind = ""): void {
    this.restartWith(sink, tools);
    this.name = kind;
    if (kind === "") {
      this.fail("the tool call has no name");
      return;
    }
    sink?.onToolCallName(kind);
    this.args.start();
  }

  separator(): void {
    if (this.state !== FAILED) this.fail("a separator marker inside the arguments");
  }

  feed(text: string): void {
    if (this.admit(text)) this.args.feed(text);
  }

  protected result(raw: string): ActionResult {
    if (this.state === FAILED) return { error: this.error };
    return callOf(this.name, this.args.read(raw));
  }

  protected dropPartial(): void {}
}
