// The arguments of a body syntax that writes them as one JSON object at the end of the body
// (fenced-json-call, tag-name-json, name-args, json-arguments). They go through the incremental
// JSON reader of tool-call-scanner.ts (top "arguments") as they arrive: it builds the value and,
// streamed (a sink), streams the deltas. Inside a string value it takes a JSON-plain chunk whole
// (feedPlain), and, not streamed, lets the decoder join a run of them into one chunk
// (defersPlain), as json-call does: a long argument string costs one concatenation per token and
// the decoder's raw text is never flattened. When the reader has no value (malformed, unclosed,
// as deep as its cap), JSON.parse of the tail of the body text the decoder kept (BodyParser.end's
// `raw`) spells the error: the count of the arguments' units is kept for that.

import type { ActionResult } from "../action-parse.ts";
import { knownTool, NOT_OBJECT_ERROR, parseArgumentsObject } from "../action-parse.ts";
import { isJsonObject } from "../model-text.ts";
import type { JsonValue } from "../python-literal.ts";
import { ToolCallScanner, type ToolCallSink } from "../tool-call-scanner.ts";
import type { ToolSchemas } from "./body.ts";

/** The arguments object, or why there is none. */
export type ArgumentsResult = { readonly args: { [key: string]: JsonValue } } | { readonly error: string };

export class JsonArgumentsTail {
  /** The sink of the body being read (null: not streamed). */
  sink: ToolCallSink | null = null;
  /** The request's tools: a call must name one of them (knownTool). */
  private tools: ToolSchemas | undefined = undefined;
  private readonly scanner: ToolCallScanner;
  /** Units of the arguments fed so far (the tail of end()'s raw text). */
  private fed = 0;
  /** start() was called for this body: the chunks are the arguments. */
  private started = false;

  /**
   * `maxKept`: the decoder's maxBufferedChars. `trail`: what may follow the object ("trim":
   * whitespace; "fence": whitespace and a closing ``` line).
   */
  constructor(maxKept: number, trail: "trim" | "fence") {
    this.scanner = new ToolCallScanner(null, undefined, { top: "arguments", trail, build: true, maxKept });
  }

  /** A new body (nothing of the arguments read yet). */
  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined): void {
    this.sink = sink;
    this.tools = tools;
    this.scanner.reset(null);
    this.fed = 0;
    this.started = false;
  }

  /** The arguments begin; `text` is their first part. */
  start(text = ""): void {
    this.fed = 0;
    this.started = true;
    this.scanner.reset(this.sink);
    if (text.length > 0) this.feed(text);
  }

  /** The next chunk of the arguments (after start()). */
  feed(text: string): void {
    this.fed += text.length;
    this.scanner.feed(text);
  }

  /** feed() of a JSON-plain chunk (BodyParser.feedPlain; after start()). */
  feedPlain(text: string): void {
    this.fed += text.length;
    this.scanner.feedPlain(text);
  }

  /** The arguments have begun. */
  get reading(): boolean {
    return this.started;
  }

  /** Not streamed and inside a string value of the arguments (BodyParser.defersPlain). */
  get defersPlain(): boolean {
    return this.started && this.sink === null && this.scanner.inStringValue;
  }

  /**
   * The arguments: the value the reader built, else JSON.parse of the last units of `raw` that
   * were fed, through `json` (which may strip what follows the object, or say why it cannot).
   */
  read(raw: string, json?: (tail: string) => string | { readonly error: string }): ArgumentsResult {
    const built = this.scanner.result();
    if (built !== undefined) return isJsonObject(built) ? { args: built } : { error: NOT_OBJECT_ERROR };
    if (raw.length < this.fed) return { error: "the tool call body text is incomplete" };
    const tail = raw.slice(raw.length - this.fed);
    const text = json === undefined ? tail : json(tail);
    return typeof text === "string" ? parseArgumentsObject(text) : text;
  }

  /** The body's result checked against the request's tools; the built value is the caller's now. */
  end(r: ActionResult): ActionResult {
    const out = knownTool(r, this.tools);
    this.scanner.reset(null);
    this.sink = null;
    this.started = false;
    return out;
  }
}
