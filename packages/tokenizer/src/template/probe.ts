// Probe renderings: what a template-only model's generation looks like, found by rendering
// needle conversations through the model's own template and diffing them (docs/templates.md
// "Decoding"). The decoder (@chatwire/stream-decoder compileTemplateDecoderSpec) turns the
// result into its class table; nothing here reads generated text.
//
//   generation prompt  ids([user N1], add_generation_prompt) minus ids([user N1]) (minus a
//                      trailing EOS the template writes without the prompt, as Phi-3's does)
//   end of turn        the first reserved token the template writes after an assistant's content
//   turn starts        reserved tokens between one message's content and the next one's
//   EOS                config eos_token, generation_config.json eos_token_id, the end of turn
//   user turn          ids([user N1, assistant N2, user N3]) from after the end of turn to N3
//   grammars           <think>/</think>, <tool_call>/</tool_call> (JSON): only when both are
//                      reserved single tokens and the template source spells at least one;
//                      DeepSeek's <｜tool▁calls▁begin｜> <｜tool▁call▁begin｜> TYPE <｜tool▁sep｜>
//                      NAME\n```json\nARGS\n``` <｜tool▁call▁end｜> <｜tool▁calls▁end｜>: when all
//                      five are reserved and the template spells the first
//   tool-call body     <tool_call> bodies are Qwen3-Coder's XML (xml-call) when the template
//                      spells "<function=" and "<parameter=", else JSON (json-call)
//   plain-text calls   a [user, assistant with one tool call] rendering whose generated part
//                      (up to the end of turn) has no reserved token and is a JSON object with
//                      the call's "name" (Llama 3.1+: {"name": N, "parameters": {...}})
import { TokenizerError } from "../errors.ts";
import type { ChatRequest } from "../request/request.ts";
import type { TemplateTokenizer } from "./tokenizer.ts";

export interface MarkerPair {
  readonly start: number;
  readonly end: number;
}

/** DeepSeek V3 / R1 tool-call markers (docs/templates.md "Decoding"). */
export interface FencedToolCallMarkers {
  readonly callsBegin: number;
  readonly callBegin: number;
  readonly sep: number;
  readonly callEnd: number;
  readonly callsEnd: number;
}

export interface TemplateProbe {
  /** IDs the generation prompt adds after the last message (e.g. `<|start_header_id|>assistant<|end_header_id|>\n\n`). */
  readonly generationPrompt: readonly number[];
  /** Reserved IDs of the generation prompt (the assistant's turn start). */
  readonly assistantStart: readonly number[];
  /** Reserved IDs that open a user turn after an assistant turn (end of turn excluded). */
  readonly userStart: readonly number[];
  /**
   * IDs that open a user turn after an assistant's end of turn, up to the user's content,
   * leading text (the "\n" a template writes after its end of turn) dropped; [] when the
   * rendering does not split cleanly there.
   */
  readonly userPrompt: readonly number[];
  /** The first reserved ID after an assistant's content (`<|eot_id|>`), or null (ChatGLM3: none). */
  readonly endOfTurn: number | null;
  /** Stop IDs: config eos_token, generation_config.json eos_token_id, endOfTurn (sorted, unique). */
  readonly eosIds: readonly number[];
  /** `<think>` / `</think>` when the grammar matches, else null. */
  readonly think: MarkerPair | null;
  /** The generation prompt ends inside an open `<think>` (decoding starts in reasoning). */
  readonly startInReasoning: boolean;
  /** `<tool_call>` / `</tool_call>` with a JSON `{"name", "arguments"}` body, else null. */
  readonly toolCall: MarkerPair | null;
  /** The body syntax of `toolCall`: Qwen3's JSON or Qwen3-Coder's XML. */
  readonly toolCallBody: "json-call" | "xml-call";
  /** The template writes a tool call as plain JSON text, marked by no token (Llama 3.1+). */
  readonly plainTextToolCall: boolean;
  /** DeepSeek's tool-call block markers (fenced JSON arguments), else null. */
  readonly fencedToolCalls: FencedToolCallMarkers | null;
  /** Display name per reserved ID. */
  readonly names: ReadonlyMap<number, string>;
}

const N1 = "probe user one";
const N2 = "probe assistant two";
const N3 = "probe user three";

/**
 * Template text between the caller content of message `a` and that of message `b` (b = -1: to
 * the end). Other caller runs (the role name is caller data too) are skipped.
 */
function templateBetween(tok: TemplateTokenizer, request: ChatRequest, a: number, b: number): string {
  const runs = tok.renderProvenance(request);
  let lastA = -1;
  const content = (i: number, m: number): boolean => {
    const r = runs[i];
    return r !== undefined && r.origin === "caller" && r.message === m && r.field === "content";
  };
  for (let i = 0; i < runs.length; i++) if (content(i, a)) lastA = i;
  if (lastA === -1) return "";
  let out = "";
  for (let i = lastA + 1; i < runs.length; i++) {
    const r = runs[i];
    if (r === undefined) break;
    if (r.origin === "caller") {
      if (b !== -1 && content(i, b)) break;
      continue;
    }
    out += r.text;
  }
  return out;
}

function reservedIn(tok: TemplateTokenizer, text: string): number[] {
  return tok.scanner.scan(text).map((m) => m.id);
}

function pair(tok: TemplateTokenizer, start: string, end: string): MarkerPair | null {
  const s = tok.reserved.get(start);
  const e = tok.reserved.get(end);
  if (s === undefined || e === undefined) return null;
  const src = [tok.templates.default, tok.templates.toolUse ?? ""].join("\n");
  return src.includes(start) || src.includes(end) ? { start: s, end: e } : null;
}

/** The user turn's opening IDs: after the end of turn that follows message 1, up to message 2's content. */
function userPromptIds(tok: TemplateTokenizer, request: ChatRequest, endOfTurn: number | null): number[] {
  if (endOfTurn === null) return [];
  const e = tok.encodeChat(request);
  const contentStart = (m: number): number =>
    e.spans.find((s) => s.message === m && s.field === "content")?.start ?? -1;
  const spanEnd = (m: number): number => {
    let end = -1;
    for (const s of e.spans) if (s.message === m && s.field === "content") end = s.end;
    return end;
  };
  const from = spanEnd(1);
  const to = contentStart(2);
  if (from < 0 || to < 0) return [];
  let k = e.ids.indexOf(endOfTurn, from);
  if (k < 0 || k >= to) return [];
  k++;
  const reservedIds = new Set(tok.reserved.values());
  while (k < to && !reservedIds.has(e.ids[k] as number)) k++;
  return e.ids.slice(k, to);
}

function fenced(tok: TemplateTokenizer): FencedToolCallMarkers | null {
  const get = (s: string): number | undefined => tok.reserved.get(s);
  const callsBegin = get("<｜tool▁calls▁begin｜>");
  const callBegin = get("<｜tool▁call▁begin｜>");
  const sep = get("<｜tool▁sep｜>");
  const callEnd = get("<｜tool▁call▁end｜>");
  const callsEnd = get("<｜tool▁calls▁end｜>");
  if (
    callsBegin === undefined ||
    callBegin === undefined ||
    sep === undefined ||
    callEnd === undefined ||
    callsEnd === undefined
  )
    return null;
  const src = [tok.templates.default, tok.templates.toolUse ?? ""].join("\n");
  return src.includes("<｜tool▁calls▁begin｜>") ? { callsBegin, callBegin, sep, callEnd, callsEnd } : null;
}

function toolCallBody(tok: TemplateTokenizer): "json-call" | "xml-call" {
  const src = [tok.templates.default, tok.templates.toolUse ?? ""].join("\n");
  return src.includes("<function=") && src.includes("<parameter=") ? "xml-call" : "json-call";
}

/** Whether one rendered tool call is plain JSON text after the generation prompt (no reserved ID). */
function plainTextToolCall(tok: TemplateTokenizer, endOfTurn: number | null): boolean {
  const fn = { name: "probe_tool", parameters: { type: "object", properties: { k: { type: "string" } } } };
  const tools = [{ type: "function", function: fn }];
  const call = { type: "function", function: { name: "probe_tool", arguments: '{"k": "v"}' } };
  const user = { role: "user", content: N1 };
  const req = (messages: readonly object[], gp: boolean): ChatRequest =>
    ({ messages, tools, add_generation_prompt: gp }) as unknown as ChatRequest;
  let prompt: readonly number[];
  let full: readonly number[];
  try {
    prompt = tok.encodeChat(req([user], true)).ids;
    full = tok.encodeChat(req([user, { role: "assistant", content: "", tool_calls: [call] }], false)).ids;
  } catch {
    return false; // a template that refuses tools or tool calls
  }
  for (let i = 0; i < prompt.length; i++) if (prompt[i] !== full[i]) return false;
  let gen = full.slice(prompt.length);
  const end = endOfTurn === null ? -1 : gen.indexOf(endOfTurn);
  if (end >= 0) gen = gen.slice(0, end);
  const reservedIds = new Set(tok.reserved.values());
  if (gen.length === 0 || gen.some((id) => reservedIds.has(id))) return false;
  try {
    const v: unknown = JSON.parse(tok.textModel.decode(gen));
    return typeof v === "object" && v !== null && (v as { name?: unknown }).name === "probe_tool";
  } catch {
    return false;
  }
}

/** Probes the template; a template that refuses the needle conversations is a typed error. */
export function probeTemplate(tok: TemplateTokenizer): TemplateProbe {
  const user = { role: "user", content: N1 } as const;
  const assistant = { role: "assistant", content: N2 } as const;
  // add_generation_prompt is explicit: the request mapping defaults it to true, as servers do.
  const render = (messages: ChatRequest["messages"], gp: boolean): ChatRequest =>
    ({ messages, add_generation_prompt: gp }) as ChatRequest;
  const eos = new Set<number>();
  const eosName = tok.config.eosToken;
  const eosId = eosName === undefined ? undefined : tok.reserved.get(eosName);
  if (eosId !== undefined) eos.add(eosId);
  for (const id of tok.generationEosIds) eos.add(id);
  const a = tok.encodeChat(render([user], false)).ids;
  const b = tok.encodeChat(render([user], true)).ids;
  let k = 0;
  while (k < a.length && a[k] === b[k]) k++;
  // Phi-3's template ends a rendering without the generation prompt with the EOS token
  // (`{% else %}{{ eos_token }}`): the prompt then extends the rendering before that EOS.
  if (k !== a.length && !a.slice(k).every((id) => eos.has(id)))
    throw new TokenizerError(
      "template-error",
      "probe: the generation prompt is not an extension of the conversation's rendering",
    );
  const generationPrompt = b.slice(k);
  const reservedIds = new Set(tok.reserved.values());
  const assistantStart = generationPrompt.filter((id) => reservedIds.has(id));
  const afterAssistant = reservedIn(tok, templateBetween(tok, render([user, assistant], false), 1, -1));
  const endOfTurn = afterAssistant[0] ?? null;
  const threeTurns = render([user, assistant, { role: "user", content: N3 }], false);
  const between = reservedIn(tok, templateBetween(tok, threeTurns, 1, 2));
  const userStart = endOfTurn !== null && between[0] === endOfTurn ? between.slice(1) : between;
  if (endOfTurn !== null) eos.add(endOfTurn);
  const think = pair(tok, "<think>", "</think>");
  let startInReasoning = false;
  if (think !== null)
    for (const id of generationPrompt) {
      if (id === think.start) startInReasoning = true;
      else if (id === think.end) startInReasoning = false;
    }
  const names = new Map<number, string>();
  for (const [s, id] of tok.reserved) names.set(id, s);
  return Object.freeze({
    generationPrompt,
    assistantStart,
    userStart,
    userPrompt: userPromptIds(tok, threeTurns, endOfTurn),
    endOfTurn,
    eosIds: [...eos].sort((x, y) => x - y),
    think,
    startInReasoning,
    toolCall: pair(tok, "<tool_call>", "</tool_call>"),
    toolCallBody: toolCallBody(tok),
    plainTextToolCall: plainTextToolCall(tok, endOfTurn),
    fencedToolCalls: fenced(tok),
    names,
  });
}
