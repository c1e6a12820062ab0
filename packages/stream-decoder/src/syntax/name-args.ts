// Body syntax "name-args": a call written as its name, an optional call id, then the arguments,
// each part after a separator marker (docs/families/ says which families write it):
//
//   get_weather‹sep›{"city": "Paris"}
//   get_weather‹sep›a1b2c3d4e‹sep›{"city": "Paris"}
//   └── NAME ─┘     └── ID ─┘     └──── ARGS ────┘
//
// The separators are told apart by their count, not their marker: after the first one the text
// is the ID when a second separator follows, else ARGS. So the part after the first separator
// is held until that is known, except when its first non-whitespace unit opens a JSON object
// or list ("{" or "[", which no call id starts with): then it is ARGS at once and, with a sink,
// streamed through the incremental JSON reader (tool-call-scanner.ts, top "arguments") as it
// arrives. The name is reported at the first separator. ARGS must be a JSON object; read by
// the reader when streamed, else by JSON.parse at the end from the tail of the body text the
// decoder kept. The ID is checked (non-empty, one line) and reported as the call's id.
//
// Linear in the body, memory bounded by maxBufferedChars (a longer body is an error result),
// never throws on model output.
import { type ActionResult, parseArgumentsObject } from "../action-parse.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, ToolSchemas } from "./body.ts";
import { FAILED, isJsonSpace, TailArgumentsParser } from "./body-support.ts";
import type { ArgumentsResult } from "./json-arguments-tail.ts";

// ---- states (and FAILED, after a fault: `error` says why) ----
/** Before the first separator: the name.   get_wea‸ther‹sep›… */
const S_NAME = 0;
/** After the first separator, not yet known to be the ID or ARGS.   ‹sep›a1b2‸… */
const S_HELD = 1;
/** ARGS (after the second separator, or known by its first unit).   ‹sep›{"ci‸ty": … */
const S_ARGS = 2;

/** The index of the first non-whitespace unit of `s`, or -1. */
function firstNonSpace(s: string): number {
  for (let i = 0; i < s.length; i++) if (!isJsonSpace(s.charCodeAt(i))) return i;
  return -1;
}

export class NameArgsParser extends TailArgumentsParser implements BodyParser {
  /** The name, or the held part after the first separator. */
  private part = "";
  private name = "";
  /** The call id (the part between two separators), "" when none came. */
  private id = "";
  /** S_HELD: a non-whitespace unit was held (whether it opens ARGS is decided). */
  private heldBegun = false;

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, _kind?: string): void {
    this.restartWith(sink, tools);
    this.part = "";
    this.name = "";
    this.id = "";
    this.heldBegun = false;
  }

  separator(): void {
    switch (this.state) {
      case S_NAME:
        if (this.part.length === 0) {
          this.fail("the tool call has an empty name");
          return;
        }
        this.name = this.part;
        this.part = "";
        this.state = S_HELD;
        this.args.sink?.onToolCallName(this.name);
        return;
      case S_HELD: {
        // The held part was the call id.
        const id = this.part;
        this.part = "";
        if (id.length === 0 || id.includes("\n")) {
          this.fail("the tool call's id is empty or not one line");
          return;
        }
        this.id = id;
        this.state = S_ARGS;
        this.args.start();
        return;
      }
      case S_ARGS:
        this.fail("a separator after the tool call's arguments");
        return;
      default:
        return;
    }
  }

  feed(text: string): void {
    if (!this.admit(text)) return;
    switch (this.state) {
      case S_ARGS:
        this.args.feed(text);
        return;
      case S_NAME:
        this.part += text;
        return;
      default: {
        // S_HELD: ARGS at once when the part opens a JSON object or list.
        this.part += text;
        if (this.heldBegun) return;
        const i = firstNonSpace(text);
        if (i < 0) return;
        this.heldBegun = true;
        const c = text.charCodeAt(i);
        if (c === 123 /* { */ || c === 91 /* [ */) {
          const held = this.part;
          this.part = "";
          this.state = S_ARGS;
          this.args.start(held);
        }
      }
    }
  }

  override end(raw: string): ActionResult {
    const r = super.end(raw);
    this.part = "";
    return r;
  }

  protected result(raw: string): ActionResult {
    switch (this.state) {
      case FAILED:
        return { error: this.error };
      case S_NAME:
        return { error: "the tool call has no arguments separator after its name" };
      case S_HELD: {
        // One separator: the held part is ARGS.
        const sink = this.args.sink;
        if (sink !== null) {
          const t = this.part.trim();
          if (t.length > 0) sink.onToolCallArguments(t);
        }
        return this.call(parseArgumentsObject(this.part));
      }
      default:
        return this.call(this.args.read(raw));
    }
  }

  private call(a: ArgumentsResult): ActionResult {
    if ("error" in a) return a;
    const call = { name: this.name, arguments: a.args };
    return { call: this.id === "" ? call : { ...call, id: this.id } };
  }

  protected dropPartial(): void {
    this.part = "";
  }
}
