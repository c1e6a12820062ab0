// gpt-oss (harmony) chat encoding, in one of two forms (docs/formats.md "gpt-oss"):
// - default: the gpt-oss chat_template's form (./gpt-oss-template.ts), token-exact with
//   gpt-oss-120b.jinja rendered as transformers does, on everything the template supports;
// - chat_template_kwargs.harmony_library: true: openai/harmony's own rendering
//   (./harmony-render.ts), the request mapped onto harmony messages:
//   - a system message (format code) with identity, knowledge cutoff, optional current date,
//     reasoning effort, built-in tools, the channels and, with tools, the tool-channel sentence;
//   - the first system/developer message's content -> the developer message's "# Instructions",
//     request tools -> its `namespace functions { ... }`;
//   - user -> user; assistant: reasoning_content -> channel analysis, content -> final (commentary
//     when the message also has tool calls), each tool call -> commentary to=functions.NAME
//     <|constrain|>json ... <|call|>; tool -> functions.NAME to=assistant, channel commentary;
//   - analysis before the first final is dropped when the last assistant message is final
//     (harmony's auto_drop_analysis; kwargs auto_drop_analysis: false keeps it).
// Options are chat_template_kwargs: reasoning_effort, model_identity, knowledge_cutoff,
// current_date (template form default: the date of the request's `now` or the local clock), builtin_tools ("browser", "python"), harmony_library,
// auto_drop_analysis. continue_final_message leaves the last user or assistant message open.

import type { ChatSink } from "../../chat/sink.ts";
import { pyJsonDumps } from "../../py/json.ts";
import { strftimeAt } from "../../request/clock.ts";
import { type FamilyProfile, normalizeRequest } from "../../request/normalize.ts";
import { invalid, isObject, type JsonObject, own } from "../../request/schema.ts";
import { HARMONY_BUILTINS } from "./harmony-builtin-tools.ts";
import {
  HARMONY_CHANNELS,
  HARMONY_DEFAULT_CUTOFF,
  HARMONY_DEFAULT_IDENTITY,
  type HarmonyIds,
  type HarmonyMessage,
  type ReasoningEffort,
  renderHarmony,
} from "./harmony-render.ts";
import type { HarmonyNamespace } from "./harmony-tools.ts";
import { renderGptOssTemplate } from "./template.ts";

const PROFILE: FamilyProfile = { family: "gpt-oss", nativeRoles: [], nativeFields: [] };
const EFFORTS: readonly string[] = ["low", "medium", "high"];

function kwString(kw: JsonObject | undefined, key: string): string | undefined {
  const v = kw === undefined ? undefined : own(kw, key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalid("must be a string", { field: `chat_template_kwargs.${key}` });
  return v;
}

function kwBool(kw: JsonObject | undefined, key: string): boolean | undefined {
  const v = kw === undefined ? undefined : own(kw, key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw invalid("must be a boolean", { field: `chat_template_kwargs.${key}` });
  return v;
}

/** builtin_tools: a list of "browser" / "python" (the template's kwarg), in harmony's name order. */
function builtinTools(kw: JsonObject | undefined): HarmonyNamespace[] {
  const v = kw === undefined ? undefined : own(kw, "builtin_tools");
  if (v === undefined || v === null) return [];
  const field = "chat_template_kwargs.builtin_tools";
  if (!Array.isArray(v)) throw invalid('must be a list of "browser" / "python"', { field });
  const out: HarmonyNamespace[] = [];
  for (const name of ["browser", "python"]) {
    const ns = HARMONY_BUILTINS.get(name);
    if (ns !== undefined && v.includes(name)) out.push(ns);
  }
  for (const x of v)
    if (typeof x !== "string" || !HARMONY_BUILTINS.has(x))
      throw invalid('must be a list of "browser" / "python"', { field });
  return out;
}

/** The caller's role before normalize.ts folded developer into system. */
function givenRole(request: unknown, i: number): unknown {
  if (!isObject(request)) return undefined;
  const msgs = own(request, "messages");
  const m = Array.isArray(msgs) ? msgs[i] : undefined;
  return isObject(m) ? own(m, "role") : undefined;
}

/** Validate the request and render it with the loaded files' verified IDs. */
export function renderGptOssRequest(request: unknown, b: ChatSink, ids: HarmonyIds): void {
  const req = normalizeRequest(request, PROFILE);
  const kwRaw = isObject(request) ? own(request, "chat_template_kwargs") : undefined;
  const kw = isObject(kwRaw) ? kwRaw : undefined;
  const effort = kwString(kw, "reasoning_effort") ?? "medium";
  if (!EFFORTS.includes(effort))
    throw invalid('must be "low", "medium" or "high"', { field: "chat_template_kwargs.reasoning_effort" });
  const autoDrop = kwBool(kw, "auto_drop_analysis");
  const library = kwBool(kw, "harmony_library") === true;
  const builtins = builtinTools(kw);
  const identity = kwString(kw, "model_identity") ?? HARMONY_DEFAULT_IDENTITY;
  const cutoff = kwString(kw, "knowledge_cutoff") ?? HARMONY_DEFAULT_CUTOFF;
  // The template form writes strftime_now("%Y-%m-%d") (the request's `now`, else the local
  // clock) unless current_date replaces it; the harmony library writes a date only when given.
  const kwDate = kwString(kw, "current_date");
  const messages = req.messages;
  const open = req.continueFinalMessage ? messages.length - 1 : -1;
  const last = messages[open];
  if (
    last !== undefined &&
    !(last.role === "user" || (last.role === "assistant" && last.toolCalls.length === 0))
  )
    throw invalid("gpt-oss continues only a final user or assistant message (without tool calls)", {
      message: open,
      field: "continue_final_message",
    });

  if (!library) {
    if (autoDrop !== undefined)
      throw invalid("applies to harmony_library: true only", {
        field: "chat_template_kwargs.auto_drop_analysis",
      });
    renderGptOssTemplate(
      req,
      {
        modelIdentity: identity,
        knowledgeCutoff: cutoff,
        currentDate: kwDate ?? strftimeAt(req.now, "%Y-%m-%d"),
        reasoningEffort: effort,
        builtinTools: builtins,
      },
      b,
      ids,
    );
    return;
  }
  const out: HarmonyMessage[] = [
    {
      role: "system",
      index: null,
      content: {
        kind: "system",
        system: {
          modelIdentity: identity,
          knowledgeCutoff: cutoff,
          conversationStartDate: kwDate,
          reasoningEffort: effort as ReasoningEffort,
          tools: builtins,
          validChannels: HARMONY_CHANNELS,
          channelRequired: true,
        },
      },
    },
  ];
  const first = messages[0];
  const hasInstructions = first !== undefined && first.role === "system";
  const tools = req.tools.map((t) => ({
    name: t.name,
    description: t.description ?? "",
    parameters: t.parameters,
  }));
  if (hasInstructions || tools.length > 0) {
    out.push({
      role: "developer",
      index: hasInstructions ? 0 : null,
      content: {
        kind: "developer",
        developer: {
          instructions: hasInstructions ? first.content : undefined,
          functionTools: tools,
        },
      },
    });
  }
  let calls: readonly string[] = [];
  let nextCall = 0;
  for (const m of messages) {
    const i = m.index;
    if (m.role === "system") {
      if (i === 0) continue;
      const role = givenRole(request, i) === "developer" ? "developer" : "system";
      throw invalid(`gpt-oss takes ${role} instructions only as the first message`, {
        message: i,
        field: "role",
      });
    }
    if (m.role === "user") out.push({ role: "user", index: i, content: { kind: "text", text: m.content } });
    else if (m.role === "assistant") {
      // Continuing a message with reasoning and no content yet: the analysis is left open.
      const reasoningOnly = i === open && m.content === "" && m.reasoning !== undefined;
      if (m.reasoning !== undefined && (m.reasoning.length > 0 || reasoningOnly))
        out.push({
          role: "assistant",
          index: i,
          channel: "analysis",
          content: { kind: "text", text: m.reasoning },
        });
      const hasCalls = m.toolCalls.length > 0;
      if ((m.content.length > 0 || !hasCalls) && !reasoningOnly)
        out.push({
          role: "assistant",
          index: i,
          channel: hasCalls ? "commentary" : "final",
          content: { kind: "text", text: m.content },
        });
      for (const tc of m.toolCalls) {
        const args = typeof tc.arguments === "string" ? tc.arguments : pyJsonDumps(tc.arguments);
        out.push({
          role: "assistant",
          index: i,
          recipient: `functions.${tc.name}`,
          channel: "commentary",
          contentType: "<|constrain|>json",
          content: { kind: "text", text: args },
        });
      }
      calls = m.toolCalls.map((tc) => tc.name);
      nextCall = 0;
    } else if (m.role === "tool") {
      const name = m.name ?? calls[nextCall];
      nextCall++;
      if (name === undefined)
        throw invalid("a tool message needs a name (or an assistant tool call before it)", {
          message: i,
          field: "name",
        });
      out.push({
        role: "tool",
        index: i,
        name: `functions.${name}`,
        recipient: "assistant",
        channel: "commentary",
        content: { kind: "text", text: m.content },
      });
    }
  }
  renderHarmony(
    out,
    { autoDropAnalysis: autoDrop !== false, forCompletion: req.addGenerationPrompt, openLast: open >= 0 },
    b,
    ids,
  );
}
