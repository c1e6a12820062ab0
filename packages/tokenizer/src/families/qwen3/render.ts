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

import type { ChatSink } from "../../chat/sink.ts";
import { pyJsonDumps } from "../../py/json.ts";
import {
  type FamilyProfile,
  type NMessage,
  type NToolCall,
  normalizeRequest,
  writeContent,
} from "../../request/normalize.ts";
import { imEndLine, imStartLine } from "../chatml.ts";
import type { TokenIds } from "../definition.ts";
import type { Qwen3Key } from "./tokens.ts";

const PROFILE: FamilyProfile = { family: "qwen3", nativeRoles: [], nativeFields: [] };

const TOOLS_HEAD =
  "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>";
const TOOLS_TAIL =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n';

/** Python str.lstrip("\n") / strip("\n"), with the number of characters dropped in front. */
function stripNewlines(s: string, right: boolean): { text: string; dropped: number } {
  let a = 0;
  while (a < s.length && s.charCodeAt(a) === 10) a++;
  let z = s.length;
  if (right) while (z > a && s.charCodeAt(z - 1) === 10) z--;
  return { text: s.slice(a, z), dropped: a };
}

/** Validates `request` and renders it into `b` with the verified IDs of the loaded files. */
export function renderQwen3(request: unknown, b: ChatSink, ids: TokenIds<Qwen3Key>): void {
  const req = normalizeRequest(request, PROFILE);
  const messages = req.messages;
  const tools = req.tools.map((t) => pyJsonDumps(t.raw));
  const open = req.continueFinalMessage ? messages.length - 1 : -1;
  /** Caller content; true when it is the final message left open (continue_final_message): stop. */
  const content = (m: NMessage, rendered: string, ref?: { field: string; offset: number }): boolean =>
    writeContent(b, m, rendered, open, ref);
  const first = messages[0];
  const systemFirst = first?.role === "system";
  const owner0 = systemFirst ? 0 : null;
  if (tools.length > 0) {
    imStartLine(b, ids.imStart, owner0, "system");
    if (first !== undefined && systemFirst) {
      if (content(first, first.content)) return;
      b.text("\n\n", 0, "template");
    }
    b.template(TOOLS_HEAD, owner0, "template");
    tools.forEach((json, k) => {
      b.text("\n", null, "template");
      b.caller(json, null, "tools", { field: `tools[${k}]` });
    });
    b.template(TOOLS_TAIL, owner0, "template");
  } else if (first !== undefined && systemFirst) {
    imStartLine(b, ids.imStart, 0, "system");
    if (content(first, first.content)) return;
    imEndLine(b, ids.imEnd, 0);
  }

  // last_query_index: the last user message (initially the last index).
  let lastQuery = messages.length - 1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") {
      lastQuery = i;
      break;
    }
  }

  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as NMessage;
    const last = i === messages.length - 1;
    if (m.role === "user" || (m.role === "system" && i !== 0)) {
      imStartLine(b, ids.imStart, i, m.role);
      if (content(m, m.content)) return;
      imEndLine(b, ids.imEnd, i);
    } else if (m.role === "assistant") {
      const reasoning = m.reasoning ?? "";
      imStartLine(b, ids.imStart, i, "assistant");
      if (i > lastQuery && (last || reasoning.length > 0)) {
        const r = stripNewlines(reasoning, true);
        const c = stripNewlines(m.content, false);
        b.reserved(ids.think, i, "marker");
        b.text("\n", i, "template");
        b.caller(r.text, i, "reasoning_content", { field: m.reasoningField, offset: r.dropped });
        b.text("\n", i, "template");
        b.reserved(ids.thinkEnd, i, "marker");
        b.text("\n\n", i, "template");
        if (content(m, c.text, { field: "content", offset: c.dropped })) return;
      } else if (content(m, m.content)) return;
      for (let j = 0; j < m.toolCalls.length; j++) {
        const tc = m.toolCalls[j] as NToolCall;
        if (j > 0 || m.content.length > 0) b.text("\n", i, "template");
        const args = typeof tc.arguments === "string" ? tc.arguments : pyJsonDumps(tc.arguments);
        b.reserved(ids.toolCall, i, "marker");
        b.text('\n{"name": "', i, "template");
        b.caller(tc.name, i, "tool_calls", { field: `tool_calls[${j}].function.name` });
        b.text('", "arguments": ', i, "template");
        b.caller(args, i, "tool_calls", { field: `tool_calls[${j}].function.arguments` });
        b.text("}\n", i, "template");
        b.reserved(ids.toolCallEnd, i, "marker");
      }
      imEndLine(b, ids.imEnd, i);
    } else if (m.role === "tool") {
      if (i === 0 || messages[i - 1]?.role !== "tool") {
        b.reserved(ids.imStart, i, "marker");
        b.text("user", i, "role");
      }
      b.text("\n", i, "template");
      b.reserved(ids.toolResponse, i, "marker");
      b.text("\n", i, "template");
      if (content(m, m.content)) return;
      b.text("\n", i, "template");
      b.reserved(ids.toolResponseEnd, i, "marker");
      if (last || messages[i + 1]?.role !== "tool") {
        imEndLine(b, ids.imEnd, i);
      }
    }
  }
  if (req.addGenerationPrompt) {
    imStartLine(b, ids.imStart, null, "assistant");
    if (req.enableThinking === false) {
      b.reserved(ids.think, null, "marker");
      b.text("\n\n", null, "template");
      b.reserved(ids.thinkEnd, null, "marker");
      b.text("\n\n", null, "template");
    }
  }
}
