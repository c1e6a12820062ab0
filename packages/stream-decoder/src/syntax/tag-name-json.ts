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
import type { BodyParser, ToolSchemas } from "./body.ts";
import { callOf, FAILED, TailArgumentsParser } from "./body-support.ts";

// ---- states (and FAILED, after a fault: `error` says why) ----
/** Before ">": the name.   get_wea‸ther>… */
const T_NAME = 0;
/** After ">": the arguments.   …>{"ci‸ty": … */
const T_ARGS = 1;

export class TagNameJsonParser extends TailArgumentsParser implements BodyParser {
  private name = "";

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, _kind?: string): void {
    this.restartWith(sink, tools);
    this.name = "";
  }

  separator(): void {
    this.fail("a separator marker inside a function tag");
  }

  feed(text: string): void {
    if (!this.admit(text)) return;
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

  protected result(raw: string): ActionResult {
    if (this.state === FAILED) return { error: this.error };
    if (this.state === T_NAME) return { error: 'the tool call has no ">" after its name' };
    return callOf(this.name, this.args.read(raw));
  }

  protected dropPartial(): void {
    this.name = "";
  }
}
