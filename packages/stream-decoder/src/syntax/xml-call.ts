// Body syntax "xml-call": the text between the tool-call block's markers,
//
//   ‹<tool_call>›\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n‹</tool_call>›
//                  └ name at this ">"               value at its </parameter> ┘   └ "}" here
//
// streamed to the OpenAI-style name + arguments JSON text: `{"city": "Paris"}` arrives as the
// deltas `{"city": "Paris"` (when </parameter> closes) and `}` (at </function>); no parameter:
// `{}`. Values are typed by the tool's schema when the request carried tools (./xml-call-typing.ts,
// vLLM's rules), else strings. Concatenated, the deltas are the JSON of end()'s arguments.
//
// The grammar read here (the template's layout, whitespace " \t\r\n" tolerated between tags):
//   ws* "<function=" NAME ">" (ws* "<parameter=" KEY ">" VALUE "</parameter>")* ws* "</function>" ws*
// NAME / KEY: one line, no "<", not empty. VALUE: any text up to the first "</parameter>", less
// one leading and one trailing "\n" (the template writes them; vLLM strips them). Anything else
// is a malformed body: end() is an error and nothing more is streamed. Differences from vLLM's
// regex reading, which finds calls anywhere: text before <function= or between parameters is an
// error here, not skipped; a value ends only at </parameter> (vLLM also ends it at "<parameter="
// or "</function>" written inside it); one <tool_call> holds one call; a repeated KEY is streamed
// twice (JSON.parse, and end(), keep its last value at its first place, as Python's dict).
//
// Linear: each unit is looked at once (value text is skipped to the next "<" with indexOf); the
// "</parameter>" match across chunks is a counter (its "<" occurs once in it, so a mismatch
// restarts at the current unit). Memory: the name, the open value's pieces and the arguments;
// beyond maxBufferedChars kept units the body is an error. Never throws on model text.
import type { ActionResult } from "../action-parse.ts";
import type { JsonValue } from "../python-literal.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, ToolSchemas } from "./body.ts";
import { jsonString } from "./json-text.ts";
import { type Properties, propertiesOf, typeValue } from "./xml-call-typing.ts";

// ---- states ----
/** Before the function tag: `ws* <function=`. */
const S_LEAD = 0;
/** In a tag after its "<": `<function=`, `<parameter=`, `</function>` (which: `tags`). */
const S_TAG = 1;
/** In the function name: `<function=get_wea|ther>`. */
const S_NAME = 2;
/** After the function name or a parameter: `ws* <parameter=` or `ws* </function>`. */
const S_BETWEEN = 3;
/** In a parameter name: `<parameter=ci|ty>`. */
const S_KEY = 4;
/** In a value: `>\nPar|is\n</parameter>` (`match` units of "</parameter>" seen). */
const S_VALUE = 5;
/** After `</function>`: ws* only. */
const S_AFTER = 6;
/** Malformed: `error` says why; the rest is ignored. */
const S_FAILED = 7;

const OPEN_FUNCTION = "<function=";
const OPEN_PARAMETER = "<parameter=";
const CLOSE_FUNCTION = "</function>";
const CLOSE_PARAMETER = "</parameter>";
const LEAD_TAGS: readonly string[] = [OPEN_FUNCTION];
const BETWEEN_TAGS: readonly string[] = [OPEN_PARAMETER, CLOSE_FUNCTION];

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** At most 40 units of model text in a message. */
function quote40(s: string): string {
  return jsonString(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** Sets a key without going through the prototype chain ("__proto__" is an ordinary key). */
function setKey(obj: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

export class XmlCallParser implements BodyParser {
  private readonly maxBufferedChars: number;
  private sink: ToolCallSink | null = null;
  private tools: ToolSchemas | undefined;
  private state = S_LEAD;
  /** S_TAG: the tags that may follow, and how much of the tag has been seen. */
  private tags: readonly string[] = LEAD_TAGS;
  private tag = "";
  /** S_NAME / S_KEY pieces; S_VALUE pieces. */
  private pieces: string[] = [];
  private match = 0;
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
    this.state = S_LEAD;
    this.tags = LEAD_TAGS;
    this.tag = "";
    this.pieces = [];
    this.match = 0;
    this.kept = 0;
    this.name = "";
    this.key = "";
    this.props = undefined;
    this.args = {};
    this.count = 0;
    this.error = "";
  }

  separator(): void {
    if (this.state !== S_FAILED) this.fail("a separator marker is not part of this call syntax");
  }

  feed(text: string): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case S_LEAD:
        case S_BETWEEN:
        case S_AFTER: {
          const c = text.charCodeAt(i);
          if (isWs(c)) {
            i++;
            break;
          }
          if (c !== 60 || this.state === S_AFTER) {
            const got = quote40(String.fromCodePoint(text.codePointAt(i) as number));
            this.fail(
              this.state === S_AFTER
                ? `text after </function>: ${got}`
                : `expected ${this.state === S_LEAD ? "<function=" : "<parameter= or </function>"}, got ${got}`,
            );
            return;
          }
          this.tags = this.state === S_LEAD ? LEAD_TAGS : BETWEEN_TAGS;
          this.tag = "<";
          this.state = S_TAG;
          i++;
          break;
        }
        case S_TAG:
          i = this.tagUnit(text, i);
          break;
        case S_NAME:
        case S_KEY:
          i = this.nameUnits(text, i);
          break;
        case S_VALUE:
          i = this.valueUnits(text, i);
          break;
        default:
          return;
      }
    }
  }

  /** `raw` (the decoder's copy of the body) is not needed: the parser kept what it reads. */
  end(_raw?: string): ActionResult {
    if (this.state === S_AFTER) return { call: { name: this.name, arguments: this.args } };
    if (this.state === S_FAILED) return { error: this.error };
    const where =
      this.state === S_VALUE
        ? `parameter ${quote40(this.key)} has no </parameter>`
        : this.state === S_LEAD
          ? "no <function=NAME>"
          : "no </function>";
    return { error: `unterminated call: ${where}` };
  }

  private fail(why: string): void {
    this.state = S_FAILED;
    this.error = why;
    this.pieces = [];
  }

  private keep(units: number): boolean {
    this.kept += units;
    if (this.kept <= this.maxBufferedChars) return true;
    this.fail(`the call holds more than ${this.maxBufferedChars} characters`);
    return false;
  }

  /** One unit of a tag after its "<"; returns the next index. */
  private tagUnit(text: string, i: number): number {
    const tag = this.tag + (text[i] as string);
    let done: string | undefined;
    let prefix = false;
    for (const t of this.tags) {
      if (t === tag) done = t;
      else if (t.startsWith(tag)) prefix = true;
    }
    if (done === undefined && !prefix) {
      this.fail(`unexpected tag ${quote40(tag)}`);
      return text.length;
    }
    this.tag = tag;
    if (done === OPEN_FUNCTION) this.state = S_NAME;
    else if (done === OPEN_PARAMETER) this.state = S_KEY;
    else if (done === CLOSE_FUNCTION) {
      this.sink?.onToolCallArguments(this.count === 0 ? "{}" : "}");
      this.state = S_AFTER;
    }
    return i + 1;
  }

  /** Units of a function / parameter name up to its ">"; returns the next index. */
  private nameUnits(text: string, i: number): number {
    let j = i;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 62) break; // ">"
      if (c === 60 || c === 10 || c === 13) {
        const sofar = this.pieces.join("") + text.slice(i, j);
        this.fail(`a name holds ${c === 60 ? '"<"' : "a line break"}: ${quote40(sofar)}`);
        return text.length;
      }
    }
    if (j > i) {
      if (!this.keep(j - i)) return text.length;
      this.pieces.push(text.slice(i, j));
    }
    if (j === text.length) return j;
    const name = this.pieces.join("");
    this.pieces = [];
    if (name.length === 0) {
      this.fail(this.state === S_NAME ? "empty function name" : "empty parameter name");
      return text.length;
    }
    if (this.state === S_NAME) {
      this.name = name;
      this.props = this.tools === undefined ? undefined : propertiesOf(this.tools.get(name));
      this.sink?.onToolCallName(name);
      this.state = S_BETWEEN;
    } else {
      this.key = name;
      this.match = 0;
      this.state = S_VALUE;
    }
    return j + 1;
  }

  /** Value units up to and including "</parameter>"; returns the next index. */
  private valueUnits(text: string, i: number): number {
    const n = text.length;
    while (i < n) {
      if (this.match === 0) {
        const lt = text.indexOf("<", i);
        const end = lt < 0 ? n : lt;
        if (end > i) {
          if (!this.keep(end - i)) return n;
          this.pieces.push(text.slice(i, end));
        }
        if (lt < 0) return n;
        this.match = 1;
        i = lt + 1;
        continue;
      }
      if (text.charCodeAt(i) === CLOSE_PARAMETER.charCodeAt(this.match)) {
        i++;
        if (++this.match === CLOSE_PARAMETER.length) {
          this.match = 0;
          this.closeValue();
          return i;
        }
        continue;
      }
      // Not "</parameter>": what matched is value text; this unit is looked at again (it may be "<").
      if (!this.keep(this.match)) return n;
      this.pieces.push(CLOSE_PARAMETER.slice(0, this.match));
      this.match = 0;
    }
    return n;
  }

  private closeValue(): void {
    let raw = this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join("");
    this.pieces = [];
    if (raw.charCodeAt(0) === 10) raw = raw.slice(1);
    if (raw.charCodeAt(raw.length - 1) === 10) raw = raw.slice(0, -1);
    const typed = typeValue(raw, this.key, this.props);
    if ("error" in typed) {
      this.fail(typed.error);
      return;
    }
    setKey(this.args, this.key, typed.value);
    const delta = `${this.count === 0 ? "{" : ", "}${jsonString(this.key)}: ${typed.json}`;
    this.count++;
    if (!this.keep(delta.length)) return;
    this.sink?.onToolCallArguments(delta);
    this.state = S_BETWEEN;
  }
}
