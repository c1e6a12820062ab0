// Turning the raw text of a finished action into a call {name, arguments}, per format.
// Called once per action end (never per token). A failure keeps the raw text and says why.
import { type JsonValue, parsePythonCall } from "./python-literal.ts";

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

function parseJsonCall(raw: string, argsKeys: readonly string[]): ActionResult {
  let v: unknown;
  try {
    v = JSON.parse(raw.trim());
  } catch (e) {
    return { error: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
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

/** Strips one surrounding Markdown fence (```python ... ```), as the vendors write code. */
export function stripFence(raw: string): string {
  const t = raw.trim();
  const m = /^```[A-Za-z0-9_+-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/.exec(t);
  return m ? (m[1] as string) : t;
}

export function parseAction(parser: ActionParser, raw: string, kind: string): ActionResult {
  switch (parser) {
    case ActionParser.InternLM2Plugin:
      return parseJsonCall(raw, ["parameters", "arguments"]);
    case ActionParser.QwenToolCall:
      return parseJsonCall(raw, ["arguments", "parameters"]);
    case ActionParser.Interpreter:
      return { call: { name: "interpreter", arguments: { code: stripFence(raw) } } };
    case ActionParser.GlmToolCall: {
      const body = stripFence(raw);
      try {
        const c = parsePythonCall(body);
        if (c.name !== "tool_call") return { error: `expected tool_call(...), got ${c.name}(...)` };
        return { call: { name: kind, arguments: c.arguments } };
      } catch (e) {
        return { error: e instanceof Error ? e.message : String(e) };
      }
    }
    default:
      return { error: "the action has no kind marker" };
  }
}
