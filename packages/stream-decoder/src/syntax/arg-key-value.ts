// Body syntax "arg-key-value": the call's name, then key/value pairs
// whose four tags are reserved tokens, given to the block as separator markers:
//
//   ‹<tool_call>›get_weather‹<arg_key>›city‹</arg_key>›‹<arg_value>›Paris‹</arg_value>›‹</tool_call>›
//                └ name ┘  sep 1    key   sep 2      sep 3     value   sep 4
//
// The decoder hands separators over without saying which one (BodyParser.separator()), so they
// are read by position: after the name, sep 1 opens a key, sep 2 closes it, sep 3 opens its value,
// sep 4 closes it, and so on. Only whitespace may stand between sep 2 and sep 3 and between sep 4
// and the next sep 1 (some templates write "\n" there). A tag out of that order is therefore read as the
// one expected there; the text around it usually makes the body an error, but not always.
//
// Streamed as name + arguments JSON text: the name at the first separator (or at the end of a
// call without arguments), `{"city": "Paris"` when the first value closes, `, "k": v` per further
// value, `}` (or `{}`) at the end. Name and keys are trimmed; values are kept as written. Typing,
// after vLLM's tool parser for this format (a re-implementation of its rule, labelled as such;
// the file is named in docs/decoder.md, which this engine file may not name): a value
// whose parameter the request's tool types as "string" is text; any other value is json.loads,
// else ast.literal_eval, else text (./xml-call-typing.ts gives the Python-equal steps).
//
// With the request's tools, a call naming any other tool is an error result naming it (knownTool).
//
// Linear in the body; keeps the open piece and the arguments, bounded by maxBufferedChars (beyond
// it the call is an error). Never throws on model text.
import { type ActionResult, knownTool } from "../action-parse.ts";
import type { JsonValue } from "../python-literal.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, ToolSchemas } from "./body.ts";
import { addMember, quote40 } from "./body-support.ts";
import {
  asString,
  jsonLoads,
  literalEval,
  type Properties,
  propertiesOf,
  type Typed,
} from "./xml-call-typing.ts";

// ---- states ----
/** The name: `get_wea|ther‹<arg_key>›`. */
const K_NAME = 0;
/** A key: `‹<arg_key>›ci|ty‹</arg_key>›`. */
const K_KEY = 1;
/** Between a key's close and its value's open: whitespace only. */
const K_TO_VALUE = 2;
/** A value: `‹<arg_value>›Par|is‹</arg_value>›`. */
const K_VALUE = 3;
/** After a value: whitespace only, then the next key (or the end). */
const K_AFTER = 4;
/** Malformed: `error` says why; the rest is ignored. */
const K_FAILED = 5;

function blank(s: string): boolean {
  return /^[ \t\r\n]*$/u.test(s);
}

function isStringTyped(props: Properties | undefined, key: string): boolean {
  if (props === undefined || !Object.hasOwn(props, key)) return false;
  const schema = props[key];
  return typeof schema === "object" && schema !== null && (schema as { type?: unknown }).type === "string";
}

export class ArgKeyValueParser implements BodyParser {
  private readonly maxBufferedChars: number;
  private sink: ToolCallSink | null = null;
  private tools: ToolSchemas | undefined;
  private state = K_NAME;
  private pieces: string[] = [];
  private kept = 0;
  private name = "";
  private key = "";
  private props: Properties | undefined;
  private args: { [key: string]: JsonValue } = {};
  private count = 0;
  private error = "";

  constructor(maxBufferedChars = 1_000_000) {
    this.maxBufferedChars = maxBufferedChars;
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined): void {
    this.sink = sink;
    this.tools = tools;
    this.state = K_NAME;
    this.pieces = [];
    this.kept = 0;
    this.name = "";
    this.key = "";
    this.props = undefined;
    this.args = {};
    this.count = 0;
    this.error = "";
  }

  feed(text: string): void {
    if (this.state === K_FAILED || text === "") return;
    this.kept += text.length;
    if (this.kept > this.maxBufferedChars) {
      this.fail(`the call holds more than ${this.maxBufferedChars} characters`);
      return;
    }
    if ((this.state === K_TO_VALUE || this.state === K_AFTER) && !blank(text)) {
      const at = text.search(/[^ \t\r\n]/u); // not blank: found
      const c = text.codePointAt(at) as number;
      this.fail(`text between the key/value tags: ${quote40(String.fromCodePoint(c))}`);
      return;
    }
    this.pieces.push(text);
  }

  separator(): void {
    switch (this.state) {
      case K_NAME:
        if (this.takeName()) this.state = K_KEY;
        return;
      case K_KEY: {
        const key = this.take().trim();
        if (key === "") this.fail("empty parameter name");
        else {
          this.key = key;
          this.state = K_TO_VALUE;
        }
        return;
      }
      case K_TO_VALUE:
        this.pieces = [];
        this.state = K_VALUE;
        return;
      case K_VALUE:
        this.closeValue(this.take());
        return;
      case K_AFTER:
        this.pieces = [];
        this.state = K_KEY;
        return;
      default:
        return;
    }
  }

  end(_raw?: string): ActionResult {
    if (this.state === K_NAME && !this.takeName()) return { error: this.error };
    if (this.state === K_FAILED) return { error: this.error };
    if (this.state === K_NAME || this.state === K_AFTER) {
      this.sink?.onToolCallArguments(this.count === 0 ? "{}" : "}");
      return knownTool({ call: { name: this.name, arguments: this.args } }, this.tools);
    }
    const where =
      this.state === K_VALUE ? `the value of ${quote40(this.key)} is not closed` : "a key has no value";
    return { error: `unterminated call: ${where}` };
  }

  private take(): string {
    const s = this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join("");
    this.pieces = [];
    return s;
  }

  /** The name from the text so far; false (and failed) when it is not one. */
  private takeName(): boolean {
    const name = this.take().trim();
    if (name === "" || /[\n\r<]/u.test(name)) {
      this.fail(name === "" ? "empty function name" : `not a function name: ${quote40(name)}`);
      return false;
    }
    this.name = name;
    this.props = this.tools === undefined ? undefined : propertiesOf(this.tools.get(name));
    this.sink?.onToolCallName(name);
    return true;
  }

  private typed(raw: string): Typed {
    if (isStringTyped(this.props, this.key)) return asString(raw);
    return jsonLoads(raw) ?? literalEval(raw) ?? asString(raw);
  }

  private closeValue(raw: string): void {
    // After a typing error the call has failed: the count no longer matters.
    const member = addMember(this.args, this.key, this.typed(raw), this.count++ === 0);
    if ("error" in member) {
      this.fail(member.error);
      return;
    }
    this.kept += member.delta.length;
    if (this.kept > this.maxBufferedChars) {
      this.fail(`the call holds more than ${this.maxBufferedChars} characters`);
      return;
    }
    this.sink?.onToolCallArguments(member.delta);
    this.state = K_AFTER;
  }

  private fail(why: string): void {
    this.state = K_FAILED;
    this.error = why;
    this.pieces = [];
  }
}
