// Qwen3 chat encoding: exactly what the chat_template of the embedded Qwen3 tokenizer_config.json
// renders, with every template literal that is an added token (<|im_start|>, <think>,
// <tool_call>, ... also inside the tools prompt) placed as its reserved ID, and every caller
// string going through the ordinary encoder. Text between two reserved IDs is one enc call,
// caller text and template text together, as the reference tokenizer sees the rendered string.
//
// Two template rules read caller text as structure; chatwire keeps caller text opaque instead
// (so no caller string can change which reserved IDs appear):
// - without reasoning_content, the template splits assistant content at "</think>"; here the
//   content stays content (its "</think>" is ordinary text, reported by the audit);
// - last_query_index skips user messages wrapped in <tool_response>...</tool_response>; here
//   every user message is a query (tool results are role "tool").
import { quote } from "../errors.ts";
import type { ChatBuilder } from "./builder.ts";
import type { ChatFormat } from "./format.ts";
import { pyJsonDumps } from "./py-json.ts";
import { QWEN3_IDS } from "./reserved.ts";
import {
  checkKeys,
  checkRequest,
  checkRole,
  invalid,
  isObject,
  type JsonObject,
  requireString,
} from "./schema.ts";

const ROLES = ["system", "user", "assistant", "tool"] as const;
const KEYS = ["role", "content", "reasoning_content", "tool_calls"];

const TOOLS_HEAD =
  "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>";
const TOOLS_TAIL =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n';

interface ToolCall {
  readonly name: string;
  /** The arguments as rendered: a caller string, or tojson of an object. */
  readonly arguments: string;
}

interface Message {
  readonly role: string;
  readonly content: string;
  readonly reasoning: string | undefined;
  readonly toolCalls: readonly ToolCall[];
}

function parseToolCall(tc: unknown, i: number, j: number): ToolCall {
  const at = `tool_calls[${j}]`;
  if (!isObject(tc)) throw invalid("must be an object", { message: i, field: at });
  for (const key of Object.keys(tc)) {
    if (key !== "type" && key !== "function")
      throw invalid(`unknown field ${quote(key)}`, { message: i, field: `${at}.${key}` });
  }
  if (tc.type !== undefined && tc.type !== "function")
    throw invalid('must be "function"', { message: i, field: `${at}.type` });
  const fn = tc.function;
  if (!isObject(fn))
    throw invalid("must be an object {name, arguments}", { message: i, field: `${at}.function` });
  for (const key of Object.keys(fn)) {
    if (key !== "name" && key !== "arguments")
      throw invalid(`unknown field ${quote(key)}`, { message: i, field: `${at}.function.${key}` });
  }
  if (typeof fn.name !== "string")
    throw invalid("must be a string", { message: i, field: `${at}.function.name` });
  const args = fn.arguments;
  if (typeof args === "string") return { name: fn.name, arguments: args };
  if (!isObject(args))
    throw invalid("must be an object or a string", { message: i, field: `${at}.function.arguments` });
  return { name: fn.name, arguments: pyJsonDumps(args) };
}

function parseMessage(m: JsonObject, i: number): Message {
  checkKeys(m, i, KEYS);
  const role = checkRole(m, i, ROLES);
  const content = requireString(m, i, "content");
  let reasoning: string | undefined;
  if (m.reasoning_content !== undefined && m.reasoning_content !== null) {
    if (role !== "assistant")
      throw invalid("only an assistant message may carry reasoning_content", {
        message: i,
        field: "reasoning_content",
      });
    if (typeof m.reasoning_content !== "string")
      throw invalid("must be a string", { message: i, field: "reasoning_content" });
    reasoning = m.reasoning_content;
  }
  let toolCalls: ToolCall[] = [];
  if (m.tool_calls !== undefined && m.tool_calls !== null) {
    if (role !== "assistant")
      throw invalid("only an assistant message may carry tool_calls", { message: i, field: "tool_calls" });
    if (!Array.isArray(m.tool_calls)) throw invalid("must be an array", { message: i, field: "tool_calls" });
    toolCalls = m.tool_calls.map((tc: unknown, j) => parseToolCall(tc, i, j));
  }
  return { role, content, reasoning, toolCalls };
}

function parse(request: unknown) {
  const req = checkRequest(request, ["tools", "enable_thinking"]);
  const r = request as JsonObject;
  let tools: string[] = [];
  if (r.tools !== undefined && r.tools !== null) {
    if (!Array.isArray(r.tools)) throw invalid("must be an array", { field: "tools" });
    tools = r.tools.map((t: unknown, k) => {
      if (!isObject(t)) throw invalid("a tool must be an object", { field: `tools[${k}]` });
      return pyJsonDumps(t);
    });
  }
  if (r.enable_thinking !== undefined && typeof r.enable_thinking !== "boolean")
    throw invalid("must be a boolean", { field: "enable_thinking" });
  const messages = req.messages.map(parseMessage);
  return {
    messages,
    tools,
    addGenerationPrompt: req.addGenerationPrompt,
    enableThinking: r.enable_thinking !== false,
  };
}

/** Python str.lstrip("\n") / strip("\n"), with the number of characters dropped in front. */
function stripNewlines(s: string, right: boolean): { text: string; dropped: number } {
  let a = 0;
  while (a < s.length && s.charCodeAt(a) === 10) a++;
  let z = s.length;
  if (right) while (z > a && s.charCodeAt(z - 1) === 10) z--;
  return { text: s.slice(a, z), dropped: a };
}

export const qwen3: ChatFormat = {
  name: "qwen3",
  render(request, b: ChatBuilder) {
    const { messages, tools, addGenerationPrompt, enableThinking } = parse(request);
    const first = messages[0];
    const systemFirst = first?.role === "system";
    const owner0 = systemFirst ? 0 : null;
    if (tools.length > 0) {
      b.reserved(QWEN3_IDS.imStart, owner0, "marker");
      b.text("system", owner0, "role");
      b.text("\n", owner0, "template");
      if (first !== undefined && systemFirst) {
        b.caller(first.content, 0, "content");
        b.text("\n\n", 0, "template");
      }
      b.template(TOOLS_HEAD, owner0, "template");
      tools.forEach((json, k) => {
        b.text("\n", null, "template");
        b.caller(json, null, "tools", { field: `tools[${k}]` });
      });
      b.template(TOOLS_TAIL, owner0, "template");
    } else if (first !== undefined && systemFirst) {
      b.reserved(QWEN3_IDS.imStart, 0, "marker");
      b.text("system", 0, "role");
      b.text("\n", 0, "template");
      b.caller(first.content, 0, "content");
      b.reserved(QWEN3_IDS.imEnd, 0, "marker");
      b.text("\n", 0, "template");
    }

    // last_query_index: the last user message (initially the last index).
    let lastQuery = messages.length - 1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]?.role === "user") {
        lastQuery = i;
        break;
      }
    }

    messages.forEach((m, i) => {
      const last = i === messages.length - 1;
      if (m.role === "user" || (m.role === "system" && i !== 0)) {
        b.reserved(QWEN3_IDS.imStart, i, "marker");
        b.text(m.role, i, "role");
        b.text("\n", i, "template");
        b.caller(m.content, i, "content");
        b.reserved(QWEN3_IDS.imEnd, i, "marker");
        b.text("\n", i, "template");
      } else if (m.role === "assistant") {
        const reasoning = m.reasoning ?? "";
        b.reserved(QWEN3_IDS.imStart, i, "marker");
        b.text("assistant", i, "role");
        b.text("\n", i, "template");
        if (i > lastQuery && (last || reasoning.length > 0)) {
          const r = stripNewlines(reasoning, true);
          const c = stripNewlines(m.content, false);
          b.reserved(QWEN3_IDS.think, i, "marker");
          b.text("\n", i, "template");
          b.caller(r.text, i, "reasoning_content", { field: "reasoning_content", offset: r.dropped });
          b.text("\n", i, "template");
          b.reserved(QWEN3_IDS.thinkEnd, i, "marker");
          b.text("\n\n", i, "template");
          b.caller(c.text, i, "content", { field: "content", offset: c.dropped });
        } else b.caller(m.content, i, "content");
        m.toolCalls.forEach((tc, j) => {
          if (j > 0 || m.content.length > 0) b.text("\n", i, "template");
          b.reserved(QWEN3_IDS.toolCall, i, "marker");
          b.text('\n{"name": "', i, "template");
          b.caller(tc.name, i, "tool_calls", { field: `tool_calls[${j}].function.name` });
          b.text('", "arguments": ', i, "template");
          b.caller(tc.arguments, i, "tool_calls", { field: `tool_calls[${j}].function.arguments` });
          b.text("}\n", i, "template");
          b.reserved(QWEN3_IDS.toolCallEnd, i, "marker");
        });
        b.reserved(QWEN3_IDS.imEnd, i, "marker");
        b.text("\n", i, "template");
      } else if (m.role === "tool") {
        if (i === 0 || messages[i - 1]?.role !== "tool") {
          b.reserved(QWEN3_IDS.imStart, i, "marker");
          b.text("user", i, "role");
        }
        b.text("\n", i, "template");
        b.reserved(QWEN3_IDS.toolResponse, i, "marker");
        b.text("\n", i, "template");
        b.caller(m.content, i, "content");
        b.text("\n", i, "template");
        b.reserved(QWEN3_IDS.toolResponseEnd, i, "marker");
        if (last || messages[i + 1]?.role !== "tool") {
          b.reserved(QWEN3_IDS.imEnd, i, "marker");
          b.text("\n", i, "template");
        }
      }
    });
    if (addGenerationPrompt) {
      b.reserved(QWEN3_IDS.imStart, null, "marker");
      b.text("assistant", null, "role");
      b.text("\n", null, "template");
      if (!enableThinking) {
        b.reserved(QWEN3_IDS.think, null, "marker");
        b.text("\n\n", null, "template");
        b.reserved(QWEN3_IDS.thinkEnd, null, "marker");
        b.text("\n\n", null, "template");
      }
    }
  },
};
