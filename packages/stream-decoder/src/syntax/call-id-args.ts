// Body syntax "call-id-args": a call written as its call id, a separator marker, then the
// arguments, the id naming the function (Kimi K2):
//
//   functions.get_weather:0‹sep›{"city": "Paris"}
//   └──────── ID ─────────┘     └──── ARGS ────┘
//   NAME = the ID between its first "." and its last ":" (get_weather)
//
// The ID is reported as the call's id, unchanged (trimmed of surrounding whitespace); an ID
// without a "." before a ":" followed by digits only is an error result. ARGS are read by the
// name-args parser (./name-args.ts) after one separator: streamed through the incremental JSON
// reader with a sink, else parsed at the end. The ID is held until the separator (bounded by
// maxBufferedChars with the rest of the body); the name is reported at the separator.
//
// Linear in the body, bounded memory, never throws on model output.
import type { ActionResult } from "../action-parse.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, ToolSchemas } from "./body.ts";
import { BoundedBodyParser, FAILED } from "./body-support.ts";
import { NameArgsParser } from "./name-args.ts";

/** The function name inside a call id `PREFIX.NAME:INDEX`, or null when the id is not of that shape. */
export function nameOfCallId(id: string): string | null {
  const dot = id.indexOf(".");
  const colon = id.lastIndexOf(":");
  if (dot <= 0 || colon <= dot + 1 || colon === id.length - 1) return null;
  for (let i = colon + 1; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  const name = id.slice(dot + 1, colon);
  return /\s/u.test(name) ? null : name;
}

// ---- states (and FAILED, after a fault: `error` says why) ----
/** Before the separator: the id.   functions.get_wea‸ther:0‹sep›… */
const S_ID = 0;
/** After the separator: the arguments, read by the name-args parser.   ‹sep›{"ci‸ty": … */
const S_ARGS = 1;

/**
 * `fed` counts the units of the body before the separator only (the part of end()'s raw text
 * that is not ARGS); the name-args parser bounds ARGS.
 */
export class CallIdArgsParser extends BoundedBodyParser implements BodyParser {
  private readonly args = new NameArgsParser(this.maxChars);
  private idText = "";
  private id = "";

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, kind?: string): void {
    this.args.reset(sink, tools, kind);
    this.restart();
    this.idText = "";
    this.id = "";
  }

  feed(text: string): void {
    switch (this.state) {
      case S_ID:
        if (this.admit(text)) this.idText += text;
        return;
      case S_ARGS:
        this.args.feed(text);
        return;
      default:
        return;
    }
  }

  separator(): void {
    if (this.state === S_ARGS) {
      this.fail("a second separator in the tool call");
      return;
    }
    if (this.state !== S_ID) return;
    const id = this.idText.trim();
    this.idText = "";
    const name = nameOfCallId(id);
    if (name === null) {
      this.fail(`the tool call id ${JSON.stringify(id.slice(0, 40))} is not PREFIX.NAME:INDEX`);
      return;
    }
    this.id = id;
    this.state = S_ARGS;
    // The name part of a name-args body: the name is reported here, ARGS follow.
    this.args.feed(name);
    this.args.separator();
  }

  end(raw: string): ActionResult {
    const state = this.state;
    this.state = S_ID;
    this.idText = "";
    if (state === FAILED) {
      this.args.end("");
      return { error: this.error };
    }
    if (state === S_ID) {
      this.args.end("");
      return { error: "the tool call has no arguments separator after its id" };
    }
    // The name-args parser reads ARGS from the tail of the raw text (the part after the id).
    const r = this.args.end(raw.slice(this.fed));
    return "call" in r ? { call: { ...r.call, id: this.id } } : r;
  }

  protected dropPartial(): void {
    this.idText = "";
  }
}
