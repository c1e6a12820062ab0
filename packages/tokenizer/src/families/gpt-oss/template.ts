// gpt-oss, the chat_template form (the default): a re-implementation (labelled as such) of the
// message rules of gpt-oss-120b.jinja (../shared/templates; what transformers renders), as
// structure: every marker is a reserved ID placed here, every caller string goes through the
// ordinary encoder, and the text between two markers is one encoder call, as when the rendered
// template is tokenized. Checked token for token against Python jinja2 + HF `tokenizers`
// (test-vectors/golden/gpt-oss.template.json). The rules (docs/formats.md "gpt-oss"):
// - system: identity, "Knowledge cutoff", "Current date" (current_date, else the template's
//   strftime_now of the request's `now` or the local clock), "Reasoning", built-in tools, the
//   channels, the tool-channel sentence with tools;
// - developer: "# Instructions\n\nTEXT\n\n" and/or "# Tools\n\n" + the functions namespace;
// - an assistant message with tool calls: its reasoning (or its content) on channel analysis
//   unless a later assistant message has no tool calls, then per call
//   `assistant to=functions.NAME<|channel|>commentary json<|message|>ARGS_JSON<|call|>`;
// - the last assistant message without a generation prompt: its reasoning (analysis), then final
//   with <|return|>; any other assistant message: final only (reasoning dropped);
// - tool: `functions.NAME to=assistant<|channel|>commentary<|message|>CONTENT_AS_JSON<|end|>`.
// Beyond the template (it raises or cannot express these): several calls in one message (each
// rendered), content and reasoning beside tool calls (reasoning on analysis, content on
// commentary), continue_final_message (the last message left open), string arguments that are
// not JSON (written as a JSON string, what `tojson` does with a string).

import type { ChatSink } from "../../chat/sink.ts";
import { pyJsonDumps, pyJsonString } from "../../py/json.ts";
import { checkJsonValue, type NMessage, type NRequest, writeContent } from "../../request/normalize.ts";
import { type At, invalid } from "../../request/schema.ts";
import type { HarmonyIds } from "./harmony-render.ts";
import type { HarmonyNamespace } from "./harmony-tools.ts";
import { toolsSection } from "./harmony-tools.ts";
import { templateToolNamespace } from "./template-tools.ts";

export interface GptOssTemplateOptions {
  readonly modelIdentity: string;
  readonly knowledgeCutoff: string;
  readonly currentDate: string | undefined;
  readonly reasoningEffort: string;
  readonly builtinTools: readonly HarmonyNamespace[];
}

const CHANNELS = "# Valid channels: analysis, commentary, final. Channel must be included for every message.";
const TOOL_SENTENCE = "\nCalls to these tools must go to the commentary channel: 'functions'.";

/**
 * `arguments|tojson` after the server's json.loads of string arguments (vLLM does that). Text
 * that is not JSON stays a string (tojson of a string); JSON deeper than MAX_JSON_DEPTH (or with
 * a non-finite number) is invalid-conversation, as for every JSON value of the request.
 */
function argumentsJson(args: string | object, at: At): string {
  if (typeof args !== "string") return pyJsonDumps(args);
  let v: unknown;
  try {
    v = JSON.parse(args);
  } catch {
    return pyJsonString(args);
  }
  checkJsonValue(v, at);
  return pyJsonDumps(v);
}

function start(b: ChatSink, i: number | null, ids: HarmonyIds): void {
  b.reserved(ids.start, i, "marker");
}

/** `<|start|>assistant<|channel|>CH<|message|>` */
function assistantHead(b: ChatSink, i: number, channel: string, ids: HarmonyIds): void {
  start(b, i, ids);
  b.text("assistant", i, "role");
  b.reserved(ids.channel, i, "marker");
  b.text(channel, i, "channel");
  b.reserved(ids.message, i, "marker");
}

export function renderGptOssTemplate(
  req: NRequest,
  o: GptOssTemplateOptions,
  b: ChatSink,
  ids: HarmonyIds,
): void {
  const messages = req.messages;
  const open = req.continueFinalMessage ? messages.length - 1 : -1;

  // ---- system ----
  start(b, null, ids);
  b.text("system", null, "role");
  b.reserved(ids.message, null, "marker");
  let sys = `${o.modelIdentity}\nKnowledge cutoff: ${o.knowledgeCutoff}\n`;
  if (o.currentDate !== undefined) sys += `Current date: ${o.currentDate}\n`;
  sys += `\nReasoning: ${o.reasoningEffort}\n\n`;
  if (o.builtinTools.length > 0) sys += `${toolsSection(o.builtinTools)}\n\n`;
  sys += CHANNELS;
  if (req.tools.length > 0) sys += TOOL_SENTENCE;
  // Identity, cutoff and date are caller-chosen options: audited as caller text.
  b.caller(sys, null, "system");
  b.reserved(ids.end, null, "marker");

  // ---- developer ----
  const first = messages[0];
  const instructions = first !== undefined && first.role === "system" ? first.content : "";
  if (instructions !== "" || req.tools.length > 0) {
    const i = instructions !== "" ? 0 : null;
    start(b, i, ids);
    b.text("developer", i, "role");
    b.reserved(ids.message, i, "marker");
    if (instructions !== "") {
      b.text("# Instructions\n\n", 0, "template");
      if (open === 0) throw invalid("gpt-oss cannot continue a developer message", { message: 0 });
      b.caller(instructions, 0, "content");
      b.text("\n\n", 0, "template");
    }
    if (req.tools.length > 0) {
      b.text("# Tools\n\n", null, "template");
      const tools = req.tools.map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.parameters,
      }));
      b.caller(templateToolNamespace("functions", tools), null, "tools");
    }
    b.reserved(ids.end, i, "marker");
  }

  // ---- messages ----
  let calls: readonly string[] = [];
  let nextCall = 0;
  const laterPlainAssistant = new Array<boolean>(messages.length).fill(false);
  for (let k = messages.length - 2, seen = false; k >= 0; k--) {
    const n = messages[k + 1] as NMessage;
    if (n.role === "assistant" && n.toolCalls.length === 0) seen = true;
    laterPlainAssistant[k] = seen;
  }
  for (const m of messages) {
    const i = m.index;
    const isOpen = i === open;
    if (m.role === "system") {
      if (i === 0) continue;
      throw invalid("gpt-oss takes system/developer instructions only as the first message", {
        message: i,
        field: "role",
      });
    }
    if (m.role === "user") {
      start(b, i, ids);
      b.text("user", i, "role");
      b.reserved(ids.message, i, "marker");
      // Continued: transformers' cut, unless the stripped content is empty (no cut: the message closes).
      if (writeContent(b, m, m.content, open)) return;
      b.reserved(ids.end, i, "marker");
    } else if (m.role === "assistant") {
      if (m.toolCalls.length > 0) {
        if (isOpen)
          throw invalid("gpt-oss cannot continue an assistant message with tool calls", {
            message: i,
            field: "continue_final_message",
          });
        if (!laterPlainAssistant[i]) {
          const reasoning = m.reasoning !== undefined && m.reasoning !== "" ? m.reasoning : undefined;
          const analysis = reasoning ?? (m.content !== "" ? m.content : undefined);
          if (analysis !== undefined) {
            assistantHead(b, i, "analysis", ids);
            if (reasoning !== undefined)
              b.caller(reasoning, i, "reasoning_content", { field: m.reasoningField });
            else b.caller(analysis, i, "content");
            b.reserved(ids.end, i, "marker");
          }
          if (reasoning !== undefined && m.content !== "") {
            assistantHead(b, i, "commentary", ids);
            b.caller(m.content, i, "content");
            b.reserved(ids.end, i, "marker");
          }
        }
        m.toolCalls.forEach((tc, j) => {
          start(b, i, ids);
          b.text("assistant to=functions.", i, "role");
          b.caller(tc.name, i, "tool_calls", { field: `tool_calls[${j}].function.name` });
          b.reserved(ids.channel, i, "marker");
          b.text("commentary json", i, "channel");
          b.reserved(ids.message, i, "marker");
          const field = `tool_calls[${j}].function.arguments`;
          const args = argumentsJson(tc.arguments, { message: i, field });
          b.caller(args, i, "tool_calls", { field });
          b.reserved(ids.call, i, "marker");
        });
        calls = m.toolCalls.map((tc) => tc.name);
        nextCall = 0;
        continue;
      }
      const last = i === messages.length - 1 && !req.addGenerationPrompt;
      if (last && m.reasoning !== undefined && (!isOpen || m.content !== "")) {
        assistantHead(b, i, "analysis", ids);
        b.caller(m.reasoning, i, "reasoning_content", { field: m.reasoningField });
        b.reserved(ids.end, i, "marker");
      } else if (isOpen && m.reasoning !== undefined) {
        // Nothing of the final yet: the reasoning is what is continued.
        assistantHead(b, i, "analysis", ids);
        b.caller(m.reasoning, i, "reasoning_content", { field: m.reasoningField });
        return;
      }
      assistantHead(b, i, "final", ids);
      if (writeContent(b, m, m.content, open)) return;
      b.reserved(last ? ids.return : ids.end, i, "marker");
      calls = [];
    } else if (m.role === "tool") {
      if (isOpen)
        throw invalid("gpt-oss cannot continue a tool message", {
          message: i,
          field: "continue_final_message",
        });
      const name = calls[nextCall] ?? calls[calls.length - 1] ?? m.name;
      nextCall++;
      if (name === undefined)
        throw invalid("a tool message needs an assistant tool call before it (or a name)", {
          message: i,
          field: "name",
        });
      start(b, i, ids);
      b.text("functions.", i, "role");
      b.caller(name, i, "name");
      b.text(" to=assistant", i, "template");
      b.reserved(ids.channel, i, "marker");
      b.text("commentary", i, "channel");
      b.reserved(ids.message, i, "marker");
      b.caller(pyJsonString(m.content), i, "content");
      b.reserved(ids.end, i, "marker");
    }
  }
  if (req.addGenerationPrompt) {
    start(b, null, ids);
    b.text("assistant", null, "role");
  }
}
