// ChatGLM3 chat encoding (docs/formats.md "ChatGLM3"; the vendor's build_chat_input /
// build_single_message):
//
//   ‹[gMASK]› ‹sop›  then per segment  ‹<|ROLE|>› enc(METADATA + "\n") enc(CONTENT)
//   generation prompt  ‹<|assistant|>›
//
// The two enc calls are SEPARATE (each gets SentencePiece's dummy prefix). A system message's
// tools extend its content: CONTENT + "\n" + json.dumps(tools, indent=4, ensure_ascii=False).
//
// The OpenAI fields:
// - top-level `tools` -> the tools of the first message when it is a system message, else of a
//   system message with the vendor's tool prompt inserted first (the list as sent, as the
//   vendor's openai_api_demo passes request.tools to build_chat_input);
// - assistant `tool_calls` -> after the content (its own segment when not empty), one segment per
//   call: ‹<|assistant|>› enc(NAME + "\n") enc("```python\ntool_call(k=v, ...)\n```"), the form
//   the model writes its own calls in (PROMPT.md). v is a Python literal (pyValueLiteral):
//   strings double-quoted with JSON escapes, as in PROMPT.md's `tool_call(location="beijing")`
//   (a double-quoted JSON string is a Python literal of the same string), True/False/None,
//   ints, float repr, [..] and {"k": v}. Keys must be Python identifiers (not keywords);
// - role `tool` -> ‹<|observation|>› with the content as sent.
// The native metadata/content form keeps replaying the model's raw text working (the vendor's
// openai_api_demo process_chatglm_messages does that).

import type { ChatSink } from "../../chat/sink.ts";
import { pyJsonDumps } from "../../py/json.ts";
import { PyJsonError, type PyValue, parsePyJson, pyFromJs, pyValueLiteral } from "../../py/value.ts";
import {
  type FamilyProfile,
  type NToolCall,
  normalizeRequest,
  prefillKeep,
} from "../../request/normalize.ts";
import { checkOneLine, invalid } from "../../request/schema.ts";
import type { TokenIds } from "../definition.ts";
import type { ChatGLM3Key } from "./tokens.ts";

const PROFILE: FamilyProfile = {
  family: "chatglm3",
  nativeRoles: ["observation"],
  nativeFields: ["metadata", "tools"],
};
const ROLE_KEYS: ReadonlyMap<string, ChatGLM3Key> = new Map([
  ["system", "system"],
  ["user", "user"],
  ["assistant", "assistant"],
  ["observation", "observation"],
]);
/** The vendor's system prompt for tools (composite_demo TOOL_PROMPT / openai_api_demo). */
const TOOL_PROMPT =
  "Answer the following questions as best as you can. You have access to the following tools:";
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PY_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** "tool_call(k=v, ...)" for a call's arguments (an object, or JSON text holding one). */
function toolCallText(tc: NToolCall, i: number, j: number): string {
  const field = `tool_calls[${j}].function.arguments`;
  let value: PyValue;
  try {
    value = typeof tc.arguments === "string" ? parsePyJson(tc.arguments) : pyFromJs(tc.arguments);
  } catch (e) {
    if (!(e instanceof PyJsonError)) throw e;
    throw invalid(`must be JSON: ${e.message}`, { message: i, field });
  }
  if (!(value instanceof Map))
    throw invalid("must be a JSON object (keyword arguments)", { message: i, field });
  const kwargs: string[] = [];
  for (const [k, v] of value as ReadonlyMap<string, PyValue>) {
    if (!IDENTIFIER.test(k) || PY_KEYWORDS.has(k))
      throw invalid("every key must be a Python identifier (a keyword argument name)", { message: i, field });
    try {
      kwargs.push(`${k}=${pyValueLiteral(v)}`);
    } catch {
      throw invalid("a non-finite number has no Python literal", { message: i, field });
    }
  }
  return `\`\`\`python\ntool_call(${kwargs.join(", ")})\n\`\`\``;
}

interface Segment {
  readonly owner: number | null;
  readonly role: string;
  /** Metadata: the caller's, or the tool name of a call. */
  readonly metadata: string;
  readonly metadataRef: string;
  /** Caller content, or template text (the tool prompt / a rendered tool call). */
  readonly content: string;
  readonly contentIsCaller: boolean;
  readonly contentField: string;
  readonly tools: readonly unknown[] | undefined;
  /** The caller's final message content with continue_final_message: cut here, stop. */
  readonly openEnd: boolean;
}

function plan(request: unknown): { segments: Segment[]; agp: boolean } {
  const req = normalizeRequest(request, PROFILE);
  const last = req.continueFinalMessage ? req.messages.length - 1 : -1;
  const segments: Segment[] = [];
  const seg = (s: Omit<Segment, "metadataRef" | "contentField" | "openEnd"> & Partial<Segment>): void => {
    segments.push({ metadataRef: "metadata", contentField: "content", openEnd: false, ...s });
  };
  const first = req.messages[0];
  if (req.tools.length > 0 && first?.role !== "system") {
    seg({
      owner: null,
      role: "system",
      metadata: "",
      content: TOOL_PROMPT,
      contentIsCaller: false,
      tools: req.tools.map((t) => t.raw),
    });
  }
  for (const m of req.messages) {
    const i = m.index;
    const metadata = m.metadata ?? "";
    checkOneLine(metadata, i, "metadata");
    let tools = m.tools;
    if (i === 0 && m.role === "system" && req.tools.length > 0) {
      if (tools !== undefined)
        throw invalid("tools are given twice (top level and on the system message)", {
          message: i,
          field: "tools",
        });
      tools = req.tools.map((t) => t.raw);
    }
    const role = m.role === "tool" ? "observation" : m.role;
    if (m.toolCalls.length > 0 && m.metadata !== undefined)
      throw invalid("give metadata or tool_calls, not both", { message: i, field: "tool_calls" });
    let content = m.content;
    let openEnd = false;
    if (i === last) {
      const keep = prefillKeep(m.content, m.content);
      if (keep !== undefined) {
        content = keep;
        openEnd = true;
      }
    }
    if (m.toolCalls.length === 0 || m.content.length > 0)
      seg({ owner: i, role, metadata, content, contentIsCaller: true, tools, openEnd });
    if (openEnd) break;
    m.toolCalls.forEach((tc, j) => {
      const at = `tool_calls[${j}].function.name`;
      if (tc.name.length === 0) throw invalid("must not be empty", { message: i, field: at });
      checkOneLine(tc.name, i, at);
      seg({
        owner: i,
        role: "assistant",
        metadata: tc.name,
        metadataRef: at,
        content: toolCallText(tc, i, j),
        contentIsCaller: true,
        contentField: `tool_calls[${j}].function.arguments`,
        tools: undefined,
      });
    });
  }
  // The vendor's role rules (PROMPT.md), on the segments as rendered.
  for (let k = 0; k < segments.length; k++) {
    const s = segments[k] as (typeof segments)[number];
    const prev = segments[k - 1];
    const at = () => ({ ...(s.owner === null ? {} : { message: s.owner }), field: "role" });
    if (s.role === "system" && k !== 0) throw invalid("a system message may only come first", at());
    if (s.role === "user" && prev?.role === "user") throw invalid("two user messages in a row", at());
    if (
      s.role === "observation" &&
      !(
        prev !== undefined &&
        (prev.role === "observation" || (prev.role === "assistant" && prev.metadata !== ""))
      )
    )
      throw invalid("an observation must follow an assistant tool or code call (non-empty metadata)", at());
  }
  return { segments, agp: req.addGenerationPrompt };
}

/** Validates `request` and renders it into `b` with the verified IDs of the loaded files. */
export function renderChatGLM3(request: unknown, b: ChatSink, ids: TokenIds<ChatGLM3Key>): void {
  const { segments, agp } = plan(request);
  b.reserved(ids.gmask, null, "marker");
  b.reserved(ids.sop, null, "marker");
  for (const s of segments) {
    const i = s.owner;
    const role = ROLE_KEYS.get(s.role);
    if (role === undefined) throw new Error(`internal: no role marker for ${s.role}`);
    b.reserved(ids[role], i, "marker");
    b.caller(s.metadata, i, "metadata", { field: s.metadataRef });
    b.text("\n", i, "metadata");
    b.cut();
    if (s.contentField !== "content") {
      // a rendered tool call: the Python literals hold caller strings
      b.caller(s.content, i, "tool_calls", { field: s.contentField });
    } else if (s.contentIsCaller) b.caller(s.content, i, "content");
    else b.text(s.content, i, "template");
    if (s.tools !== undefined && !s.openEnd) {
      b.text("\n", i, "template");
      b.caller(pyJsonDumps(s.tools, 4), i, "tools");
    }
    b.cut();
    if (s.openEnd) return;
  }
  if (agp) b.reserved(ids.assistant, null, "marker");
}
