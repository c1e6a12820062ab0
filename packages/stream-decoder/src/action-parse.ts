// Turning the raw text of a finished action into a call {name, arguments}, per format.
// Called once per action end (never per token). A failure keeps the raw text and says why.
import { MAX_NESTING_DEPTH } from "./limits.ts";
import { isJsonObject as isObject, quote40 } from "./model-text.ts";
import { type JsonValue, parsePythonCall } from "./python-literal.ts";
import { PythonLiteralError } from "./python-literal-error.ts";
import { ToolCallScanner } from "./tool-call-scanner.ts";

export interface ActionCall {
  readonly name: string;
  readonly arguments: { readonly [key: string]: JsonValue };
  /**
   * The call id the model wrote, when its format writes one (a JSON list's `"id"`, a
   * `[CALL_ID]` part); the OpenAI layer uses it as the tool call's id. Absent otherwise.
   */
  readonly id?: string;
}

export type ActionResult = { readonly call: ActionCall } | { readonly error: string };

/** Which parser an action uses. Small integers, chosen once at action start. */
export const ActionParser = {
  /** InternLM2 <|plugin|>: JSON {"name", "parameters"} ("arguments" accepted too). */
  InternLM2Plugin: 0,
  /** Code (InternLM2 <|interpreter|>, ChatGLM3 metadata "interpreter"): ```python fence stripped. */
  Interpreter: 1,
  /** Qwen3 <tool_call>: JSON {"name", "arguments"}. */
  QwenToolCall: 2,
  /** ChatGLM3 tool name: ```python\ntool_call(k=v, ...)\n``` with Python literal arguments. */
  GlmToolCall: 3,
  /** The kind marker was missing. */
  Unknown: 4,
} as const;
export type ActionParser = (typeof ActionParser)[keyof typeof ActionParser];

/**
 * True when the JSON text `s` nests brackets deeper than `max` (strings skipped). JSON.parse
 * itself does not recurse, but a value this deep would make every recursive consumer of the
 * call (JSON.stringify of the event, a tree walk) overflow the stack: it is an error instead.
 */
export function nestsDeeperThan(s: string, max: number): boolean {
  const n = s.length;
  // Deeper than `max` takes more than `max` opening brackets: a shorter text cannot (most
  // calls; the scan was a measurable part of a short call's parse).
  if (n <= max) return false;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) {
      // A string: to its closing quote (the text is valid JSON here: escapes are well formed).
      for (i++; i < n; i++) {
        const d = s.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** The error of a body whose arguments are JSON but not an object. */
export const NOT_OBJECT_ERROR = "the tool call's arguments are not a JSON object";

/**
 * A body's arguments text, parsed once: the object, or why not (invalid JSON, nested deeper than
 * MAX_NESTING_DEPTH, not an object), in that order.
 */
export function parseArgumentsObject(
  json: string,
): { readonly args: { [key: string]: JsonValue } } | { readonly error: string } {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch (e) {
    return { error: `invalid JSON arguments: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (valueNestsDeeperThan(v, MAX_NESTING_DEPTH))
    return { error: `the call is nested deeper than ${MAX_NESTING_DEPTH} levels` };
  return isObject(v) ? { args: v } : { error: NOT_OBJECT_ERROR };
}

/**
 * True when a parsed JSON value nests containers deeper than `max`. For a value JSON.parse made
 * this is nestsDeeperThan of its text (every bracket opens a container), found by walking the
 * containers (explicit stack, no recursion) instead of every unit of the text.
 */
export function valueNestsDeeperThan(v: unknown, max: number): boolean {
  if (typeof v !== "object" || v === null) return false;
  const values: object[] = [v];
  const depths: number[] = [1];
  for (;;) {
    const x = values.pop();
    if (x === undefined) return false;
    const d = depths.pop() as number;
    if (d > max) return true;
    const items: readonly unknown[] = Array.isArray(x) ? x : Object.values(x);
    for (const y of items) {
      if (typeof y === "object" && y !== null) {
        values.push(y);
        depths.push(d + 1);
      }
    }
  }
}

/**
 * When the request gave tools, a call must name one of them: any other name is an action error
 * that names it (the call is not reported; its streamed name and deltas stay what they were).
 */
export function knownTool(r: ActionResult, tools: ReadonlyMap<string, unknown> | undefined): ActionResult {
  if (tools === undefined || !("call" in r) || tools.has(r.call.name)) return r;
  return { error: `the call names a tool the request does not give: ${quote40(r.call.name)}` };
}

/** A call whose JSON has two top-level "name" keys: its streamed name may not be its name. */
export const DUPLICATE_NAME_ERROR = 'the call has more than one "name" key';

/** A \u escape of one of the letters of "name" (a, e, m, n). */
const NAME_LETTER_ESCAPE = /\\u006[15de]/i;

/**
 * True when the JSON call text has more than one top-level "name" key (JSON.parse keeps the
 * last, a stream reports the first). A key that decodes to "name" is spelled `"name"` unless
 * it escapes one of its letters, so a text with one `"name"` and no such escape has at most
 * one; any other text is read by the scanner (linear, without building).
 */
function hasDuplicateName(text: string, nameKey = "name"): boolean {
  // Another key spelling (Command-R's "tool_name"): the scanner reads it.
  if (nameKey !== "name") return duplicateKey(text, nameKey);
  const first = text.indexOf('"name"');
  const twice = first >= 0 && text.indexOf('"name"', first + 1) >= 0;
  // includes() first: a native substring search, a fraction of the regex's cost per unit.
  if (!twice && !(text.includes("\\u006") && NAME_LETTER_ESCAPE.test(text))) return false;
  return duplicateKey(text, "name");
}

function duplicateKey(text: string, nameKey: string): boolean {
  const scanner = new ToolCallScanner(null, undefined, { nameKey });
  scanner.feed(text);
  return scanner.duplicateName;
}

/**
 * The call from a scanner that was fed the whole body `raw` with `build` (the streamed path:
 * one pass gave the deltas and the value). Without a value (malformed, not a call object,
 * too deep) the text is parsed by parseJsonCall, whose JSON.parse spells the error.
 */
export function jsonCallResult(
  scanner: ToolCallScanner,
  raw: string,
  argsKeys: readonly string[],
  idKey?: string,
  nameKey = "name",
): ActionResult {
  const v = scanner.result();
  if (v === undefined || !isObject(v)) return parseJsonCall(raw, argsKeys, idKey, nameKey);
  if (scanner.duplicateName) return { error: duplicateNameError(nameKey) };
  return checkCall(v, argsKeys, idKey, nameKey);
}

const duplicateNameError = (nameKey: string): string =>
  nameKey === "name" ? DUPLICATE_NAME_ERROR : `the call has more than one "${nameKey}" key`;

/**
 * Arguments written as a JSON string holding the object (`"arguments": "{\"a\": 1}"`) are
 * decoded once, as vLLM's parsers do; any other string stays what it is (an error below).
 */
function decodedOnce(args: unknown): unknown {
  if (typeof args !== "string") return args;
  try {
    const v: unknown = JSON.parse(args);
    return isObject(v) && !valueNestsDeeperThan(v, MAX_NESTING_DEPTH) ? v : args;
  } catch {
    return args;
  }
}

/**
 * The checks after a successful parse of a call object, in the order the messages are given.
 * `idKey`: the key of the call id the format writes (its string value becomes the call's id;
 * any other value is ignored, as the peers ignore it).
 */
function checkCall(
  v: { [key: string]: JsonValue },
  argsKeys: readonly string[],
  idKey: string | undefined,
  nameKey = "name",
): ActionResult {
  const name = v[nameKey];
  if (typeof name !== "string") return { error: `the call has no string "${nameKey}"` };
  let args: unknown = {};
  for (const k of argsKeys) {
    if (k in v) {
      args = decodedOnce(v[k]);
      break;
    }
  }
  if (!isObject(args)) return { error: `the call's "${argsKeys[0]}" is not a JSON object` };
  const id = idKey === undefined ? undefined : v[idKey];
  return { call: typeof id === "string" ? { name, arguments: args, id } : { name, arguments: args } };
}

/**
 * A JSON call `{"name": N, K: {...}}` (`nameKey` for "name"), K the first of `argsKeys` present
 * (none: {}; a JSON string holding the object is decoded once); a second name key is an error
 * (DUPLICATE_NAME_ERROR); a string at `idKey` is the call's id. Parsed with JSON.parse: the
 * reading of a text that is already whole (a list element, the reference path), and of a body
 * the incremental reader found malformed, whose error JSON.parse spells.
 */
export function parseJsonCall(
  raw: string,
  argsKeys: readonly string[],
  idKey?: string,
  nameKey = "name",
): ActionResult {
  let v: unknown;
  const text = raw.trim();
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (valueNestsDeeperThan(v, MAX_NESTING_DEPTH))
    return { error: `the call is nested deeper than ${MAX_NESTING_DEPTH} levels` };
  if (!isObject(v)) return { error: "the call is not a JSON object" };
  if (hasDuplicateName(text, nameKey)) return { error: duplicateNameError(nameKey) };
  return checkCall(v, argsKeys, idKey, nameKey);
}

function isFenceLangUnit(c: number): boolean {
  // [A-Za-z0-9_+-]
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 43 || c === 45
  );
}

/**
 * Strips one surrounding Markdown fence (```python ... ```), as the vendors write code.
 * Same result as /^```[A-Za-z0-9_+-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/ on the trimmed text,
 * written out: the lazy body made the regex try the closing pattern at every character of a
 * 30k-char ChatGLM3 tool call (profile: most of what is left here is trim() flattening the
 * action's rope, which the parse needs anyway).
 */
export function stripFence(raw: string): string {
  const t = raw.trim();
  if (!t.startsWith("```") || !t.endsWith("```")) return t;
  let i = 3;
  while (i < t.length && isFenceLangUnit(t.charCodeAt(i))) i++;
  while (i < t.length && (t.charCodeAt(i) === 32 || t.charCodeAt(i) === 9)) i++;
  if (t.charCodeAt(i) === 13) i++;
  if (t.charCodeAt(i) !== 10) return t;
  const body = i + 1;
  const close = t.length - 3;
  // The lazy body ends at the first place where \r?\n?``` reaches the end.
  const c1 = t.charCodeAt(close - 1);
  if (close - 2 >= body && t.charCodeAt(close - 2) === 13 && c1 === 10) return t.slice(body, close - 2);
  if (close - 1 >= body && (c1 === 10 || c1 === 13)) return t.slice(body, close - 1);
  return close >= body ? t.slice(body, close) : t;
}

/** Code: the text with one surrounding Markdown fence stripped, as a call named `kind`. */
export function codeCall(raw: string, kind: string): ActionResult {
  return { call: { name: kind, arguments: { code: stripFence(raw) } } };
}

/** A (fenced) Python `tool_call(k=v, ...)` with literal arguments, as a call named `name`. */
export function parsePythonToolCall(raw: string, name: string): ActionResult {
  const body = stripFence(raw);
  try {
    const c = parsePythonCall(body);
    if (c.name !== "tool_call") return { error: `expected tool_call(...), got ${quote40(c.name)}(...)` };
    return { call: { name, arguments: c.arguments } };
  } catch (e) {
    // Only PythonLiteralError is expected here (the parser is depth-bounded: no RangeError).
    if (e instanceof PythonLiteralError && e.type === "too-deep")
      return { error: `the call is nested deeper than ${MAX_NESTING_DEPTH} levels (${e.message})` };
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** The error of an action whose kind marker was missing. */
export const NO_KIND_ERROR = "the action has no kind marker";

export function parseAction(parser: ActionParser, raw: string, kind: string): ActionResult {
  switch (parser) {
    case ActionParser.InternLM2Plugin:
      return parseJsonCall(raw, ["parameters", "arguments"]);
    case ActionParser.QwenToolCall:
      return parseJsonCall(raw, ["arguments", "parameters"]);
    case ActionParser.Interpreter:
      return { call: { name: "interpreter", arguments: { code: stripFence(raw) } } };
    case ActionParser.GlmToolCall:
      return parsePythonToolCall(raw, kind);
    default:
      return { error: NO_KIND_ERROR };
  }
}
