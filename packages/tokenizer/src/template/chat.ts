// A chat request through a model's own chat template: the request becomes template variables as
// an OpenAI-compatible server hands them to transformers, shaped by what the template reads
// (./request-shape.ts; docs/formats.md "What a template is given"): text parts as a list when
// the template loops over content, else joined with "\n" (vLLM's content formats); null content
// as none on an assistant message with tool calls when the template tests content against none
// and takes no lists, else ""; developer -> system; the reasoning under each name the template uses among
// reasoning_content / reasoning / thinking; fields of the openai SDK's returned messages left
// out; chat_template_kwargs as variables; `tools` only when given; the request's `now` as
// strftime_now's clock. Every caller string is tagged with its field; the config's special
// tokens (bos_token, eos_token, ...) are template text. Then transformers' continue_final_message
// cut, and the provenance runs go to a ChatSink: template runs through `template()` (their
// reserved strings become IDs), caller runs through `caller()` (audited, ordinary text).
// Consecutive runs of either kind form one encoder call in the builder: the encoder sees the
// maximal text between reserved IDs, as HF does.

import type { ChatSink } from "../chat/sink.ts";
import { TokenizerError } from "../errors.ts";
import type { ProgramNode } from "../jinja/ast.ts";
import { Origins, ParsedJson } from "../jinja/origins.ts";
import { concat, PStr, TEMPLATE } from "../jinja/pstr.ts";
import { type RenderOptions, type RenderResult, renderProgram } from "../jinja/render.ts";
import { type DictEntries, type DictSource, PDict, PList, type Value } from "../jinja/values.ts";
import { isPySpace } from "../py/strip.ts";
import { type PyValue, parsePyJson } from "../py/value.ts";
import { type FamilyProfile, normalizeRequest } from "../request/normalize.ts";
import { REASONING_NAMES, type ReasoningName, type RequestShape, requestShape } from "./request-shape.ts";

export interface TemplateRender extends RenderResult {
  readonly origins: Origins;
}

const TEMPLATE_PROFILE: FamilyProfile = { family: "template", nativeRoles: [], nativeFields: [] };
/** Fields no template is given: no template renders them (the openai SDK's returned-message fields among them). */
const DROPPED = new Set(["refusal", "audio", "function_call", "parsed", "annotations"]);
const REASONING_KEYS: ReadonlySet<string> = new Set<string>(REASONING_NAMES);

function own(o: object, k: string): unknown {
  return Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined;
}

/** The message's content as the server layer normalizes it for this template, with provenance per part. */
function contentValue(
  content: unknown,
  i: number,
  origins: Origins,
  shape: RequestShape,
  noneForNull: boolean,
): Value {
  if (content === null || content === undefined) return noneForNull ? null : PStr.EMPTY;
  if (typeof content === "string") return origins.value(content, i, "content") as PStr;
  // Parts were checked by normalizeRequest: text parts {type, text}, nothing else.
  if (shape.contentList) return origins.rootValue(i, "content", content);
  const parts: PStr[] = [];
  (content as readonly unknown[]).forEach((p, k) => {
    if (k > 0) parts.push(PStr.of("\n"));
    const text = own(p as object, "text");
    parts.push(origins.value(typeof text === "string" ? text : "", i, `content[${k}].text`) as PStr);
  });
  return concat(parts);
}

/** The keys a tool call (and its function) is given with: the SDK's `index` / `parsed_arguments` left out. */
const CALL_KEYS = ["id", "type", "function"];
const CALL_FN_KEYS = ["name", "arguments"];

function pick(o: object, keys: readonly string[]): Record<string, unknown> | undefined {
  let extra = false;
  for (const k of Object.keys(o)) if (!keys.includes(k)) extra = true;
  if (!extra) return undefined;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) if (keys.includes(k)) out[k] = (o as Record<string, unknown>)[k];
  return out;
}

/**
 * JSON-string arguments as the dict vLLM's json.loads makes of them (key order as written, `1.0`
 * a float), for a template that reads them as a mapping; undefined when the text is not a JSON
 * object within the request's limits (depth).
 */
function parsedArguments(text: string): ParsedJson | undefined {
  let v: PyValue;
  try {
    v = parsePyJson(text);
  } catch {
    // Not JSON, or nested past the limit: the template gets the string as sent.
    return undefined;
  }
  return v instanceof Map ? new ParsedJson(v) : undefined;
}

/**
 * tool_calls as given to the template: as sent, or a copy without the SDK's bookkeeping keys
 * and, for a template that reads arguments as a mapping, with JSON-string arguments parsed.
 */
function cleanToolCalls(tc: unknown, shape: RequestShape): unknown {
  if (!Array.isArray(tc)) return tc;
  let copy: unknown[] | undefined;
  tc.forEach((c: unknown, j) => {
    if (typeof c !== "object" || c === null) return;
    let call = pick(c, CALL_KEYS);
    const fn = own(c, "function");
    let fnClean = typeof fn === "object" && fn !== null ? pick(fn, CALL_FN_KEYS) : undefined;
    const args = typeof fn === "object" && fn !== null ? own(fn, "arguments") : undefined;
    const parsed = shape.argumentsMapping && typeof args === "string" ? parsedArguments(args) : undefined;
    if (parsed !== undefined)
      fnClean = { ...(fnClean ?? (fn as Record<string, unknown>)), arguments: parsed };
    if (fnClean !== undefined) call = { ...(call ?? (c as Record<string, unknown>)), function: fnClean };
    if (call === undefined) return;
    copy ??= [...tc];
    copy[j] = call;
  });
  return copy ?? tc;
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * A caller message as a template dict: its fields in the caller's order (DROPPED ones left out,
 * developer -> system, the reasoning under each of the template's reasoning names, placed where
 * the caller's first reasoning field is), `content` last. Lazy: a template reads a few fields of
 * each message (role, content, maybe tool_calls), so a field's value is made when it is read and
 * the whole dict (every key with its provenance, in that order) only when the template reads the
 * dict as a whole (iterates, prints, tojson, length). Building every dict up front was ~40% of
 * a message's cost on the template path.
 */
class MessageSource implements DictSource {
  /** The reasoning text (the first non-null of the caller's reasoning fields), read on first need (null: none). */
  private reasoningRead: unknown;
  /** The caller's field the reasoning was read from (its origin, whatever name the template reads it under). */
  private reasoningField = "reasoning_content";
  private reasoningDone = false;
  /** Field values made so far (the dict's entries reuse them): content, role, the rest. */
  private content: Value | undefined;
  private contentMade = false;
  private role: Value | undefined;
  private others: Map<string, Value> | undefined;

  constructor(
    private readonly raw: Record<string, unknown>,
    private readonly i: number,
    private readonly origins: Origins,
    private readonly shape: RequestShape,
  ) {}

  private get reasoning(): unknown {
    if (!this.reasoningDone) {
      this.reasoningRead = null;
      for (const k of REASONING_NAMES) {
        const r = own(this.raw, k);
        if (r !== null && r !== undefined) {
          this.reasoningRead = r;
          this.reasoningField = k;
          break;
        }
      }
      this.reasoningDone = true;
    }
    return this.reasoningRead;
  }

  private get hasReasoning(): boolean {
    const r = this.reasoning;
    return r !== null && r !== undefined;
  }

  /**
   * An assistant message with tool calls and no content, for a template that tells none from ""
   * and takes no lists (a list-taking one handles "" as no content; none breaks some of them).
   */
  private get noneForNull(): boolean {
    if (!this.shape.contentNone || this.shape.contentList || own(this.raw, "role") !== "assistant")
      return false;
    const tc = own(this.raw, "tool_calls");
    return Array.isArray(tc) && tc.length > 0;
  }

  get(key: string | number): Value | undefined {
    if (key === "content") {
      if (!this.contentMade) {
        this.content = contentValue(
          own(this.raw, "content"),
          this.i,
          this.origins,
          this.shape,
          this.noneForNull,
        );
        this.contentMade = true;
      }
      return this.content;
    }
    if (key === "role" && this.role !== undefined) return this.role;
    if (typeof key !== "string") return undefined;
    let v = this.others?.get(key);
    if (v !== undefined) return v;
    const x = this.rawField(key);
    if (x === undefined) return undefined;
    v = this.origins.rootValue(this.i, this.originField(key), x);
    if (key === "role") this.role = v;
    else {
      this.others ??= new Map();
      this.others.set(key, v);
    }
    return v;
  }

  /** The caller field a dict key's value comes from (a reasoning name: the caller's reasoning field). */
  private originField(key: string): string {
    return REASONING_KEYS.has(key) ? this.reasoningField : key;
  }

  /** A value get() made already, if any. */
  private madeValue(key: string): Value | undefined {
    return key === "content" ? this.content : key === "role" ? this.role : this.others?.get(key);
  }

  /** The caller value of field `key` as the dict holds it, or undefined when the dict has no such key. */
  private rawField(key: string): unknown {
    if (REASONING_KEYS.has(key)) {
      return this.hasReasoning && this.shape.reasoningNames.includes(key as ReasoningName)
        ? this.reasoning
        : undefined;
    }
    // A field the message does not have (tool_calls, name, ... on most messages) reads as
    // undefined, and an own field holding undefined is no key of the dict either (entries()
    // skips it): no set lookup and no propertyIsEnumerable call for it.
    const x = this.raw[key];
    if (x === undefined) return undefined;
    // What Object.keys(raw) lists (own, enumerable), minus the fields the dict leaves out.
    if (key === "__proto__" || DROPPED.has(key) || !isEnumerable.call(this.raw, key)) return undefined;
    if (key === "tool_calls") return cleanToolCalls(x, this.shape);
    return key === "role" && x === "developer" ? "system" : x;
  }

  entries(): DictEntries {
    const d = new PDict();
    const add = (k: string, x: unknown): void => {
      if (x === undefined) return;
      const key = this.origins.rootKey(this.i, k);
      d.set(key, this.madeValue(k) ?? this.origins.rootValue(this.i, this.originField(k), x));
    };
    let reasoningPlaced = false;
    const placeReasoning = (): void => {
      if (reasoningPlaced || !this.hasReasoning) return;
      reasoningPlaced = true;
      for (const r of this.shape.reasoningNames) add(r, this.reasoning);
    };
    for (const k of Object.keys(this.raw)) {
      // A "__proto__" key never reached the dict before (assigning it to a plain object set the
      // prototype instead): still left out.
      if (k === "content" || k === "__proto__" || DROPPED.has(k)) continue;
      if (REASONING_KEYS.has(k)) {
        const r = this.raw[k];
        if (r !== null && r !== undefined) placeReasoning();
        continue;
      }
      add(k, this.rawField(k));
    }
    placeReasoning();
    d.set(PStr.of("content"), this.get("content") as Value);
    return d.map;
  }
}

/** Every message as a lazy dict (MessageSource). */
function messagesValue(messages: readonly unknown[], origins: Origins, shape: RequestShape): PList {
  const items = new Array<Value>(messages.length);
  for (let i = 0; i < messages.length; i++)
    items[i] = new PDict(new MessageSource(messages[i] as Record<string, unknown>, i, origins, shape));
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

/**
 * The final message's text for the continue_final_message cut: transformers takes the last text
 * part when the template is given a list, else the text the template is given (the joined parts).
 */
function finalText(req: Record<string, unknown>, joined: string, program: ProgramNode): string {
  if (!requestShape(program).contentList) return joined;
  const msgs = own(req, "messages") as unknown[];
  const c = own(msgs[msgs.length - 1] as object, "content");
  if (!Array.isArray(c)) return joined;
  const lastPart: unknown = c[c.length - 1];
  const text = typeof lastPart === "object" && lastPart !== null ? own(lastPart, "text") : undefined;
  return typeof text === "string" ? text : "";
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
  vars.set("messages", messagesValue(own(req, "messages") as unknown[], origins, requestShape(program)));
  const tools = own(req, "tools");
  if (Array.isArray(tools) && tools.length > 0) vars.set("tools", origins.value(tools, null, "tools"));
  vars.set("add_generation_prompt", n.addGenerationPrompt);
  // The request's clock pin wins over the loader's (options.now) and the current time.
  const pinned = n.now;
  const r = renderProgram(
    program,
    [specialTokens, vars],
    origins,
    pinned === undefined ? options : { ...options, now: () => pinned },
  );
  let output = r.output;
  if (n.continueFinalMessage) {
    const last = n.messages[n.messages.length - 1];
    if (last !== undefined) output = continueFinal(output, finalText(req, last.content, program));
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
