// gpt-oss (harmony) chat encoding: the chat request mapped onto harmony messages
// (./harmony-render.ts renders them the way openai/harmony does). Mapping (docs/formats.md "gpt-oss"):
// - a system message (format code) with identity, knowledge cutoff, optional current date,
//   reasoning effort, the channels and, with tools, the tool-channel sentence;
// - the first system/developer message's content -> the developer message's "# Instructions",
//   request tools -> its `namespace functions { ... }`;
// - user -> user; assistant: reasoning_content -> channel analysis, content -> final (commentary
//   when the message also has tool calls), each tool call -> commentary to=functions.NAME
//   <|constrain|>json ... <|call|>; tool -> functions.NAME to=assistant, channel commentary;
// - analysis before the first final is dropped when the last assistant message is final
//   (harmony's auto_drop_analysis; kwargs auto_drop_analysis: false keeps it).
// Options are chat_template_kwargs: reasoning_effort, model_identity, knowledge_cutoff,
// current_date (never read from a clock), auto_drop_analysis.
import type { ChatFormat } from "./format.ts";
import {
  HARMONY_CHANNELS,
  HARMONY_DEFAULT_CUTOFF,
  HARMONY_DEFAULT_IDENTITY,
  type HarmonyMessage,
  type ReasoningEffort,
  renderHarmony,
} from "./harmony-render.ts";
import { type FamilyProfile, normalizeRequest } from "./normalize.ts";
import { pyJsonDumps } from "./py-json.ts";
import { invalid, isObject, type JsonObject, own } from "./schema.ts";

const PROFILE: FamilyProfile = { family: "gpt-oss", nativeRoles: [], nativeFields: [] };
const EFFORTS: readonly string[] = ["low", "medium", "high"];

function kwString(kw: JsonObject | undefined, key: string): string | undefined {
  const v = kw === undefined ? undefined : own(kw, key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalid("must be a string", { field: `chat_template_kwargs.${key}` });
  return v;
}

/** The caller's role before normalize.ts folded developer into system. */
function givenRole(request: unknown, i: number): unknown {
  if (!isObject(request)) return undefined;
  const msgs = own(request, "messages");
  const m = Array.isArray(msgs) ? msgs[i] : undefined;
  return isObject(m) ? own(m, "role") : undefined;
}

export const gptOss: ChatFormat = {
  name: "gpt-oss",
  render(request, b) {
    const req = normalizeRequest(request, PROFILE);
    if (req.continueFinalMessage)
      throw invalid("continue_final_message is not supported for gpt-oss", {
        field: "continue_final_message",
      });
    const kwRaw = isObject(request) ? own(request, "chat_template_kwargs") : undefined;
    const kw = isObject(kwRaw) ? kwRaw : undefined;
    const effort = kwString(kw, "reasoning_effort") ?? "medium";
    if (!EFFORTS.includes(effort))
      throw invalid('must be "low", "medium" or "high"', { field: "chat_template_kwargs.reasoning_effort" });
    const autoDrop = kw === undefined ? undefined : own(kw, "auto_drop_analysis");
    if (autoDrop !== undefined && typeof autoDrop !== "boolean")
      throw invalid("must be a boolean", { field: "chat_template_kwargs.auto_drop_analysis" });

    const out: HarmonyMessage[] = [
      {
        role: "system",
        index: null,
        content: {
          kind: "system",
          system: {
            modelIdentity: kwString(kw, "model_identity") ?? HARMONY_DEFAULT_IDENTITY,
            knowledgeCutoff: kwString(kw, "knowledge_cutoff") ?? HARMONY_DEFAULT_CUTOFF,
            conversationStartDate: kwString(kw, "current_date"),
            reasoningEffort: effort as ReasoningEffort,
            validChannels: HARMONY_CHANNELS,
            channelRequired: true,
          },
        },
      },
    ];
    const messages = req.messages;
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
        if (m.reasoning !== undefined && m.reasoning.length > 0)
          out.push({
            role: "assistant",
            index: i,
            channel: "analysis",
            content: { kind: "text", text: m.reasoning },
          });
        const hasCalls = m.toolCalls.length > 0;
        if (m.content.length > 0 || !hasCalls)
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
    renderHarmony(out, { autoDropAnalysis: autoDrop !== false, forCompletion: req.addGenerationPrompt }, b);
  },
};
