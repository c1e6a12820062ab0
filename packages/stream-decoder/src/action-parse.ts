// Turning the raw text of a finished action into a call {name, arguments}, per format.
// Called once per action end (never per token). A failure keeps the raw text and says why.
import { MAX_NESTING_DEPTH } from "./limits.ts";
import { type JsonValue, PythonLiteralError, parsePythonCall } from "./python-literal.ts";

export interface ActionCall {
  readonly name: string;
  readonly arguments: { readonly [key: string]: JsonValue };
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

function isObject(v: unknown): v is { [key: string]: JsonValue } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

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

/** At most 40 characters of model output in an error message. */
function quote40(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** A JSON call `{"name": N, K: {...}}`, K the first of `argsKeys` present (none: {}). */
export function parseJsonCall(raw: string, argsKeys: readonly string[]): ActionResult {
  let v: unknown;
  const text = raw.trim();
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (nestsDeeperThan(text, MAX_NESTING_DEPTH))
    return { error: `the call is nested deeper than ${MAX_NESTING_DEPTH} levels` };
  if (!isObject(v)) return { error: "the call is not a JSON object" };
  const name = v.name;
  if (typeof name !== "string") return { error: 'the call has no string "name"' };
  let args: unknown = {};
  for (const k of argsKeys) {
    if (k in v) {
      args = v[k];
      break;
    }
  }
  if (!isObject(args)) return { error: `the call's "${argsKeys[0]}" is not a JSON object` };
  return { call: { name, arguments: args } };
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
