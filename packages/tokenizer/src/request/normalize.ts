// The runtime validator of the chat request: untrusted JSON (`unknown`) in, a normalized request
// out, or TokenizerError("invalid-conversation") naming the field. One validator for every
// format; a FamilyProfile adds the family's native roles and fields. What normalization does
// (docs/formats.md "The chat request"):
//   developer -> system; content null -> ""; text parts joined with "\n" (vLLM); reasoning is
//   reasoning_content, reasoning or thinking; ids / tool_call_id / names a family does not render
//   are checked for type and kept only where a family uses them; the fields the openai SDK puts
//   on the assistant messages it returns (SDK_MESSAGE_FIELDS, SDK_CALL_FIELDS) are accepted and
//   ignored.
// Cost: one pass over the request; JSON values are walked once, depth-bounded (MAX_JSON_DEPTH).

import type { CallerRef } from "../chat/builder.ts";
import type { ChatSink } from "../chat/sink.ts";
import { quote } from "../errors.ts";
import { isPySpace } from "../py/strip.ts";
import { parseNow } from "./clock.ts";
import { MAX_JSON_DEPTH } from "./request.ts";
import { type At, checkKeys, checkRole, invalid, isObject, items, type JsonObject, own } from "./schema.ts";

export type Role = "system" | "user" | "assistant" | "tool" | "environment" | "observation";

export interface NToolCall {
  readonly name: string;
  /** The JSON text as sent, or an object (checked JSON). */
  readonly arguments: string | JsonObject;
}

export interface NAction {
  readonly kind: "plugin" | "interpreter";
  readonly text: string;
}

export interface NMessage {
  /** The caller's message index. */
  readonly index: number;
  readonly role: Role;
  readonly content: string;
  readonly name: string | undefined;
  readonly toolCalls: readonly NToolCall[];
  readonly reasoning: string | undefined;
  /** "reasoning_content", "reasoning" or "thinking": which field the reasoning came from (audit). */
  readonly reasoningField: string;
  readonly action: NAction | undefined;
  readonly metadata: string | undefined;
  readonly tools: readonly unknown[] | undefined;
}

export interface NTool {
  /** The tool object as sent (checked). */
  readonly raw: JsonObject;
  readonly name: string;
  readonly description: string | undefined;
  readonly parameters: JsonObject | undefined;
}

export interface NRequest {
  readonly messages: readonly NMessage[];
  readonly tools: readonly NTool[];
  readonly addGenerationPrompt: boolean;
  readonly continueFinalMessage: boolean;
  /** undefined when not given. */
  readonly enableThinking: boolean | undefined;
  /** The request's clock pin (`now`, local time), undefined when not given (./clock.ts). */
  readonly now: Date | undefined;
}

export interface FamilyProfile {
  readonly family: string;
  /** Roles beyond system/developer/user/assistant/tool. */
  readonly nativeRoles: readonly Role[];
  /** Message fields beyond the common ones. */
  readonly nativeFields: readonly ("action" | "metadata" | "tools")[];
}

const COMMON_ROLES = ["system", "developer", "user", "assistant", "tool", "function"];
/** The reasoning fields, in the order their value is taken (they must agree when several are given). */
export const REASONING_FIELDS: readonly string[] = Object.freeze([
  "reasoning_content",
  "reasoning",
  "thinking",
]);
/**
 * Fields the openai SDK puts on the assistant messages it returns (ChatCompletionMessage and the
 * stream / parse helpers' snapshots), so that a returned message can be appended as is: accepted
 * and ignored (no template renders them). `function_call` must be null (a deprecated call
 * carries a call no family can render).
 */
export const SDK_MESSAGE_FIELDS: readonly string[] = Object.freeze([
  "refusal",
  "annotations",
  "audio",
  "function_call",
  "parsed",
]);
/** Fields of the SDK's returned tool calls: `index` (stream snapshots), `function.parsed_arguments`. */
export const SDK_CALL_FIELDS: readonly string[] = Object.freeze(["index"]);
export const SDK_CALL_FUNCTION_FIELDS: readonly string[] = Object.freeze(["parsed_arguments"]);
const COMMON_FIELDS = [
  "role",
  "content",
  "name",
  "tool_calls",
  ...REASONING_FIELDS,
  "tool_call_id",
  ...SDK_MESSAGE_FIELDS,
];
/** Every message field some format accepts (common, SDK and native ones): what a lenient caller keeps. */
export const MESSAGE_FIELDS: readonly string[] = Object.freeze([
  ...COMMON_FIELDS,
  "action",
  "metadata",
  "tools",
]);
/** The top-level fields of a chat request (every family; docs/formats.md "The chat request"). */
export const CHAT_REQUEST_FIELDS: readonly string[] = Object.freeze([
  "messages",
  "tools",
  "add_generation_prompt",
  "continue_final_message",
  "chat_template_kwargs",
  "enable_thinking",
  "now",
]);
const TOP_KEYS: ReadonlySet<string> = new Set(CHAT_REQUEST_FIELDS);
const PART_KEYS = new Set(["type", "text"]);
const CALL_KEYS = new Set(["id", "type", "function", ...SDK_CALL_FIELDS]);
const CALL_FN_KEYS = new Set(["name", "arguments", ...SDK_CALL_FUNCTION_FIELDS]);
const TOOL_KEYS = new Set(["type", "function"]);
const TOOL_FN_KEYS = new Set(["name", "description", "parameters", "strict"]);
const ACTION_KEYS = new Set(["kind", "text"]);

/**
 * Checks that `v` is JSON (null, boolean, finite number, string, array, plain object) no deeper
 * than MAX_JSON_DEPTH. Recursion is bounded by that depth.
 */
export function checkJsonValue(v: unknown, at: At, depth = 1): void {
  if (depth > MAX_JSON_DEPTH) throw invalid(`JSON nested deeper than ${MAX_JSON_DEPTH}`, at);
  if (v === null || typeof v === "boolean" || typeof v === "string") return;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw invalid("a number must be finite", at);
    return;
  }
  if (Array.isArray(v)) {
    for (const x of items(v)) checkJsonValue(x, at, depth + 1);
    return;
  }
  if (typeof v === "object") {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw invalid("must be plain JSON", at);
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) checkJsonValue(x, at, depth + 1);
    }
    return;
  }
  throw invalid(`a ${typeof v} is not JSON`, at);
}

function optionalString(obj: JsonObject, key: string, at: At): string | undefined {
  const v = own(obj, key);
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw invalid("must be a string", at);
  return v;
}

function content(m: JsonObject, i: number, role: string, family: string): string {
  const c = own(m, "content");
  if (c === undefined) {
    if (role === "assistant") return "";
    throw invalid("is required (a string, null or text parts)", { message: i, field: "content" });
  }
  if (c === null) return "";
  if (typeof c === "string") return c;
  if (!Array.isArray(c))
    throw invalid("must be a string, null or an array of text parts", { message: i, field: "content" });
  const texts: string[] = [];
  items(c).forEach((p, k) => {
    const at = { message: i, field: `content[${k}]` };
    if (!isObject(p)) throw invalid("a content part must be an object", at);
    const type = own(p, "type");
    if (type !== "text") {
      throw invalid(
        typeof type === "string"
          ? `part type ${quote(type)} is not supported by ${family} (only "text")`
          : 'must have type "text"',
        { message: i, field: `content[${k}].type` },
      );
    }
    checkKeys(p, PART_KEYS, { message: i, prefix: `content[${k}]` });
    const text = own(p, "text");
    if (typeof text !== "string")
      throw invalid("must be a string", { message: i, field: `content[${k}].text` });
    texts.push(text);
  });
  return texts.join("\n");
}

function toolCalls(m: JsonObject, i: number, role: string, family: string): NToolCall[] {
  const tc = own(m, "tool_calls");
  if (tc === undefined || tc === null) return [];
  if (role !== "assistant")
    throw invalid("only an assistant message may carry tool_calls", { message: i, field: "tool_calls" });
  if (!Array.isArray(tc)) throw invalid("must be an array", { message: i, field: "tool_calls" });
  return items(tc).map((c, j): NToolCall => {
    const prefix = `tool_calls[${j}]`;
    if (!isObject(c)) throw invalid("must be an object", { message: i, field: prefix });
    const type = own(c, "type");
    if (type !== undefined && type !== "function")
      throw invalid(`only "function" tool calls can be rendered by ${family}`, {
        message: i,
        field: `${prefix}.type`,
      });
    checkKeys(c, CALL_KEYS, { message: i, prefix });
    optionalString(c, "id", { message: i, field: `${prefix}.id` });
    const index = own(c, "index");
    if (index !== undefined && (typeof index !== "number" || !Number.isSafeInteger(index)))
      throw invalid("must be an integer", { message: i, field: `${prefix}.index` });
    const fn = own(c, "function");
    if (!isObject(fn))
      throw invalid("must be an object {name, arguments}", { message: i, field: `${prefix}.function` });
    checkKeys(fn, CALL_FN_KEYS, { message: i, prefix: `${prefix}.function` });
    const parsed = own(fn, "parsed_arguments");
    if (parsed !== undefined)
      checkJsonValue(parsed, { message: i, field: `${prefix}.function.parsed_arguments` });
    const name = own(fn, "name");
    if (typeof name !== "string")
      throw invalid("must be a string", { message: i, field: `${prefix}.function.name` });
    const args = own(fn, "arguments");
    const at = { message: i, field: `${prefix}.function.arguments` };
    if (typeof args === "string") return { name, arguments: args };
    if (!isObject(args)) throw invalid("must be an object or a JSON string", at);
    checkJsonValue(args, at);
    return { name, arguments: args };
  });
}

function reasoning(m: JsonObject, i: number, role: string): { text: string | undefined; field: string } {
  let text: string | undefined;
  let field = "reasoning_content";
  for (const key of REASONING_FIELDS) {
    const v = own(m, key);
    if (v === undefined || v === null) continue;
    if (role !== "assistant")
      throw invalid("only an assistant message may carry reasoning", { message: i, field: key });
    if (typeof v !== "string") throw invalid("must be a string", { message: i, field: key });
    if (text !== undefined && text !== v)
      throw invalid("reasoning_content, reasoning and thinking differ; give one", { message: i, field: key });
    text = v;
    field = key;
  }
  return { text, field };
}

function action(m: JsonObject, i: number, role: string): NAction | undefined {
  const a = own(m, "action");
  if (a === undefined) return undefined;
  if (role !== "assistant")
    throw invalid("only an assistant message may carry an action", { message: i, field: "action" });
  if (!isObject(a))
    throw invalid('must be {"kind": "plugin"|"interpreter", "text": string}', {
      message: i,
      field: "action",
    });
  checkKeys(a, ACTION_KEYS, { message: i, prefix: "action" });
  const kind = own(a, "kind");
  if (kind !== "plugin" && kind !== "interpreter")
    throw invalid('must be "plugin" or "interpreter"', { message: i, field: "action.kind" });
  const text = own(a, "text");
  if (typeof text !== "string") throw invalid("must be a string", { message: i, field: "action.text" });
  return { kind, text };
}

/**
 * The SDK's returned-message fields: checked for shape, then ignored. `function_call` must be
 * null (the deprecated call cannot be rendered); an SDK call's `index` must be an integer.
 */
function sdkFields(m: JsonObject, i: number, role: string): void {
  const fc = own(m, "function_call");
  if (fc !== undefined && fc !== null)
    throw invalid("the deprecated function_call cannot be rendered; use tool_calls", {
      message: i,
      field: "function_call",
    });
  const refusal = own(m, "refusal");
  if (refusal !== undefined && refusal !== null && typeof refusal !== "string")
    throw invalid("must be a string or null", { message: i, field: "refusal" });
  const annotations = own(m, "annotations");
  if (annotations !== undefined && annotations !== null && !Array.isArray(annotations))
    throw invalid("must be an array or null", { message: i, field: "annotations" });
  for (const key of ["audio", "parsed", "annotations"]) {
    const v = own(m, key);
    if (v === undefined || v === null) continue;
    if (role !== "assistant")
      throw invalid("only an assistant message may carry it", { message: i, field: key });
    checkJsonValue(v, { message: i, field: key });
  }
}

/** The tool calls of a message without any (shared: normalized messages are only read). */
const NO_TOOL_CALLS: readonly NToolCall[] = Object.freeze([]);

/**
 * The common message {role, content} (own properties, enumerable or not, exactly those two or
 * fewer): the same checks in the same order as `message` with every absent field skipped, or
 * undefined for any other shape (then `message` does all of it). ~1 µs per message less on the
 * bench's chat pool: no key list check, none of the ten lookups of absent fields.
 */
function plainMessage(
  raw: JsonObject,
  i: number,
  p: FamilyProfile,
  roles: ReadonlySet<string>,
): NMessage | undefined {
  const names = Object.getOwnPropertyNames(raw);
  if (names.length > 2) return undefined;
  for (let k = 0; k < names.length; k++) {
    const key = names[k];
    if (key !== "role" && key !== "content") return undefined;
  }
  const given = checkRole(own(raw, "role"), i, roles);
  if (given === "function") return undefined;
  const role = (given === "developer" ? "system" : given) as Role;
  return {
    index: i,
    role,
    content: content(raw, i, role, p.family),
    name: undefined,
    toolCalls: NO_TOOL_CALLS,
    reasoning: undefined,
    reasoningField: "reasoning_content",
    action: undefined,
    metadata: undefined,
    tools: undefined,
  };
}

function message(
  raw: unknown,
  i: number,
  p: FamilyProfile,
  roles: ReadonlySet<string>,
  keys: ReadonlySet<string>,
): NMessage {
  if (!isObject(raw)) throw invalid("a message must be an object", { message: i });
  const plain = plainMessage(raw, i, p, roles);
  if (plain !== undefined) return plain;
  checkKeys(raw, keys, { message: i });
  const given = checkRole(own(raw, "role"), i, roles);
  if (given === "function")
    throw invalid('the deprecated "function" role cannot be rendered; use "tool"', {
      message: i,
      field: "role",
    });
  const role = (given === "developer" ? "system" : given) as Role;
  sdkFields(raw, i, role);
  const name = optionalString(raw, "name", { message: i, field: "name" });
  const toolCallId = optionalString(raw, "tool_call_id", { message: i, field: "tool_call_id" });
  if (toolCallId !== undefined && role !== "tool")
    throw invalid("only a tool message may carry tool_call_id", { message: i, field: "tool_call_id" });
  const r = reasoning(raw, i, role);
  const metadata = optionalString(raw, "metadata", { message: i, field: "metadata" });
  let tools: unknown[] | undefined;
  const t = own(raw, "tools");
  if (t !== undefined) {
    if (role !== "system")
      throw invalid("only a system message may carry tools", { message: i, field: "tools" });
    if (!Array.isArray(t)) throw invalid("must be an array", { message: i, field: "tools" });
    checkJsonValue(t, { message: i, field: "tools" });
    tools = t;
  }
  return {
    index: i,
    role,
    content: content(raw, i, role, p.family),
    name,
    toolCalls: toolCalls(raw, i, role, p.family),
    reasoning: r.text,
    reasoningField: r.field,
    action: action(raw, i, role),
    metadata,
    tools,
  };
}

function tool(t: unknown, k: number): NTool {
  const prefix = `tools[${k}]`;
  if (!isObject(t)) throw invalid("a tool must be an object", { field: prefix });
  const type = own(t, "type");
  if (type !== undefined && type !== "function")
    throw invalid('only "function" tools can be rendered', { field: `${prefix}.type` });
  checkKeys(t, TOOL_KEYS, { prefix });
  const fn = own(t, "function");
  if (!isObject(fn))
    throw invalid("must be an object {name, description?, parameters?}", { field: `${prefix}.function` });
  checkKeys(fn, TOOL_FN_KEYS, { prefix: `${prefix}.function` });
  const name = own(fn, "name");
  if (typeof name !== "string") throw invalid("must be a string", { field: `${prefix}.function.name` });
  const description = optionalString(fn, "description", { field: `${prefix}.function.description` });
  const parameters = own(fn, "parameters");
  if (parameters !== undefined && !isObject(parameters))
    throw invalid("must be an object", { field: `${prefix}.function.parameters` });
  const strict = own(fn, "strict");
  if (strict !== undefined && strict !== null && typeof strict !== "boolean")
    throw invalid("must be a boolean or null", { field: `${prefix}.function.strict` });
  checkJsonValue(t, { field: prefix });
  return { raw: t, name, description, parameters };
}

function optionalBool(r: JsonObject, key: string, at: At): boolean | undefined {
  const v = own(r, key);
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") throw invalid("must be a boolean", at);
  return v;
}

/** The roles and message fields a profile accepts, built once per profile (profiles are module constants). */
const ALLOWED = new WeakMap<FamilyProfile, { roles: ReadonlySet<string>; keys: ReadonlySet<string> }>();

function allowedOf(p: FamilyProfile): { roles: ReadonlySet<string>; keys: ReadonlySet<string> } {
  let a = ALLOWED.get(p);
  if (a === undefined) {
    a = {
      roles: new Set([...COMMON_ROLES, ...p.nativeRoles]),
      keys: new Set([...COMMON_FIELDS, ...p.nativeFields]),
    };
    ALLOWED.set(p, a);
  }
  return a;
}

export function normalizeRequest(request: unknown, p: FamilyProfile): NRequest {
  if (!isObject(request)) throw invalid("the request must be an object");
  checkKeys(request, TOP_KEYS, {});
  const msgs = own(request, "messages");
  if (!Array.isArray(msgs)) throw invalid("must be an array of messages", { field: "messages" });
  const { roles, keys } = allowedOf(p);
  // One pass, no copy of the array first (a hole reads as undefined, never the prototype's).
  const messages = new Array<NMessage>(msgs.length);
  for (let i = 0; i < msgs.length; i++)
    messages[i] = message(Object.hasOwn(msgs, i) ? msgs[i] : undefined, i, p, roles, keys);

  const t = own(request, "tools");
  let tools: NTool[] = [];
  if (t !== undefined && t !== null) {
    if (!Array.isArray(t)) throw invalid("must be an array", { field: "tools" });
    tools = items(t).map(tool);
  }

  const prefill =
    optionalBool(request, "continue_final_message", { field: "continue_final_message" }) ?? false;
  const agp = optionalBool(request, "add_generation_prompt", { field: "add_generation_prompt" });
  if (prefill && agp === true)
    throw invalid("add_generation_prompt and continue_final_message cannot both be true", {
      field: "continue_final_message",
    });
  if (prefill && messages.length === 0)
    throw invalid("needs a final message to continue", { field: "continue_final_message" });

  let enableThinking = optionalBool(request, "enable_thinking", { field: "enable_thinking" });
  const kw = own(request, "chat_template_kwargs");
  if (kw !== undefined && kw !== null) {
    if (!isObject(kw)) throw invalid("must be an object", { field: "chat_template_kwargs" });
    checkJsonValue(kw, { field: "chat_template_kwargs" });
    const et = optionalBool(kw, "enable_thinking", { field: "chat_template_kwargs.enable_thinking" });
    if (et !== undefined && enableThinking !== undefined && et !== enableThinking)
      throw invalid("differs from the top-level enable_thinking", {
        field: "chat_template_kwargs.enable_thinking",
      });
    enableThinking = et ?? enableThinking;
  }
  return {
    messages,
    tools,
    addGenerationPrompt: agp ?? !prefill,
    continueFinalMessage: prefill,
    enableThinking,
    now: parseNow(own(request, "now")),
  };
}

/**
 * The part of the final message's rendered content that transformers keeps with
 * continue_final_message: it finds content.strip() in the rendering and cuts after it, keeping
 * the trailing whitespace only when the content has no leading whitespace. `undefined` when the
 * stripped content is empty (transformers then leaves the rendering as it is).
 */
export function prefillKeep(content: string, rendered: string): string | undefined {
  let a = 0;
  while (a < content.length && isPySpace(content.charCodeAt(a))) a++;
  if (a === content.length) return undefined;
  if (a === 0) return rendered;
  let z = rendered.length;
  while (z > 0 && isPySpace(rendered.charCodeAt(z - 1))) z--;
  return rendered.slice(0, z);
}

/**
 * Writes `rendered` (the template's form of message `m`'s content) as caller text. When `m` is
 * the final message left open by continue_final_message (index `open`; -1 = none), writes only
 * what transformers keeps (prefillKeep) and answers true: nothing of the conversation follows.
 */
export function writeContent(
  b: ChatSink,
  m: NMessage,
  rendered: string,
  open: number,
  ref?: CallerRef,
): boolean {
  if (m.index === open) {
    const keep = prefillKeep(m.content, rendered);
    if (keep !== undefined) {
      b.caller(keep, m.index, "content", ref);
      return true;
    }
  }
  b.caller(rendered, m.index, "content", ref);
  return false;
}
