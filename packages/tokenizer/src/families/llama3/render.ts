// Llama 3.x chat encoding, exactly what the vendor chat templates render (as transformers'
// apply_chat_template does), with every template literal that is a token (<|begin_of_text|>,
// <|start_header_id|>, <|end_header_id|>, <|eot_id|>) placed as its reserved ID and every caller
// string going through the ordinary encoder (docs/families/llama3.md):
// - renderLlama3: the Llama-3-8B-Instruct template (389 chars): per message
//   `<|start_header_id|>ROLE<|end_header_id|>\n\n` + content|trim + `<|eot_id|>`, BOS before the
//   first; it has no tools (`tools` and `tool_calls` are not rendered, as the template does);
// - renderLlama31: the Llama 3.1+/3.2 template (llama-3.2-3b-instruct.jinja): a system header
//   always (Cutting Knowledge / Today Date: chat_template_kwargs.date_string, else the template's
//   strftime_now("%d %b %Y") of the request's `now` or the local clock; "Environment: ipython"
//   with tools), the tools as
//   `tojson(indent=4)` in the system message or (default) in the first user message, an
//   assistant tool call as `{"name": "N", "parameters": ARGS}`, tool/ipython results under an
//   `ipython` header written as a JSON string (the template's `tojson` of the content).
// Text between two reserved IDs is one encoder call, template and caller text together, as the
// reference tokenizer sees the rendered string.
//
// Where this differs from the template (all documented): string tool-call
// arguments are parsed as JSON first (vLLM does this before rendering; the template would
// write the string quoted); a request the template rejects is TokenizerError
// "invalid-conversation", and so is continue_final_message on a tool result or tool call.

import type { ChatSink } from "../../chat/sink.ts";
import { pyJsonDumps } from "../../py/json.ts";
import { pyStrip } from "../../py/strip.ts";
import { PyJsonError, parsePyJson, pyValueJson } from "../../py/value.ts";
import { strftimeAt } from "../../request/clock.ts";
import {
  type FamilyProfile,
  type NMessage,
  type NToolCall,
  normalizeRequest,
  writeContent,
} from "../../request/normalize.ts";
import { invalid } from "../../request/schema.ts";
import type { TokenIds } from "../definition.ts";
import { ipythonAsTool, llamaKwargs } from "./request.ts";
import type { Llama3Key } from "./tokens.ts";

export type Llama3Ids = TokenIds<Llama3Key>;

const PROFILE: FamilyProfile = { family: "llama3", nativeRoles: [], nativeFields: [] };

const SYSTEM_TOOLS_HEAD =
  'You have access to the following functions. To call a function, please respond with JSON for a function call.Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.Do not use variables.\n\n';
const USER_TOOLS_HEAD =
  'Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\n\nRespond in the format {"name": function name, "parameters": dictionary of argument name and its value}.Do not use variables.\n\n';

/** `<|start_header_id|>ROLE<|end_header_id|>\n\n`. */
function header(b: ChatSink, ids: Llama3Ids, role: string, owner: number | null): void {
  b.reserved(ids.startHeader, owner, "marker");
  b.text(role, owner, "role");
  b.reserved(ids.endHeader, owner, "marker");
  b.text("\n\n", owner, "template");
}

/**
 * Writes content|trim of `m` (field "content"); true when `m` is the final message left open by
 * continue_final_message (transformers' cut: nothing follows).
 */
function trimmedContent(b: ChatSink, m: NMessage, open: number): boolean {
  const s = pyStrip(m.content);
  return writeContent(b, m, s.text, open, { field: "content", offset: s.dropped });
}

/**
 * `content | tojson` (a JSON string) with the audit offsets of the original content: the
 * escapes (", \, control characters) are template text between caller chunks. A reserved
 * string holds none of them, so no match spans a cut; the chunks still form one encoder run.
 */
function jsonStringContent(b: ChatSink, m: NMessage): void {
  const s = m.content;
  const i = m.index;
  b.text('"', i, "content");
  let from = 0;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    if (k > from) b.caller(s.slice(from, k), i, "content", { field: "content", offset: from });
    b.text(pyJsonDumps(s[k]).slice(1, -1), i, "content");
    from = k + 1;
  }
  if (s.length > from) b.caller(s.slice(from), i, "content", { field: "content", offset: from });
  b.text('"', i, "content");
}

/** ARGS as `tool_call.arguments | tojson` writes them (a string is json.loads'ed first, as vLLM does). */
function argumentsJson(tc: NToolCall, i: number): string {
  if (typeof tc.arguments !== "string") return pyJsonDumps(tc.arguments);
  try {
    return pyValueJson(parsePyJson(tc.arguments));
  } catch (e) {
    if (!(e instanceof PyJsonError)) throw e;
    throw invalid(`must be JSON (Llama renders the parsed arguments): ${e.message}`, {
      message: i,
      field: "tool_calls[0].function.arguments",
    });
  }
}

/** continue_final_message is only defined here for a plain final message (no tool result, no tool call). */
function checkPrefill(messages: readonly NMessage[], prefill: boolean): number {
  if (!prefill) return -1;
  const last = messages[messages.length - 1] as NMessage;
  if (last.role === "tool" || last.toolCalls.length > 0)
    throw invalid(
      "continue_final_message needs a final message without tool calls that is not a tool result",
      {
        message: last.index,
      },
    );
  return last.index;
}

/** The Llama-3-8B-Instruct template. */
export function renderLlama3(request: unknown, b: ChatSink, ids: Llama3Ids): void {
  const { request: mapped, ipython } = ipythonAsTool(request);
  // The template has no tools: `tools` and `tool_calls` are validated and not rendered (an
  // assistant tool-call message renders its content), exactly as the template does.
  const req = normalizeRequest(mapped, PROFILE);
  const open = checkPrefill(req.messages, req.continueFinalMessage);
  for (const m of req.messages) {
    if (m.index === 0) b.reserved(ids.beginOfText, 0, "marker");
    header(b, ids, ipython.has(m.index) ? "ipython" : m.role, m.index);
    if (trimmedContent(b, m, open)) return;
    b.reserved(ids.eot, m.index, "marker");
  }
  if (req.addGenerationPrompt) header(b, ids, "assistant", null);
}

/** The Llama 3.1+ template (llama-3.2-3b-instruct.jinja). */
export function renderLlama31(request: unknown, b: ChatSink, ids: Llama3Ids): void {
  const req = normalizeRequest(ipythonAsTool(request).request, PROFILE);
  const kw = llamaKwargs(request);
  const all = req.messages;
  if (all.length === 0)
    throw invalid("the Llama 3.1+ template needs at least one message", { field: "messages" });
  const open = checkPrefill(all, req.continueFinalMessage);
  const tools = req.tools;
  const hasTools = tools.length > 0;
  const writeTools = (): void => {
    tools.forEach((t, k) => {
      b.caller(pyJsonDumps(t.raw, 4), null, "tools", { field: `tools[${k}]` });
      b.text("\n\n", null, "template");
    });
  };

  const first = all[0] as NMessage;
  const system = first.role === "system" ? first : undefined;
  let rest = system === undefined ? all : all.slice(1);
  const owner0 = system === undefined ? null : 0;
  // The template raises here after writing the system message; checked first, so that a
  // prefilled system message cannot end the rendering before the check.
  if (hasTools && kw.toolsInUserMessage && rest.length === 0)
    throw invalid("Cannot put tools in the first user message when there's no first user message!", {
      field: "tools",
    });
  b.reserved(ids.beginOfText, null, "marker");
  header(b, ids, "system", owner0);
  if (hasTools) b.text("Environment: ipython\n", owner0, "template");
  b.text("Cutting Knowledge Date: December 2023\nToday Date: ", owner0, "template");
  if (kw.dateString === undefined) b.text(strftimeAt(req.now, "%d %b %Y"), owner0, "template");
  else b.caller(kw.dateString, null, "chat_template_kwargs", { field: "chat_template_kwargs.date_string" });
  b.text("\n\n", owner0, "template");
  if (hasTools && !kw.toolsInUserMessage) {
    b.text(SYSTEM_TOOLS_HEAD, owner0, "template");
    writeTools();
  }
  if (system !== undefined && trimmedContent(b, system, open)) return;
  b.reserved(ids.eot, owner0, "marker");

  if (hasTools && kw.toolsInUserMessage) {
    const m = rest[0] as NMessage;
    rest = rest.slice(1);
    header(b, ids, "user", m.index);
    b.text(USER_TOOLS_HEAD, m.index, "template");
    writeTools();
    if (trimmedContent(b, m, open)) return;
    b.reserved(ids.eot, m.index, "marker");
  }

  for (const m of rest) {
    const i = m.index;
    if (m.role === "tool") {
      header(b, ids, "ipython", i);
      jsonStringContent(b, m);
    } else if (m.toolCalls.length > 0) {
      if (m.toolCalls.length !== 1)
        throw invalid("This model only supports single tool-calls at once!", {
          message: i,
          field: "tool_calls",
        });
      const tc = m.toolCalls[0] as NToolCall;
      header(b, ids, "assistant", i);
      b.text('{"name": "', i, "template");
      b.caller(tc.name, i, "tool_calls", { field: "tool_calls[0].function.name" });
      b.text('", "parameters": ', i, "template");
      b.caller(argumentsJson(tc, i), i, "tool_calls", { field: "tool_calls[0].function.arguments" });
      b.text("}", i, "template");
    } else {
      header(b, ids, m.role, i);
      if (trimmedContent(b, m, open)) return;
    }
    b.reserved(ids.eot, i, "marker");
  }
  if (req.addGenerationPrompt) header(b, ids, "assistant", null);
}
