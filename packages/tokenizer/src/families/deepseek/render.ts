// DeepSeek V3 / R1 chat encoding: exactly what the vendor chat templates render
// (../shared/templates/deepseek-v3.jinja = DeepSeek-V3(-Base)'s tokenizer_config, and
// deepseek-r1.jinja = the original DeepSeek-R1 release), with every template literal that is an
// added token placed as its reserved ID and every caller string going through the ordinary
// encoder. The two templates differ only where noted (V3 / R1).
//
// The templates' state is kept as they keep it (`ns` in the template), including what looks
// like accidents but is what the models see:
// - every system message goes to the top, after BOS, joined with "\n\n";
// - `is_first` is never reset: only the FIRST assistant message with tool calls opens
//   <｜Assistant｜><｜tool▁calls▁begin｜>; later ones start with "\n<｜tool▁call▁begin｜>";
// - V3 closes <｜tool▁calls▁end｜><｜end▁of▁sentence｜> after every call but the one that opened
//   the list (none after a single first call); R1 closes once after the calls;
// - `is_output_first` is never reset: only the first tool result opens <｜tool▁outputs▁begin｜>;
//   V3 writes "\n" before every later result, R1 nothing;
// - <｜tool▁outputs▁end｜> is written only before an assistant message with text (which then has
//   no <｜Assistant｜>) or at the very end; a user or tool-call message after results skips it;
//   after results at the end there is no generation prompt.
// - V3 renders the tool calls of an assistant message only when it has no content (`content is
//   none`); with content it renders the text alone and drops the calls; R1 drops the content of
//   a tool-call message after `is_first`. Both kept as the templates do (docs/families/deepseek.md).
// Prefill cases transformers' cut cannot do on this rendering (a system message, a tool-call
// message, R1 content cut at "</think>") are TokenizerError("invalid-conversation").
// Not rendered by either template (accepted, checked, ignored): `tools`, names, tool_call_id,
// reasoning_content. R1 keeps only the text after the last "</think>" of an assistant message's
// content (the template's split; only text is dropped, no structure is read from it).
// Object tool-call arguments are written as json.dumps(arguments, ensure_ascii=False) (what
// transformers' `tojson` writes; the templates need a string); string arguments as sent.

import type { ChatSink } from "../../chat/sink.ts";
import { pyJsonDumps } from "../../py/json.ts";
import {
  type FamilyProfile,
  type NMessage,
  normalizeRequest,
  writeContent,
} from "../../request/normalize.ts";
import { invalid } from "../../request/schema.ts";
import type { TokenIds } from "../definition.ts";
import type { DeepSeekKey } from "./tokens.ts";

export type DeepSeekVariant = "deepseek-v3" | "deepseek-r1";

const THINK_END = "</think>";

const PROFILES: Readonly<Record<DeepSeekVariant, FamilyProfile>> = {
  "deepseek-v3": { family: "deepseek-v3", nativeRoles: [], nativeFields: [] },
  "deepseek-r1": { family: "deepseek-r1", nativeRoles: [], nativeFields: [] },
};

export function renderDeepSeek(
  variant: DeepSeekVariant,
  request: unknown,
  b: ChatSink,
  ids: TokenIds<DeepSeekKey>,
): void {
  const req = normalizeRequest(request, PROFILES[variant]);
  const messages = req.messages;
  const r1 = variant === "deepseek-r1";
  const open = req.continueFinalMessage ? messages.length - 1 : -1;
  if (open >= 0) checkPrefill(messages[open] as NMessage);

  /** Caller content; true when it is the final message left open (continue_final_message): stop. */
  const content = (m: NMessage, text: string, offset: number): boolean =>
    writeContent(b, m, text, open, { field: "content", offset });

  b.reserved(ids.bos, null, "marker");
  let firstSystem = true;
  for (const m of messages) {
    if (m.role !== "system") continue;
    if (!firstSystem) b.text("\n\n", m.index, "template");
    firstSystem = false;
    b.caller(m.content, m.index, "content");
  }

  let isFirst = false;
  let isTool = false;
  let isOutputFirst = true;
  for (const m of messages) {
    const i = m.index;
    if (m.role === "user") {
      isTool = false;
      b.reserved(ids.user, i, "marker");
      if (content(m, m.content, 0)) return;
    } else if (m.role === "assistant" && m.toolCalls.length > 0 && (r1 || m.content.length === 0)) {
      isTool = false;
      m.toolCalls.forEach((tc, j) => {
        const opens = !isFirst;
        if (opens) {
          b.reserved(ids.assistant, i, "marker");
          if (r1 && m.content.length > 0) b.caller(m.content, i, "content");
          b.reserved(ids.toolCallsBegin, i, "marker");
          isFirst = true;
        } else b.text("\n", i, "template");
        b.reserved(ids.toolCallBegin, i, "marker");
        b.text("function", i, "template");
        b.reserved(ids.toolSep, i, "marker");
        b.caller(tc.name, i, "tool_calls", { field: `tool_calls[${j}].function.name` });
        b.text("\n```json\n", i, "template");
        const args = typeof tc.arguments === "string" ? tc.arguments : pyJsonDumps(tc.arguments);
        b.caller(args, i, "tool_calls", { field: `tool_calls[${j}].function.arguments` });
        b.text("\n```", i, "template");
        b.reserved(ids.toolCallEnd, i, "marker");
        if (!r1 && !opens) {
          b.reserved(ids.toolCallsEnd, i, "marker");
          b.reserved(ids.eos, i, "marker");
        }
      });
      if (r1) {
        b.reserved(ids.toolCallsEnd, i, "marker");
        b.reserved(ids.eos, i, "marker");
      }
    } else if (m.role === "assistant") {
      if (isTool) {
        b.reserved(ids.toolOutputsEnd, i, "marker");
        if (content(m, m.content, 0)) return;
        isTool = false;
      } else {
        b.reserved(ids.assistant, i, "marker");
        const cut = r1 ? m.content.lastIndexOf(THINK_END) : -1;
        const from = cut < 0 ? 0 : cut + THINK_END.length;
        if (cut >= 0 && i === open)
          throw invalid(
            'continue_final_message cannot continue content with "</think>" (the template drops the text before it)',
            { message: i, field: "content" },
          );
        if (content(m, m.content.slice(from), from)) return;
      }
      b.reserved(ids.eos, i, "marker");
    } else if (m.role === "tool") {
      isTool = true;
      if (isOutputFirst) {
        b.reserved(ids.toolOutputsBegin, i, "marker");
        isOutputFirst = false;
      } else if (!r1) b.text("\n", i, "template");
      b.reserved(ids.toolOutputBegin, i, "marker");
      if (content(m, m.content, 0)) return;
      b.reserved(ids.toolOutputEnd, i, "marker");
    }
  }
  if (isTool) b.reserved(ids.toolOutputsEnd, null, "marker");
  if (req.addGenerationPrompt && !isTool) b.reserved(ids.assistant, null, "marker");
}

/** continue_final_message cases transformers' cut cannot do on this rendering: refused. */
function checkPrefill(m: NMessage): void {
  const at = { message: m.index, field: "content" };
  if (m.role === "system")
    throw invalid(
      "continue_final_message cannot continue a system message (the template moves it to the top)",
      at,
    );
  if (m.role === "assistant" && m.toolCalls.length > 0)
    throw invalid("continue_final_message cannot continue an assistant message with tool calls", at);
}
