// The XML-parameter call bodies, one parser for every spelling of XML_SPELLINGS
// (@chatwire/tokenizer families/xml-spellings.ts). Shown
// with "xml-call", the text between the tool-call block's markers:
//
//   ‹<tool_call>›\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n‹</tool_call>›
//                  └ name at this ">"               value at its </parameter> ┘   └ "}" here
//
// streamed to the OpenAI-style name + arguments JSON text: `{"city": "Paris"}` arrives as the
// deltas `{"city": "Paris"` (when </parameter> closes) and `}` (at </function>); no parameter:
// `{}`. Values are typed by the tool's schema when the request carried tools (./xml-call-typing.ts,
// vLLM's rules; a spelling may name other rules, ./xml-invoke-typing.ts), else strings; a
// spelling with a `stringAttribute` (`string="true|false"`) types each value by that attribute
// and the schema (./xml-attribute-typing.ts). Concatenated, the deltas are the JSON of end()'s
// arguments. With the request's tools, a call naming any other tool is an error result naming it
// (knownTool).
//
// The grammar read here (the template's layout, whitespace " \t\r\n" tolerated between tags;
// CALL_OPEN etc. are the spelling's literals):
//   ws* CALL_OPEN NAME END (ws* PARAM_OPEN KEY END VALUE PARAM_CLOSE)* ws* CALL_CLOSE ws*
// END is ">" for an unquoted spelling (`<function=NAME>`), else `"` ATTRIBUTES ">" (`<invoke
// name="NAME">`; ATTRIBUTES empty, or ` string="true|false"` for a key of a spelling with that
// attribute). NAME / KEY: one line, no "<", not empty. VALUE: any text up to the first
// PARAM_CLOSE, less one leading and one trailing "\n" (the templates write them; vLLM strips
// them). A `multiple` spelling (several `<invoke>`s in one block) reads several
// calls: where the next CALL_OPEN starts, feedCall() stops
// and the decoder makes it a new action. Anything else is a malformed body: end() is an error and
// nothing more is streamed. Differences from vLLM's regex reading, which finds calls anywhere:
// text before CALL_OPEN or between parameters is an error here, not skipped; a value ends only at
// PARAM_CLOSE (vLLM also ends it at PARAM_OPEN or CALL_CLOSE written inside it); a repeated KEY
// is streamed twice (JSON.parse, and end(), keep its last value at its first place, as Python's
// dict).
//
// Linear: each unit is looked at once (value text is skipped to the next "<" with indexOf); the
// PARAM_CLOSE match across chunks is a counter (its first unit occurs once in it, so a mismatch
// restarts at the current unit). Memory: the name, the open value's pieces and the arguments;
// beyond maxBufferedChars kept units the body is an error. Never throws on model text.

import { XML_SPELLINGS, type XmlSpelling } from "@chatwire/tokenizer";
import { type ActionResult, knownTool } from "../action-parse.ts";
import type { JsonValue } from "../python-literal.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";
import type { BodyParser, ToolSchemas } from "./body.ts";
import { addMember, isJsonSpace, quote40 } from "./body-support.ts";
import { typeAttributedValue } from "./xml-attribute-typing.ts";
import { type Properties, propertiesOf, type Typed, typeValue } from "./xml-call-typing.ts";
import { typeInvokeValue } from "./xml-invoke-typing.ts";

// ---- states ----
/** Before the call tag: `ws* <function=`. */
const S_LEAD = 0;
/** In a tag after its "<": `<function=`, `<parameter=`, `</function>` (which: `tags`). */
const S_TAG = 1;
/** In the function name: `<function=get_wea|ther>`. */
const S_NAME = 2;
/** After the function name or a parameter: `ws* <parameter=` or `ws* </function>`. */
const S_BETWEEN = 3;
/** In a parameter name: `<parameter=ci|ty>`. */
const S_KEY = 4;
/** In a value: `>\nPar|is\n</parameter>` (`match` units of the close tag seen). */
const S_VALUE = 5;
/** After the call's close tag: ws* only (or, `multiple`, the next call's "<"). */
const S_AFTER = 6;
/** After a quoted name or key's `"`, up to ">": `<parameter name="city"| string="true">`. */
const S_ATTRS = 7;
/** Malformed: `error` says why; the rest is ignored. */
const S_FAILED = 8;

/** Attribute text after a quoted name or key: longer is malformed. */
const MAX_ATTRIBUTES = 64;

export class XmlCallParser implements BodyParser {
  private readonly maxBufferedChars: number;
  private readonly sp: XmlSpelling;
  private readonly leadTags: readonly string[];
  private readonly betweenTags: readonly string[];
  /** The unit that ends a name or key (">" or '"'). */
  private readonly nameEnd: number;
  private readonly attrTrue: string;
  private readonly attrFalse: string;
  private sink: ToolCallSink | null = null;
  private tools: ToolSchemas | undefined;
  private state = S_LEAD;
  /** S_TAG: the tags that may follow, and how much of the tag has been seen. */
  private tags: readonly string[] = [];
  private tag = "";
  /** S_NAME / S_KEY / S_ATTRS pieces; S_VALUE pieces. */
  private pieces: string[] = [];
  private match = 0;
  private kept = 0;
  private name = "";
  private key = "";
  /** S_ATTRS: after the key (else after the name). */
  private inKey = false;
  /** The open value's `string` attribute: "" none, "true" text, "false" JSON. */
  private written: "" | "true" | "false" = "";
  private props: Properties | undefined;
  private args: { [key: string]: JsonValue } = {};
  private count = 0;
  private error = "";

  constructor(maxBufferedChars = 1_000_000, spelling: XmlSpelling = XML_SPELLINGS["xml-call"]) {
    this.maxBufferedChars = maxBufferedChars;
    this.sp = spelling;
    this.leadTags = [spelling.callOpen];
    this.betweenTags = [spelling.paramOpen, spelling.callClose];
    this.nameEnd = spelling.quoted ? 34 : 62;
    const a = spelling.stringAttribute ?? "";
    this.attrTrue = `${a}="true"`;
    this.attrFalse = `${a}="false"`;
    this.tags = this.leadTags;
  }

  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined): void {
    this.sink = sink;
    this.tools = tools;
    this.error = "";
    this.startCall();
  }

  /** The state of a call not begun (the body's first, or the next of a `multiple` body). */
  protected startCall(): void {
    this.state = S_LEAD;
    this.tags = this.leadTags;
    this.tag = "";
    this.pieces = [];
    this.match = 0;
    this.kept = 0;
    this.name = "";
    this.key = "";
    this.inKey = false;
    this.written = "";
    this.props = undefined;
    this.args = {};
    this.count = 0;
  }

  separator(): void {
    if (this.state !== S_FAILED) this.fail("a separator marker is not part of this call syntax");
  }

  feed(text: string): void {
    this.scan(text);
  }

  /**
   * Reads `text`; returns the units read: text.length, or (a `multiple` spelling) the index
   * where the next call's open tag starts, which belongs to the next action.
   */
  protected scan(text: string): number {
    const n = text.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case S_LEAD:
        case S_BETWEEN:
        case S_AFTER: {
          const c = text.charCodeAt(i);
          if (isJsonSpace(c)) {
            i++;
            break;
          }
          if (c === 60 && this.state === S_AFTER && this.sp.multiple) return i;
          if (c !== 60 || this.state === S_AFTER) {
            const got = quote40(String.fromCodePoint(text.codePointAt(i) as number));
            this.fail(
              this.state === S_AFTER
                ? `text after ${this.sp.callClose}: ${got}`
                : `expected ${this.state === S_LEAD ? this.sp.callOpen : `${this.sp.paramOpen} or ${this.sp.callClose}`}, got ${got}`,
            );
            return n;
          }
          this.tags = this.state === S_LEAD ? this.leadTags : this.betweenTags;
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
        case S_ATTRS:
          i = this.attrUnits(text, i);
          break;
        case S_VALUE:
          i = this.valueUnits(text, i);
          break;
        default:
          return n;
      }
    }
    return n;
  }

  /** `raw` (the decoder's copy of the body) is not needed: the parser kept what it reads. */
  end(_raw?: string): ActionResult {
    if (this.state === S_AFTER)
      return knownTool({ call: { name: this.name, arguments: this.args } }, this.tools);
    if (this.state === S_FAILED) return { error: this.error };
    const sp = this.sp;
    const where =
      this.state === S_VALUE
        ? `parameter ${quote40(this.key)} has no ${sp.paramClose}`
        : this.state === S_LEAD
          ? `no ${sp.callOpen}NAME${sp.quoted ? '">' : ">"}`
          : `no ${sp.callClose}`;
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
    if (done === this.sp.callOpen) this.state = S_NAME;
    else if (done === this.sp.paramOpen) this.state = S_KEY;
    else if (done === this.sp.callClose) {
      this.sink?.onToolCallArguments(this.count === 0 ? "{}" : "}");
      this.state = S_AFTER;
    }
    return i + 1;
  }

  /** Units of a function / parameter name up to its end unit; returns the next index. */
  private nameUnits(text: string, i: number): number {
    const stop = this.nameEnd;
    let j = i;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === stop) break;
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
      this.inKey = false;
    } else {
      this.key = name;
      this.inKey = true;
    }
    this.written = "";
    if (this.sp.quoted) this.state = S_ATTRS;
    else this.afterTag();
    return j + 1;
  }

  /** After a name's or key's tag is complete. */
  private afterTag(): void {
    if (this.inKey) {
      this.match = 0;
      this.state = S_VALUE;
    } else this.state = S_BETWEEN;
  }

  /** Attribute units after a quoted name or key, up to ">"; returns the next index. */
  private attrUnits(text: string, i: number): number {
    let j = i;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 62) break;
      if (c === 60 || c === 10 || c === 13) {
        this.fail(
          `a tag holds ${c === 60 ? '"<"' : "a line break"} after ${quote40(this.inKey ? this.key : this.name)}`,
        );
        return text.length;
      }
    }
    if (j > i) {
      const kept = this.pieces.reduce((a, p) => a + p.length, 0) + (j - i);
      if (kept > MAX_ATTRIBUTES) {
        this.fail(`the attributes after ${quote40(this.inKey ? this.key : this.name)} are too long`);
        return text.length;
      }
      this.pieces.push(text.slice(i, j));
    }
    if (j === text.length) return j;
    const attrs = this.pieces.join("").trim();
    this.pieces = [];
    if (attrs !== "") {
      if (
        this.inKey &&
        this.sp.stringAttribute !== undefined &&
        (attrs === this.attrTrue || attrs === this.attrFalse)
      )
        this.written = attrs === this.attrTrue ? "true" : "false";
      else {
        this.fail(`unexpected attributes ${quote40(attrs)}`);
        return text.length;
      }
    }
    this.afterTag();
    return j + 1;
  }

  /** Value units up to and including the close tag; returns the next index. */
  private valueUnits(text: string, i: number): number {
    const close = this.sp.paramClose;
    const first = close.charAt(0);
    const n = text.length;
    while (i < n) {
      if (this.match === 0) {
        const lt = text.indexOf(first, i);
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
      if (text.charCodeAt(i) === close.charCodeAt(this.match)) {
        i++;
        if (++this.match === close.length) {
          this.match = 0;
          this.closeValue();
          return i;
        }
        continue;
      }
      // Not the close tag: what matched is value text; this unit is looked at again (it may be "<").
      if (!this.keep(this.match)) return n;
      this.pieces.push(close.slice(0, this.match));
      this.match = 0;
    }
    return n;
  }

  /** The value as the spelling writes it: by its `string` attribute, else by the schema. */
  private typed(raw: string): Typed {
    if (this.written !== "") return typeAttributedValue(raw, this.written, this.key, this.props);
    if (this.sp.valueTyping === "type-set") return typeInvokeValue(raw, this.key, this.props);
    return typeValue(raw, this.key, this.props);
  }

  private closeValue(): void {
    let raw = this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join("");
    this.pieces = [];
    if (raw.charCodeAt(0) === 10) raw = raw.slice(1);
    if (raw.charCodeAt(raw.length - 1) === 10) raw = raw.slice(0, -1);
    // After a typing error the call has failed: the count no longer matters.
    const member = addMember(this.args, this.key, this.typed(raw), this.count++ === 0);
    if ("error" in member) {
      this.fail(member.error);
      return;
    }
    if (!this.keep(member.delta.length)) return;
    this.sink?.onToolCallArguments(member.delta);
    this.state = S_BETWEEN;
  }
}

/**
 * A `multiple` spelling: one body of several calls (`<invoke>` lists), each its own
 * action. feedCall() stops where the next call's open tag starts; the decoder ends this action,
 * opens the next and calls nextCall().
 */
export class XmlCallListParser extends XmlCallParser {
  feedCall(text: string): number {
    return this.scan(text);
  }

  nextCall(): void {
    this.startCall();
  }
}
