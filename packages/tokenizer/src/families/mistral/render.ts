// Mistral instruct encoding as mistral-common's InstructTokenizerV1/V2/V3/V7 write it
// (instruct.py; docs/families/mistral.md). Every `tokenizer.encode(s)` of the reference is one
// text run here (SentencePiece adds its dummy-prefix "▁" per call), so runs are cut where the
// reference starts a new encode call.
//
//   ‹s› then per message:
//   user       v1: "[INST] CONTENT [/INST]" (one text run; [INST] is text in v1)
//              v2+: [‹AVAILABLE_TOOLS› TOOLS_JSON ‹/AVAILABLE_TOOLS›] ‹INST› CONTENT ‹/INST›
//              (tools before the LAST user message, v13: the FIRST; v1-v3 put the system
//              prompt + "\n\n" in front of the first (v1) / last (v2, v3) user message's content)
//   system     v7+: ‹SYSTEM_PROMPT› CONTENT ‹/SYSTEM_PROMPT›
//   assistant  [‹THINK› REASONING ‹/THINK›] CONTENT (v2+: trailing " " stripped) CALLS ‹/s›
//              (no ‹/s› on the message continue_final_message leaves open; the reasoning
//              only where the tokenizer has ‹THINK›)
//              CALLS v2-v7: ‹TOOL_CALLS› CALLS_JSON
//                    v11+: per call ‹TOOL_CALLS› NAME [‹CALL_ID› ID (v11)] ‹ARGS› ARGS_JSON
//   tool       v2: ‹TOOL_RESULTS› [{"name": N, "content": C}, ...] ‹/TOOL_RESULTS› (one list per
//              run of tool messages)
//              v3: ‹TOOL_RESULTS› {"content": C, "call_id": ID} ‹/TOOL_RESULTS›
//              v7, v11: ‹TOOL_RESULTS› ID ‹TOOL_CONTENT› CONTENT ‹/TOOL_RESULTS›
//              v13: ‹TOOL_RESULTS› CONTENT ‹/TOOL_RESULTS›
// v2 leaves out tool calls and tool results before the last user message.

import type { ChatSink } from "../../chat/sink.ts";
import { pyJsonDumps, pyJsonString } from "../../py/json.ts";
import { type PyValue, pyValueJson } from "../../py/value.ts";
import type { TokenIds } from "../definition.ts";
import { loadsOrUndefined, type Piece, type Plan, type PlannedCall, planRequest } from "./plan.ts";
import type { MistralKey, MistralVersion } from "./tokens.ts";

/** Writes caller pieces joined by "\n\n" into the current run. */
function joined(b: ChatSink, parts: readonly Piece[], field: string, first = true): boolean {
  let lead = !first;
  for (const p of parts) {
    if (lead) b.text("\n\n", p.message, "template");
    b.caller(p.text, p.message, field);
    lead = true;
  }
  return lead;
}

/** The `[{"name": ..., "arguments": ..., "id": ...}]` list of v2-v7 (json.dumps, ensure_ascii=False). */
function writeCalls(b: ChatSink, calls: readonly PlannedCall[], v: MistralVersion): void {
  b.text("[", null, "template");
  calls.forEach((c, k) => {
    const m = c.message;
    const at = `tool_calls[${c.index}].function`;
    b.text(`${k === 0 ? "" : ", "}{"name": `, m, "template");
    b.caller(pyJsonString(c.name), m, "tool_calls", { field: `${at}.name` });
    b.text(', "arguments": ', m, "template");
    b.caller(pyValueJson(c.arguments), m, "tool_calls", { field: `${at}.arguments` });
    if (writesId(v, c.id)) {
      b.text(', "id": ', m, "template");
      b.caller(pyJsonString(c.id), m, "tool_calls", { field: `tool_calls[${c.index}].id` });
    }
    b.text("}", m, "template");
  });
  b.text("]", null, "template");
}

/** Whether version `v` writes the call id `id` (_prepare_function_call: not empty, not "null"). */
function writesId(v: MistralVersion, id: string | undefined): id is string {
  return v >= 3 && v < 13 && id !== undefined && id !== "" && id !== "null";
}

/** v11+: each call on its own, NAME ‹CALL_ID› ID ‹ARGS› json.dumps(arguments). */
function writeNamedCalls(
  b: ChatSink,
  calls: readonly PlannedCall[],
  v: MistralVersion,
  ids: TokenIds<MistralKey>,
): void {
  for (const c of calls) {
    const m = c.message;
    const at = `tool_calls[${c.index}].function`;
    b.reserved(ids.toolCalls, m, "tool_calls");
    b.caller(c.name, m, "tool_calls", { field: `${at}.name` });
    if (writesId(v, c.id)) {
      b.reserved(ids.callId, m, "tool_calls");
      b.caller(c.id, m, "tool_calls", { field: `tool_calls[${c.index}].id` });
    }
    b.reserved(ids.args, m, "tool_calls");
    b.caller(pyValueJson(c.arguments), m, "tool_calls", { field: `${at}.arguments` });
  }
}

function toolsJson(plan: Plan): string {
  return pyJsonDumps(
    plan.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    })),
  );
}

/** Renders `request` as tokenizer version `v` writes it (bound per version by ./definition.ts). */
export function renderMistral(
  v: MistralVersion,
  request: unknown,
  b: ChatSink,
  ids: TokenIds<MistralKey>,
): void {
  const plan = planRequest(request, v);
  const list = plan.messages;
  let firstUser = -1;
  let lastUser = -1;
  const think = (ids as Partial<TokenIds<MistralKey>>).think;
  const thinkEnd = (ids as Partial<TokenIds<MistralKey>>).thinkEnd;
  list.forEach((m, k) => {
    if (m.role !== "user") return;
    if (firstUser === -1) firstUser = k;
    lastUser = k;
  });
  b.reserved(ids.bos, null, "marker");
  list.forEach((m, k) => {
    const open = plan.continueFinal && k === list.length - 1;
    switch (m.role) {
      case "user": {
        const sysHere = v === 1 ? k === firstUser : v < 7 && k === lastUser;
        if (v === 1) {
          b.cut();
          b.text("[INST] ", m.message, "template");
        } else {
          if (k === (v >= 13 ? firstUser : lastUser) && plan.tools.length > 0) {
            b.reserved(ids.tools, null, "tools");
            b.caller(toolsJson(plan), null, "tools");
            b.reserved(ids.toolsEnd, null, "tools");
          }
          b.reserved(ids.inst, m.message, "marker");
        }
        const any = sysHere ? joined(b, plan.systemPrompt, "content") : false;
        if (any) b.text("\n\n", m.message, "template");
        joined(b, m.parts, "content");
        if (v === 1) {
          b.text(" [/INST]", m.message, "template");
          b.cut();
        } else b.reserved(ids.instEnd, m.message, "marker");
        return;
      }
      case "system":
        b.reserved(ids.system, m.message, "marker");
        joined(b, m.parts, "content");
        b.reserved(ids.systemEnd, m.message, "marker");
        return;
      case "assistant": {
        if (m.calls.length > 0 && v === 2 && k < lastUser) return;
        if (m.reasoning !== undefined && v >= 11 && think !== undefined && thinkEnd !== undefined) {
          b.reserved(think, m.reasoning.message, "marker");
          b.caller(m.reasoning.text, m.reasoning.message, "reasoning_content");
          b.reserved(thinkEnd, m.reasoning.message, "marker");
        }
        if (m.parts.length > 0) {
          b.cut();
          writeAssistantText(b, m.parts, v);
          b.cut();
        }
        if (m.calls.length > 0 && v >= 11) writeNamedCalls(b, m.calls, v, ids);
        else if (m.calls.length > 0) {
          b.reserved(ids.toolCalls, m.message, "tool_calls");
          writeCalls(b, m.calls, v);
        }
        if (!open) b.reserved(ids.eos, m.message, "marker");
        return;
      }
      case "tool": {
        if (v === 2 && (k < lastUser || list[k - 1]?.role === "tool")) return;
        b.reserved(ids.toolResults, m.message, "marker");
        const at = { field: "content" };
        if (v >= 13) b.caller(m.content, m.message, "content", at);
        else if (v >= 7) {
          b.caller(m.callId ?? "", m.message, "tool_call_id", { field: "tool_call_id" });
          b.reserved(ids.toolContent, m.message, "marker");
          b.caller(m.content, m.message, "content", at);
        } else {
          if (v === 2) {
            // v2 writes a run of tool messages as one list (one ‹TOOL_RESULTS› block).
            b.text("[", m.message, "template");
            for (let t = k; t < list.length; t++) {
              const r = list[t];
              if (r?.role !== "tool") break;
              b.text(`${t === k ? "" : ", "}{"name": `, r.message, "template");
              b.caller(r.name === undefined ? "null" : pyJsonString(r.name), r.message, "name");
              b.text(', "content": ', r.message, "template");
              b.caller(pyValueJson(loadsOr(r.content)), r.message, "content", at);
              b.text("}", r.message, "template");
            }
            b.text("]", m.message, "template");
          } else {
            b.text('{"content": ', m.message, "template");
            b.caller(pyValueJson(loadsOr(m.content)), m.message, "content", at);
            b.text(', "call_id": ', m.message, "template");
            b.caller(pyJsonString(m.callId ?? ""), m.message, "tool_call_id", { field: "tool_call_id" });
            b.text("}", m.message, "template");
          }
        }
        b.reserved(ids.toolResultsEnd, m.message, "marker");
        return;
      }
    }
  });
}

/** _parse_json_content: the JSON value, or the text itself as a JSON string. */
function loadsOr(text: string): PyValue {
  return loadsOrUndefined(text) ?? text;
}

/** Assistant text: v1 as is, v2+ with trailing spaces stripped (rstrip(" ")) from the merged text. */
function writeAssistantText(b: ChatSink, parts: readonly Piece[], v: MistralVersion): void {
  if (v === 1) {
    joined(b, parts, "content");
    return;
  }
  const last = parts[parts.length - 1];
  if (last === undefined) return;
  let end = last.text.length;
  while (end > 0 && last.text.charCodeAt(end - 1) === 0x20) end--;
  const any = joined(b, parts.slice(0, -1), "content");
  if (any) b.text("\n\n", last.message, "template");
  if (end > 0) b.caller(last.text.slice(0, end), last.message, "content");
}
