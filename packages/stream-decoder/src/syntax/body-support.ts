// Small helpers shared by the body syntaxes: the character class they skip between tokens, how a
// parsed value takes a key, and the messages every syntax gives for the same fault.
import { type ActionResult, knownTool } from "../action-parse.ts";
import type { JsonValue } from "../python-literal.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, BodyParserFactory, ToolSchemas } from "./body.ts";
import { type ArgumentsResult, JsonArgumentsTail } from "./json-arguments-tail.ts";
import { jsonString } from "./json-text.ts";
import type { Typed } from "./xml-call-typing.ts";

/** JSON whitespace (space, \t, \n, \r). */
export function isJsonSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Sets a key without going through the prototype chain ("__proto__" is an ordinary key). */
export function setKey(obj: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** At most 40 units of model text in a message, in the JSON spelling of the streamed arguments. */
export function quote40(s: string): string {
  return jsonString(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/**
 * A typed parameter value set in `args` under `key`: the arguments delta that streams it
 * (`{` before the first member, `, ` before any other), or the typing's error.
 */
export function addMember(
  args: { [key: string]: JsonValue },
  key: string,
  typed: Typed,
  first: boolean,
): { readonly delta: string } | { readonly error: string } {
  if ("error" in typed) return typed;
  setKey(args, key, typed.value);
  return { delta: `${first ? "{" : ", "}${jsonString(key)}: ${typed.json}` };
}

/** The error of a body longer than the decoder's maxBufferedChars. */
export function tooLongError(maxChars: number): string {
  return `the tool call body is longer than ${maxChars} characters`;
}

/** The state of a BoundedBodyParser whose body is not a call; its own states count from 0. */
export const FAILED = -1;

/**
 * What the state-machine body parsers share: the bound on the units fed, the current state (its
 * first is 0, FAILED the one after a fault) and the error. A subclass says what partial text a
 * fault drops.
 */
export abstract class BoundedBodyParser {
  protected readonly maxChars: number;
  protected state = 0;
  protected error = "";
  /** Units fed so far (the bound). */
  protected fed = 0;

  constructor(maxBufferedChars = 1_000_000) {
    this.maxChars = maxBufferedChars;
  }

  /** The first state, no error, nothing fed (the start of reset()). */
  protected restart(): void {
    this.state = 0;
    this.error = "";
    this.fed = 0;
  }

  /**
   * Counts a fed chunk against the bound (once per chunk, not per unit): false when there is
   * nothing to read, the body having failed, the chunk being empty, or the chunk taking the
   * body past maxBufferedChars (which fails it).
   */
  protected admit(text: string): boolean {
    if (this.state === FAILED || text.length === 0) return false;
    this.fed += text.length;
    if (this.fed <= this.maxChars) return true;
    this.fail(tooLongError(this.maxChars));
    return false;
  }

  /** The body is not a call: `why` is end()'s error; nothing more is read. */
  protected fail(why: string): void {
    this.dropPartial();
    this.state = FAILED;
    this.error = why;
  }

  /** Drops the partial text a fault leaves (streaming first what was read before it, if owed). */
  protected abstract dropPartial(): void;
}

/**
 * A bounded parser whose body ends in the arguments, one JSON object (JsonArgumentsTail, trail
 * "trim"), read by the incremental JSON reader as they arrive (JSON-plain chunks whole).
 */
export abstract class TailArgumentsParser extends BoundedBodyParser {
  /** ARGS; the sink and the request's tools. */
  protected readonly args = new JsonArgumentsTail(this.maxChars, "trim");

  /** A new body: the sink and tools of its arguments, the first state. */
  protected restartWith(sink: ToolCallSink | null, tools: ToolSchemas | undefined): void {
    this.args.reset(sink, tools);
    this.restart();
  }

  /** A JSON-plain chunk (BodyParser.feedPlain): whole into ARGS once they have begun, else feed(). */
  feedPlain(text: string): void {
    if (!this.args.reading) this.feed(text);
    else if (this.admit(text)) this.args.feedPlain(text);
  }

  /** Inside a string of ARGS, not streamed: the decoder may join plain chunks (BodyParser). */
  get defersPlain(): boolean {
    return this.state !== FAILED && this.args.defersPlain;
  }

  abstract feed(text: string): void;

  /** `raw`: the body text fed, concatenated (read only without a built value; BodyParser contract). */
  end(raw: string): ActionResult {
    return this.args.end(this.result(raw));
  }

  /** The call (or why there is none) before the request's tools are checked. */
  protected abstract result(raw: string): ActionResult;
}

/** The call named `name` with arguments `a`, or a's error. */
export function callOf(name: string, a: ArgumentsResult): ActionResult {
  return "error" in a ? a : { call: { name, arguments: a.args } };
}

/**
 * A bounded parser that translates the body into the arguments' JSON text as it reads it and
 * builds the value beside: the deltas wait in `pending` (one per fed chunk), and go out before
 * an error and at the end.
 */
export abstract class TranslatingBodyParser extends BoundedBodyParser {
  protected sink: ToolCallSink | null = null;
  /** The request's tools: a call must name one of them (knownTool). */
  protected tools: ToolSchemas | undefined = undefined;
  /** JSON text not yet streamed (one delta per fed chunk). */
  protected readonly pending = new PendingArguments();

  /** A new body: its sink and the request's tools, nothing pending, the first state. */
  protected restartWith(sink: ToolCallSink | null, tools: ToolSchemas | undefined): void {
    this.tools = tools;
    this.sink = sink;
    this.pending.reset(sink);
    this.restart();
  }

  protected override fail(why: string): void {
    // What was read before the error goes out first, so the deltas do not depend on where chunks were cut.
    this.pending.flush();
    super.fail(why);
  }

  /** end()'s result: what is pending streamed, the call checked against the request's tools. */
  protected finish(): ActionResult {
    if (this.state !== FAILED) this.pending.flush();
    return knownTool(this.result(), this.tools);
  }

  /** The call (or why there is none) before the request's tools are checked. */
  protected abstract result(): ActionResult;
}

/** The factory of syntax/index.ts for a parser bounded by maxBufferedChars alone. */
export function boundedFactory(Parser: new (maxBufferedChars: number) => BodyParser): BodyParserFactory {
  return (o) => new Parser(o.maxBufferedChars);
}

/**
 * Arguments JSON text read but not yet streamed. A parser that translates the body unit by unit
 * streams it at most once per fed chunk (flush), and before an error, so the deltas do not depend
 * on where chunks were cut. Without a sink nothing is kept.
 */
export class PendingArguments {
  private sink: ToolCallSink | null = null;
  private text = "";

  reset(sink: ToolCallSink | null): void {
    this.sink = sink;
    this.text = "";
  }

  add(s: string): void {
    if (this.sink !== null) this.text += s;
  }

  /** What was added goes out as one delta. */
  flush(): void {
    if (this.sink !== null && this.text.length > 0) {
      this.sink.onToolCallArguments(this.text);
      this.text = "";
    }
  }
}
