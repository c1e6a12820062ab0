// Qwen3-Coder chat encoding: exactly what its chat_template (qwen3-coder-30b-a3b-instruct.jinja,
// ../shared/templates) renders, as transformers renders it, with every template literal that is
// an added token (<|im_start|>, <|im_end|>, <tool_call>, <tool_response>, ... also inside the
// tools prompt) placed as its reserved ID and every caller string going through the ordinary
// encoder (text between two reserved IDs is one enc call, as the reference tokenizer sees it).
//
// The template, rule by rule (docs/families/qwen3-coder.md):
// - a first system message is the system prompt; with tools and no system message the prompt is
//   "You are Qwen, a helpful AI assistant that can interact with a computer to solve tasks.";
// - tools: "<tools>" with, per tool, <function> <name> <description> (Python-stripped)
//   <parameters>: per property <parameter> <name> <type> (`| string`: Python str()) <description>
//   and every other key of the property; then every other key of `parameters` (required, ...),
//   then of the function (strict, ...): an object value as `tojson`, anything else as str()
//   (so `['a', 'b']`, `True`, `None`); then the fixed instructions;
// - an assistant message with tool calls: its content stripped (only when not empty), then per
//   call `\n<tool_call>\n<function=NAME>\n` + per argument `<parameter=K>\nV\n</parameter>\n` +
//   `</function>\n</tool_call>`, V = `tojson` for an object, str() otherwise;
// - tool results: `<tool_response>\nCONTENT\n</tool_response>\n`, consecutive ones in one user
//   turn (opened only when the message before is not a tool message, as `loop.previtem` does);
// - other messages `ROLE\nCONTENT`; reasoning_content, names and enable_thinking are not rendered.
//
// Tool-call arguments given as a JSON string (what OpenAI clients send) are parsed with Python's
// json.loads semantics first, as vLLM's server does before the template (the template itself
// fails on a string: `|items` needs a mapping); they must be a JSON object.

import type { ChatSink } from "../../chat/sink.ts";
import { pyStr } from "../../py/str-repr.ts";
import { pyStrip } from "../../py/strip.ts";
import { PyJsonError, type PyValue, parsePyJson, pyFromJs, pyValueJson } from "../../py/value.ts";
import {
  type FamilyProfile,
  type NMessage,
  normalizeRequest,
  writeContent,
} from "../../request/normalize.ts";
import { fieldName, invalid } from "../../request/schema.ts";
import { imEndLine, imStartLine } from "../chatml.ts";
import type { TokenIds } from "../definition.ts";
import type { Qwen3CoderKey } from "./definition.ts";

const PROFILE: FamilyProfile = { family: "qwen3-coder", nativeRoles: [], nativeFields: [] };

const DEFAULT_SYSTEM =
  "You are Qwen, a helpful AI assistant that can interact with a computer to solve tasks.";
const TOOLS_HEAD = "\n\nYou have access to the following functions:\n\n<tools>";
/** Holds <tool_call> / </tool_call>: written with sink.template (literals only). */
const TOOLS_TAIL =
  "\n</tools>\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n</IMPORTANT>";

type PyMap = ReadonlyMap<string, PyValue>;

function isMap(v: PyValue | undefined): v is PyMap {
  return v instanceof Map;
}

/** `json_dict[key] | tojson` for a mapping, `| string` otherwise (render_extra_keys). */
function extraValue(v: PyValue): string {
  return isMap(v) ? pyValueJson(v) : pyStr(v);
}

/** Renders the tools block of one tool (the function object as Python holds it). */
function renderTool(b: ChatSink, fn: PyMap, k: number): void {
  const at = `tools[${k}].function`;
  const tools = (text: string, field: string, offset?: number): void =>
    b.caller(text, null, "tools", offset === undefined ? { field } : { field, offset });
  /** render_extra_keys(obj, handled) */
  const extraKeys = (obj: PyValue | undefined, handled: readonly string[], prefix: string): void => {
    if (!isMap(obj)) return;
    for (const [key, v] of obj) {
      if (handled.includes(key)) continue;
      const field = fieldName(prefix, key);
      b.text("\n<", null, "tools");
      tools(key, field);
      b.text(">", null, "tools");
      tools(extraValue(v), field);
      b.text("</", null, "tools");
      tools(key, field);
      b.text(">", null, "tools");
    }
  };
  // The template writes a function's and a parameter's description alike: stripped, in its tags.
  const describe = (m: PyMap, field: string): void => {
    const description = m.get("description");
    if (description === undefined) return;
    const d = pyStrip(pyStr(description));
    b.text("\n<description>", null, "tools");
    tools(d.text, `${field}.description`, d.dropped);
    b.text("</description>", null, "tools");
  };
  b.text("\n<function>\n<name>", null, "tools");
  tools(pyStr(fn.get("name") ?? null), `${at}.name`);
  b.text("</name>", null, "tools");
  describe(fn, at);
  b.text("\n<parameters>", null, "tools");
  const parameters = fn.get("parameters");
  const properties = isMap(parameters) ? parameters.get("properties") : undefined;
  if (isMap(properties)) {
    const propsAt = `${at}.parameters.properties`;
    for (const [name, fields] of properties) {
      const field = fieldName(propsAt, name);
      b.text("\n<parameter>\n<name>", null, "tools");
      tools(name, field);
      b.text("</name>", null, "tools");
      if (isMap(fields)) {
        const type = fields.get("type");
        if (type !== undefined) {
          b.text("\n<type>", null, "tools");
          tools(pyStr(type), `${field}.type`);
          b.text("</type>", null, "tools");
        }
        describe(fields, field);
      }
      extraKeys(fields, ["name", "type", "description"], field);
      b.text("\n</parameter>", null, "tools");
    }
  }
  extraKeys(parameters, ["type", "properties"], `${at}.parameters`);
  b.text("\n</parameters>", null, "tools");
  extraKeys(fn, ["type", "name", "description", "parameters"], at);
  b.text("\n</function>", null, "tools");
}

/** The arguments of a call as Python holds them: an object, or a JSON string parsed by json.loads. */
function callArguments(args: NMessage["toolCalls"][number]["arguments"], message: number, j: number): PyMap {
  const at = { message, field: `tool_calls[${j}].function.arguments` };
  let v: PyValue;
  if (typeof args === "string") {
    try {
      v = parsePyJson(args);
    } catch (e) {
      if (e instanceof PyJsonError) throw invalid(`must be JSON (${e.message})`, at);
      throw e;
    }
  } else v = pyFromJs(args);
  if (!isMap(v)) throw invalid("must be a JSON object", at);
  return v;
}

/** Validates `request` and renders it into `b` with the verified IDs of the loaded files. */
export function renderQwen3Coder(request: unknown, b: ChatSink, ids: TokenIds<Qwen3CoderKey>): void {
  const req = normalizeRequest(request, PROFILE);
  const messages = req.messages;
  if (messages.length === 0)
    throw invalid("must not be empty (the template reads messages[0])", { field: "messages" });
  // Python views of the tools and of every call's arguments, checked before anything is rendered.
  const tools = req.tools.map((t) => {
    const raw = pyFromJs(t.raw);
    const fn = isMap(raw) ? raw.get("function") : undefined;
    return isMap(fn) ? fn : new Map<string, PyValue>();
  });
  const callArgs = messages.map((m) => m.toolCalls.map((tc, j) => callArguments(tc.arguments, m.index, j)));
  const open = req.continueFinalMessage ? messages.length - 1 : -1;
  /** Caller content; true when it is the final message left open (continue_final_message): stop. */
  const content = (m: NMessage, rendered: string, ref?: { field: string; offset: number }): boolean =>
    writeContent(b, m, rendered, open, ref);

  const first = messages[0] as NMessage;
  const systemFirst = first.role === "system";
  const owner0 = systemFirst ? 0 : null;
  if (systemFirst) {
    imStartLine(b, ids.imStart, 0, "system");
    if (content(first, first.content)) return;
  } else if (tools.length > 0) {
    b.reserved(ids.imStart, null, "marker");
    b.text("system", null, "role");
    b.text(`\n${DEFAULT_SYSTEM}`, null, "template");
  }
  if (tools.length > 0) {
    b.text(TOOLS_HEAD, owner0, "template");
    tools.forEach((fn, k) => {
      renderTool(b, fn, k);
    });
    b.template(TOOLS_TAIL, owner0, "template");
  }
  if (systemFirst || tools.length > 0) {
    imEndLine(b, ids.imEnd, owner0);
  }

  const start = systemFirst ? 1 : 0;
  for (let i = start; i < messages.length; i++) {
    const m = messages[i] as NMessage;
    if (m.role === "assistant" && m.toolCalls.length > 0) {
      b.reserved(ids.imStart, i, "marker");
      b.text("assistant", i, "role");
      const c = pyStrip(m.content);
      if (c.text.length > 0) {
        b.text("\n", i, "template");
        if (content(m, c.text, { field: "content", offset: c.dropped })) return;
        b.text("\n", i, "template");
      }
      m.toolCalls.forEach((tc, j) => {
        const call = `tool_calls[${j}].function`;
        b.text("\n", i, "template");
        b.reserved(ids.toolCall, i, "marker");
        b.text("\n<function=", i, "tool_calls");
        b.caller(tc.name, i, "tool_calls", { field: `${call}.name` });
        b.text(">\n", i, "tool_calls");
        for (const [key, v] of callArgs[i]?.[j] ?? new Map<string, PyValue>()) {
          const field = fieldName(`${call}.arguments`, key);
          b.text("<parameter=", i, "tool_calls");
          b.caller(key, i, "tool_calls", { field });
          b.text(">\n", i, "tool_calls");
          b.caller(extraValue(v), i, "tool_calls", { field });
          b.text("\n</parameter>\n", i, "tool_calls");
        }
        b.text("</function>\n", i, "tool_calls");
        b.reserved(ids.toolCallEnd, i, "marker");
      });
      imEndLine(b, ids.imEnd, i);
    } else if (m.role === "tool") {
      const prev = messages[i - 1];
      if (i > start && prev?.role !== "tool") {
        imStartLine(b, ids.imStart, i, "user");
      }
      b.reserved(ids.toolResponse, i, "marker");
      b.text("\n", i, "template");
      if (content(m, m.content)) return;
      b.text("\n", i, "template");
      b.reserved(ids.toolResponseEnd, i, "marker");
      b.text("\n", i, "template");
      if (i === messages.length - 1 || messages[i + 1]?.role !== "tool") {
        imEndLine(b, ids.imEnd, i);
      }
    } else {
      imStartLine(b, ids.imStart, i, m.role);
      if (content(m, m.content)) return;
      imEndLine(b, ids.imEnd, i);
    }
  }
  if (req.addGenerationPrompt) {
    imStartLine(b, ids.imStart, null, "assistant");
  }
}
