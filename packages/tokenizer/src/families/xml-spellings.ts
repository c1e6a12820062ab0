// The tag spellings of the XML-parameter call bodies (@chatwire/stream-decoder syntax/xml-call.ts
// reads every one of them; the template recognizers confirm a rendering against them):
// which literal opens a call before its name, which opens a parameter before its key, which
// close them, whether the name and key are quoted attributes, and whether one body holds
// several calls. A vendor format is a row here, not a parser.
import type { BodySyntax } from "./grammar.ts";

export interface XmlSpelling {
  /** Before the call's name: `<function=` (Qwen3-Coder, Seed-OSS), `<invoke name="` (MiniMax-M2). */
  readonly callOpen: string;
  /** Ends the call: `</function>`, `</invoke>`. */
  readonly callClose: string;
  /** Before a parameter's key: `<parameter=`, `<parameter name="`. */
  readonly paramOpen: string;
  /** Ends a value: `</parameter>`. Its first unit must occur once in it (the value scan relies on it). */
  readonly paramClose: string;
  /**
   * false: the name / key ends at ">" (`<function=NAME>`). true: it ends at `"` and attributes
   * may follow up to ">" (`<invoke name="NAME">`, `<parameter name="K" string="true">`).
   */
  readonly quoted: boolean;
  /**
   * The parameter attribute that says how its value is written (DeepSeek V3.2 `string="true"`:
   * the value is text; `"false"`: JSON). Absent: no attribute is allowed and values are typed
   * by the tool's schema.
   */
  readonly stringAttribute?: string;
  /** One body holds several calls, each its own action (BodyParser.feedCall). */
  readonly multiple: boolean;
  /**
   * How a value is typed by the request's tool schema (without tools every value is text):
   * "type-name": the property's `type` string alone decides (vLLM's Qwen3-Coder rule);
   * "type-set": every type the property allows (`type` lists, `enum` values, `anyOf` / `oneOf` /
   * `allOf` branches) is tried in a fixed order, the value stripped first (vLLM's MiniMax-M2 rule).
   */
  readonly valueTyping: "type-name" | "type-set";
}

/** Qwen3-Coder / Qwen3.5 / Seed-OSS / Nemotron 3 / StepFun 3.5: `<function=N>` `<parameter=K>`. */
const FUNCTION_EQUALS: XmlSpelling = {
  callOpen: "<function=",
  callClose: "</function>",
  paramOpen: "<parameter=",
  paramClose: "</parameter>",
  quoted: false,
  multiple: false,
  valueTyping: "type-name",
};

/** MiniMax-M2: `<invoke name="N">` `<parameter name="K">V</parameter>` `</invoke>`, all calls in one block. */
const INVOKE: XmlSpelling = {
  callOpen: '<invoke name="',
  callClose: "</invoke>",
  paramOpen: '<parameter name="',
  paramClose: "</parameter>",
  quoted: true,
  multiple: true,
  valueTyping: "type-set",
};

/** DeepSeek V3.2 DSML: `<｜DSML｜invoke name="N">` `<｜DSML｜parameter name="K" string="true|false">`. */
const DSML_INVOKE: XmlSpelling = {
  callOpen: '<｜DSML｜invoke name="',
  callClose: "</｜DSML｜invoke>",
  paramOpen: '<｜DSML｜parameter name="',
  paramClose: "</｜DSML｜parameter>",
  quoted: true,
  stringAttribute: "string",
  multiple: true,
  valueTyping: "type-name",
};

/** The body syntaxes read by ./xml-call.ts, by name. */
export const XML_SPELLINGS = {
  "xml-call": FUNCTION_EQUALS,
  "xml-invoke-list": INVOKE,
  "dsml-invoke-list": DSML_INVOKE,
} as const satisfies Partial<Record<BodySyntax, XmlSpelling>>;

export type XmlSyntax = keyof typeof XML_SPELLINGS;
