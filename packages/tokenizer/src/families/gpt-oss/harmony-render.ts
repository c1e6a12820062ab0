// harmony messages -> a ChatSink: a re-implementation (labelled as such) of openai/harmony
// v0.0.8 src/encoding.rs `Render<Message>`, `Render<SystemContent>`, `Render<DeveloperContent>`
// and `render_conversation_for_completion` (auto_drop_analysis). Every structural token is a
// reserved ID placed here; every piece of text goes through the ordinary encoder, in the same
// separate pieces harmony encodes (role, ":name", " to=recipient", channel, content type and
// content are one encode_ordinary call each: ChatSink.cut() between them).
import type { ChatSink } from "../../chat/sink.ts";
import { type HarmonyNamespace, type HarmonyTool, toolsSection } from "./harmony-tools.ts";

/** The IDs of harmony's structural tokens: the loaded files' verified tokenIds. */
export type HarmonyIds = Readonly<
  Record<"start" | "channel" | "constrain" | "message" | "call" | "end" | "return", number>
>;

export type HarmonyRole = "system" | "developer" | "user" | "assistant" | "tool";
export type ReasoningEffort = "low" | "medium" | "high";

export interface HarmonySystem {
  readonly modelIdentity?: string | undefined;
  readonly knowledgeCutoff?: string | undefined;
  readonly conversationStartDate?: string | undefined;
  readonly reasoningEffort?: ReasoningEffort | undefined;
  /** System-level tool namespaces (harmony's built-ins: ./harmony-builtin-tools.ts). */
  readonly tools?: readonly HarmonyNamespace[] | undefined;
  readonly validChannels: readonly string[];
  readonly channelRequired: boolean;
}

export interface HarmonyDeveloper {
  readonly instructions?: string | undefined;
  readonly functionTools?: readonly HarmonyTool[] | undefined;
}

export type HarmonyContent =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "system"; readonly system: HarmonySystem }
  | { readonly kind: "developer"; readonly developer: HarmonyDeveloper };

export interface HarmonyMessage {
  readonly role: HarmonyRole;
  /** Tool messages: the tool name (rendered alone); others: rendered as "role:name". */
  readonly name?: string | undefined;
  readonly recipient?: string | undefined;
  readonly channel?: string | undefined;
  /** E.g. "<|constrain|>json" (the marker becomes its ID) or "json". */
  readonly contentType?: string | undefined;
  readonly content: HarmonyContent;
  /** The caller's message index (spans / audit); null for messages format code adds. */
  readonly index: number | null;
}

export interface HarmonyRenderOptions {
  /** harmony's RenderConversationConfig.auto_drop_analysis (its default: true). */
  readonly autoDropAnalysis: boolean;
  /** Append "<|start|>assistant" (render_conversation_for_completion). */
  readonly forCompletion: boolean;
  /** Leave the last message open, without its end token (continue_final_message). */
  readonly openLast?: boolean | undefined;
}

/** harmony's SystemContent::default(). */
export const HARMONY_DEFAULT_IDENTITY = "You are ChatGPT, a large language model trained by OpenAI.";
export const HARMONY_DEFAULT_CUTOFF = "2024-06";
export const HARMONY_CHANNELS: readonly string[] = ["analysis", "commentary", "final"];
const CONSTRAIN = "<|constrain|>";
const TOOL_SENTENCE = "Calls to these tools must go to the commentary channel: 'functions'.";

function systemText(sys: HarmonySystem, hasFunctionTools: boolean, b: ChatSink, i: number | null): void {
  const sections: string[] = [];
  const top: string[] = [];
  if (sys.modelIdentity !== undefined) top.push(sys.modelIdentity);
  if (sys.knowledgeCutoff !== undefined) top.push(`Knowledge cutoff: ${sys.knowledgeCutoff}`);
  if (sys.conversationStartDate !== undefined) top.push(`Current date: ${sys.conversationStartDate}`);
  if (top.length > 0) sections.push(top.join("\n"));
  if (sys.reasoningEffort !== undefined) sections.push(`Reasoning: ${sys.reasoningEffort}`);
  if (sys.tools !== undefined && sys.tools.length > 0) sections.push(toolsSection(sys.tools));
  if (sys.validChannels.length > 0) {
    let h = `# Valid channels: ${sys.validChannels.join(", ")}.`;
    if (sys.channelRequired) h += " Channel must be included for every message.";
    if (hasFunctionTools) h += `\n${TOOL_SENTENCE}`;
    sections.push(h);
  }
  // Identity, cutoff and date are caller-chosen options: audited as caller text.
  b.caller(sections.join("\n\n"), i, "system");
}

function developerText(dev: HarmonyDeveloper, b: ChatSink, i: number | null): void {
  const tools = dev.functionTools ?? [];
  let first = true;
  if (dev.instructions !== undefined) {
    b.text("# Instructions\n\n", i, "template");
    b.caller(dev.instructions, i, "content");
    first = false;
  }
  if (tools.length > 0) {
    if (!first) b.text("\n\n", i, "template");
    b.caller(toolsSection([{ name: "functions", tools }]), null, "tools");
  }
}

function renderMessage(
  m: HarmonyMessage,
  hasFunctionTools: boolean,
  b: ChatSink,
  open: boolean,
  ids: HarmonyIds,
): void {
  const i = m.index;
  b.reserved(ids.start, i, "marker");
  if (m.role === "tool") b.caller(m.name ?? "", i, "name");
  else {
    b.text(m.role, i, "role");
    if (m.name !== undefined) {
      b.cut();
      b.text(":", i, "template");
      b.caller(m.name, i, "name");
    }
  }
  b.cut();
  if (m.recipient !== undefined && m.recipient !== "all") {
    b.text(" to=", i, "template");
    b.caller(m.recipient, i, "recipient");
    b.cut();
  }
  if (m.channel !== undefined) {
    b.reserved(ids.channel, i, "marker");
    b.text(m.channel, i, "channel");
    b.cut();
  }
  if (m.contentType !== undefined) {
    if (m.contentType.startsWith(CONSTRAIN)) {
      b.text(" ", i, "template");
      b.reserved(ids.constrain, i, "marker");
      const rest = m.contentType.slice(CONSTRAIN.length);
      if (rest.length > 0) b.caller(rest, i, "content_type");
    } else {
      b.text(" ", i, "template");
      b.caller(m.contentType, i, "content_type");
    }
    b.cut();
  }
  b.reserved(ids.message, i, "marker");
  const c = m.content;
  if (c.kind === "text") b.caller(c.text, i, "content");
  else if (c.kind === "system") systemText(c.system, hasFunctionTools, b, i);
  else developerText(c.developer, b, i);
  if (open) return;
  const toTool = m.role === "assistant" && m.recipient !== undefined;
  b.reserved(toTool ? ids.call : ids.end, i, "marker");
}

/** Render a harmony conversation (render_conversation[_for_completion], assistant next). */
export function renderHarmony(
  messages: readonly HarmonyMessage[],
  options: HarmonyRenderOptions,
  b: ChatSink,
  ids: HarmonyIds,
): void {
  const hasFunctionTools = messages.some(
    (m) => m.content.kind === "developer" && (m.content.developer.functionTools?.length ?? 0) > 0,
  );
  let lastAssistantFinal = false;
  for (let k = messages.length - 1; k >= 0; k--) {
    const m = messages[k] as HarmonyMessage;
    if (m.role === "assistant") {
      lastAssistantFinal = m.channel === "final";
      break;
    }
  }
  const drop = options.autoDropAnalysis && lastAssistantFinal;
  const firstFinal = messages.findIndex((m) => m.channel === "final");
  messages.forEach((m, k) => {
    if (drop && firstFinal >= 0 && k < firstFinal && m.channel === "analysis") return;
    renderMessage(m, hasFunctionTools, b, options.openLast === true && k === messages.length - 1, ids);
  });
  if (options.forCompletion) {
    b.reserved(ids.start, null, "marker");
    b.text("assistant", null, "role");
  }
}
