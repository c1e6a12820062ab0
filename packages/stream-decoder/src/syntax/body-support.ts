// Small helpers shared by the body syntaxes: the character class they skip between tokens, how a
// parsed value takes a key, and the messages every syntax gives for the same fault.
import type { JsonValue } from "../python-literal.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
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
