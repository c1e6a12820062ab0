// A chat request through a model's own chat template: the request becomes template variables as
// an OpenAI-compatible server hands them to transformers (vLLM's content normalization:
// null -> "", text parts joined with "\n"; developer -> system; `reasoning` -> reasoning_content;
// chat_template_kwargs as variables; `tools` only when given), every caller string tagged with
// its field; the config's special tokens (bos_token, eos_token, ...) are template text. Then
// transformers' continue_final_message cut, and the provenance runs go to a ChatSink:
// template runs through `template()` (their reserved strings become IDs), caller runs through
// `caller()` (audited, ordinary text). Consecutive runs of either kind form one encoder call
// in the builder: the encoder sees the maximal text between reserved IDs, as HF does.

import { TokenizerError } from "../errors.ts";
import { type FamilyProfile, normalizeRequest } from "../formats/normalize.ts";
import type { ChatSink } from "../formats/sink.ts";
import type { ProgramNode } from "./ast.ts";
import { Origins } from "./origins.ts";
import { concat, PStr, TEMPLATE } from "./pstr.ts";
import { isPySpace } from "./py-str.ts";
import { type RenderOptions, type RenderResult, renderProgram } from "./render.ts";
import { type DictEntries, type DictSource, PDict, PList, type Value } from "./values.ts";

export interface TemplateRender extends RenderResult {
  readonly origins: Origins;
}

const TEMPLATE_PROFILE: FamilyProfile = { family: "template", nativeRoles: [], nativeFields: [] };
const DROPPED = new Set(["refusal", "audio", "function_call", "reasoning"]);

function own(o: object, k: string): unknown {
  return Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined;
}

/** The message's content as the server layer normalizes it, with provenance per part. */
function contentValue(content: unknown, i: number, origins: Origins): PStr {
  if (content === null || content === undefined) return PStr.EMPTY;
  if (typeof content === "string") return origins.value(content, i, "content") as PStr;
  const parts: PStr[] = [];
  (content as readonly unknown[]).forEach((p, k) => {
    if (k > 0) parts.push(PStr.of("\n"));
    const text = own(p as object, "text");
    parts.push(origins.value(typeof text === "string" ? text : "", i, `content[${k}].text`) as PStr);
  });
  return concat(parts);
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * A caller message as a template dict: its fields in the caller's order (DROPPED ones left out,
 * developer -> system, `reasoning` as reasoning_content: in place when the message has that
 * key, else after the others), `content` last. Lazy: a template reads a few fields of each
 * message (role, content, maybe tool_calls), so a field's value is made when it is read and the
 * whole dict (every key with its provenance, in that order) only when the template reads the
 * dict as a whole (iterates, prints, tojson, length). Building every dict up front was ~40% of
 * a message's cost on the template path.
 */
class MessageSource implements DictSource {
  /** own(raw, "reasoning"), read on first need (null: none). */
  private reasoningRead: unknown;
  private reasoningDone = false;
  /** Field values made so far (the dict's entries reuse them): content, role, the rest. */
  private content: PStr | undefined;
  private role: Value | undefined;
  private others: Map<string, Value> | undefined;

  constructor(
    private readonly raw: Record<string, unknown>,
    private readonly i: number,
    private readonly origins: Origins,
  ) {}

  private get reasoning(): unknown {
    if (!this.reasoningDone) {
      this.reasoningRead = own(this.raw, "reasoning");
      this.reasoningDone = true;
    }
    return this.reasoningRead;
  }

  private get hasReasoning(): boolean {
    const r = this.reasoning;
    return r !== null && r !== undefined;
  }

  get(key: string | number): Value | undefined {
    if (key === "content") {
      this.content ??= contentValue(own(this.raw, "content"), this.i, this.origins);
      return this.content;
    }
    if (key === "role" && this.role !== undefined) return this.role;
    if (typeof key !== "string") return undefined;
    let v = this.others?.get(key);
    if (v !== undefined) return v;
    const x = this.rawField(key);
    if (x === undefined) return undefined;
    v = this.origins.rootValue(this.i, key, x);
    if (key === "role") this.role = v;
    else {
      this.others ??= new Map();
      this.others.set(key, v);
    }
    return v;
  }

  /** A value get() made already, if any. */
  private madeValue(key: string): Value | undefined {
    return key === "content" ? this.content : key === "role" ? this.role : this.others?.get(key);
  }

  /** The caller value of field `key` as the dict holds it, or undefined when the dict has no such key. */
  private rawField(key: string): unknown {
    if (key === "reasoning_content" && this.hasReasoning) return this.reasoning;
    // A field the message does not have (tool_calls, name, ... on most messages) reads as
    // undefined, and an own field holding undefined is no key of the dict either (entries()
    // skips it): no set lookup and no propertyIsEnumerable call for it.
    const x = this.raw[key];
    if (x === undefined) return undefined;
    // What Object.keys(raw) lists (own, enumerable), minus the fields the dict leaves out.
    if (key === "__proto__" || DROPPED.has(key) || !isEnumerable.call(this.raw, key)) return undefined;
    return key === "role" && x === "developer" ? "system" : x;
  }

  entries(): DictEntries {
    const d = new PDict();
    const add = (k: string, x: unknown): void => {
      if (x === undefined) return;
      const key = this.origins.rootKey(this.i, k);
      d.set(key, this.madeValue(k) ?? this.origins.rootValue(this.i, k, x));
    };
    let reasoningPlaced = false;
    for (const k of Object.keys(this.raw)) {
      // A "__proto__" key never reached the dict before (assigning it to a plain object set the
      // prototype instead): still left out.
      if (k === "content" || k === "__proto__" || DROPPED.has(k)) continue;
      if (k === "reasoning_content" && this.hasReasoning) reasoningPlaced = true;
      add(k, this.rawField(k));
    }
    if (this.hasReasoning && !reasoningPlaced) add("reasoning_content", this.reasoning);
    d.set(PStr.of("content"), this.get("content") as Value);
    return d.map;
  }
}

/** Every message as a lazy dict (MessageSource). */
function messagesValue(messages: readonly unknown[], origins: Origins): PList {
  const items = new Array<Value>(messages.length);
  for (let i = 0; i < messages.length; i++)
    items[i] = new PDict(new MessageSource(messages[i] as Record<string, unknown>, i, origins));
  return new PList(items);
}

/** transformers' continue_final_message cut (apply_chat_template), on the provenance string. */
function continueFinal(rendered: PStr, final: string): PStr {
  const strip = (s: string, left: boolean, right: boolean): string => {
    let a = 0;
    let b = s.length;
    if (left) while (a < b && isPySpace(s.charCodeAt(a))) a++;
    if (right) while (b > a && isPySpace(s.charCodeAt(b - 1))) b--;
    return s.slice(a, b);
  };
  const stripped = strip(final, true, true);
  const at = rendered.text.lastIndexOf(stripped);
  if (at < 0)
    throw new TokenizerError(
      "invalid-conversation",
      "continue_final_message: the final message does not appear in the rendering (the template changed it)",
      { field: "continue_final_message" },
    );
  const lstripped = strip(final, true, false);
  if (rendered.text.slice(at, at + lstripped.length) === final)
    return rendered.slice(0, at + lstripped.length);
  return rendered.slice(0, at + stripped.length);
}

/** Renders `request` (validated first: TokenizerError "invalid-conversation"). */
export function renderChatTemplate(
  program: ProgramNode,
  request: unknown,
  specialTokens: ReadonlyMap<string, Value>,
  options: RenderOptions = {},
): TemplateRender {
  const n = normalizeRequest(request, TEMPLATE_PROFILE);
  const req = request as Record<string, unknown>;
  const origins = new Origins();
  const vars = new Map<string, Value>();
  const kw = own(req, "chat_template_kwargs");
  if (kw !== null && kw !== undefined)
    for (const [k, v] of Object.entries(kw as object))
      vars.set(k, origins.value(v, null, `chat_template_kwargs.${k}`));
  if (n.enableThinking !== undefined) vars.set("enable_thinking", n.enableThinking);
  vars.set("messages", messagesValue(own(req, "messages") as unknown[], origins));
  const tools = own(req, "tools");
  if (Array.isArray(tools) && tools.length > 0) vars.set("tools", origins.value(tools, null, "tools"));
  vars.set("add_generation_prompt", n.addGenerationPrompt);
  const r = renderProgram(program, [specialTokens, vars], origins, options);
  let output = r.output;
  if (n.continueFinalMessage) {
    const last = n.messages[n.messages.length - 1];
    if (last !== undefined) output = continueFinal(output, last.content);
  }
  return { output, structure: r.structure, origins };
}

/** Pushes the rendering into a sink: template runs may hold reserved strings, caller runs never. */
export function emitRuns(r: TemplateRender, sink: ChatSink): void {
  r.output.forEachRun((text, origin) => {
    if (origin === TEMPLATE) sink.template(text, null, "template");
    else {
      const f = r.origins.get(origin);
      sink.caller(text, f.message, r.origins.top(origin), f);
    }
  });
}
