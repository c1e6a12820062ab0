// mistral-common's request normalization (InstructRequestNormalizer, and its V7 variant), as
// data the renderer walks: consecutive messages of one role are merged (text joined by "\n\n",
// empty texts skipped), tool-call arguments and tool results are JSON-normalized
// (json.loads + json.dumps, ensure_ascii=False; text that is not JSON stays as it is; tool
// results only up to v3), system messages either become one system prompt (v1-v3) or stay in
// place (v7+), and from v11 on (InstructRequestNormalizerV13) a run of tool messages is put in
// the order of the calls they answer. A re-implementation of the vendor's rules, checked
// against mistral-common's own samples and test expectations.

import { PyJsonError, type PyValue, parsePyJson, pyFromJs, pyValueJson } from "../../py/value.ts";
import { type FamilyProfile, type NMessage, normalizeRequest } from "../../request/normalize.ts";
import { invalid, isObject, own } from "../../request/schema.ts";
import type { MistralVersion } from "./tokens.ts";

const PROFILE: FamilyProfile = { family: "mistral", nativeRoles: [], nativeFields: [] };

/** One caller string with where it came from (spans, audit). */
export interface Piece {
  readonly text: string;
  readonly message: number;
}

export interface PlannedCall {
  readonly name: string;
  /** The arguments after normalization: a JSON value, or the caller's text when it is not JSON. */
  readonly arguments: PyValue;
  readonly id: string | undefined;
  readonly message: number;
  readonly index: number;
}

export type Planned =
  | { readonly role: "user"; readonly message: number; readonly parts: readonly Piece[] }
  | { readonly role: "system"; readonly message: number; readonly parts: readonly Piece[] }
  | {
      readonly role: "assistant";
      readonly message: number;
      readonly parts: readonly Piece[];
      readonly calls: readonly PlannedCall[];
      /** The reasoning (reasoning_content) of the first message of the run that has one. */
      readonly reasoning: Piece | undefined;
    }
  | {
      readonly role: "tool";
      readonly message: number;
      /** The content after normalization ("{}" when empty; json.dumps of it when it is JSON). */
      readonly content: string;
      readonly name: string | undefined;
      readonly callId: string | undefined;
    };

export interface Plan {
  readonly messages: readonly Planned[];
  /** v1-v3: every system message's text, joined by "\n\n" where rendered. */
  readonly systemPrompt: readonly Piece[];
  readonly tools: ReadonlyArray<{
    readonly name: string;
    readonly description: string;
    readonly parameters: unknown;
  }>;
  readonly continueFinal: boolean;
  readonly addGenerationPrompt: boolean;
}

/** json.loads(text), or undefined when Python would raise JSONDecodeError. */
export function loadsOrUndefined(text: string): PyValue | undefined {
  try {
    return parsePyJson(text);
  } catch (e) {
    if (e instanceof PyJsonError) return undefined;
    throw e;
  }
}

function rawMessage(request: unknown, i: number): Readonly<Record<string, unknown>> | undefined {
  const msgs = isObject(request) ? own(request, "messages") : undefined;
  const m = Array.isArray(msgs) ? msgs[i] : undefined;
  return isObject(m) ? m : undefined;
}

function callIdOf(request: unknown, i: number, j: number): string | undefined {
  const calls = rawMessage(request, i)?.tool_calls;
  const c = Array.isArray(calls) ? calls[j] : undefined;
  const id = isObject(c) ? own(c, "id") : undefined;
  return typeof id === "string" ? id : undefined;
}

function toolCallIdOf(request: unknown, i: number): string | undefined {
  const id = rawMessage(request, i)?.tool_call_id;
  return typeof id === "string" ? id : undefined;
}

/**
 * A message's text as mistral-common's normalizer aggregates it: text chunks of one message
 * joined by "\n\n" (its chunk_join_str), empty chunks skipped; the common request form joins
 * parts with "\n" (vLLM's rule), so the parts are read again here.
 */
function withChunksJoined(request: unknown, m: NMessage): NMessage {
  const parts = rawMessage(request, m.index)?.content;
  if (!Array.isArray(parts)) return m;
  const texts: string[] = [];
  for (const p of parts) {
    const t = isObject(p) ? own(p, "text") : undefined;
    if (typeof t === "string" && t.length > 0) texts.push(t);
  }
  return { ...m, content: texts.join("\n\n") };
}

function nonEmpty(ms: readonly NMessage[]): Piece[] {
  return ms.filter((m) => m.content.length > 0).map((m) => ({ text: m.content, message: m.index }));
}

/** Validates and normalizes `request` for tokenizer version `v` (typed errors: invalid-conversation). */
export function planRequest(request: unknown, v: MistralVersion): Plan {
  const req = normalizeRequest(request, PROFILE);
  const msgs = req.messages.map((m) => withChunksJoined(request, m));
  for (const m of msgs) {
    if (v === 1 && (m.role === "tool" || m.toolCalls.length > 0))
      throw invalid("Mistral tokenizer v1 has no tools", { message: m.index, field: "tool_calls" });
    if (m.role === "assistant" && v < 7 && m.toolCalls.length > 0 && m.content.length > 0)
      throw invalid(`Mistral tokenizer v${v} cannot hold content and tool_calls in one message`, {
        message: m.index,
        field: "content",
      });
    if (v >= 13)
      m.toolCalls.forEach((_, k) => {
        const id = callIdOf(request, m.index, k);
        if (id === undefined || id === "" || id === "null")
          throw invalid(`Mistral tokenizer v${v} needs the id of every tool call`, {
            message: m.index,
            field: `tool_calls[${k}].id`,
          });
      });
    if (m.role === "tool" && v >= 3 && toolCallIdOf(request, m.index) === undefined)
      throw invalid(`Mistral tokenizer v${v} needs the tool_call_id of a tool message`, {
        message: m.index,
        field: "tool_call_id",
      });
  }
  if (v === 1 && req.tools.length > 0) throw invalid("Mistral tokenizer v1 has no tools", { field: "tools" });
  const systemInPlace = v >= 7;
  const out: Planned[] = [];
  /** The call ids of the assistant messages since the last tool messages (the V13 order). */
  let latestCallIds = new Map<string, number>();
  let latestCalls = 0;
  let i = 0;
  while (i < msgs.length) {
    const first = msgs[i] as NMessage;
    let j = i + 1;
    while (j < msgs.length && (msgs[j] as NMessage).role === first.role) j++;
    const run = msgs.slice(i, j);
    i = j;
    switch (first.role) {
      case "user":
        out.push({ role: "user", message: first.index, parts: nonEmpty(run) });
        break;
      case "system":
        if (systemInPlace) out.push({ role: "system", message: first.index, parts: nonEmpty(run) });
        break;
      case "assistant": {
        const calls: PlannedCall[] = [];
        for (const m of run)
          m.toolCalls.forEach((tc, k) => {
            let args: PyValue;
            if (typeof tc.arguments !== "string") args = pyFromJs(tc.arguments);
            else if (tc.arguments.length === 0) args = new Map();
            else args = loadsOrUndefined(tc.arguments) ?? tc.arguments;
            calls.push({
              name: tc.name,
              arguments: args,
              id: callIdOf(request, m.index, k),
              message: m.index,
              index: k,
            });
          });
        // Python's {call_id: idx for ...}: a repeated id keeps its last position.
        for (const c of calls) latestCallIds.set(c.id ?? "null", latestCalls++);
        const withReasoning = run.find((m) => m.reasoning !== undefined && m.reasoning.length > 0);
        out.push({
          role: "assistant",
          message: first.index,
          parts: nonEmpty(run),
          calls,
          reasoning:
            withReasoning === undefined
              ? undefined
              : { text: withReasoning.reasoning as string, message: withReasoning.index },
        });
        break;
      }
      case "tool": {
        const tools = run.map((m, k) => {
          const callId = toolCallIdOf(request, m.index);
          // Unanswered ids go last; ties keep the given order.
          return { m, callId, at: latestCallIds.get(callId ?? "null") ?? latestCalls + k };
        });
        if (v >= 11) tools.sort((a, b) => a.at - b.at);
        latestCallIds = new Map();
        latestCalls = 0;
        for (const { m, callId } of tools) {
          let content = m.content;
          if (v < 7) {
            const parsed = m.content.length === 0 ? undefined : loadsOrUndefined(m.content);
            content = m.content.length === 0 ? "{}" : parsed === undefined ? m.content : pyValueJson(parsed);
          }
          out.push({ role: "tool", message: m.index, content, name: m.name, callId });
        }
        break;
      }
      default:
        throw invalid(`role ${JSON.stringify(first.role)} cannot be rendered by Mistral`, {
          message: first.index,
          field: "role",
        });
    }
  }
  if (out.length === 0 || (!systemInPlace && out[0]?.role !== "user"))
    out.unshift({ role: "user", message: msgs[0]?.index ?? 0, parts: [] });
  for (const m of out)
    if (m.role === "assistant" && m.parts.length === 0 && m.calls.length === 0)
      throw invalid("an assistant message needs content or tool_calls", {
        message: m.message,
        field: "content",
      });
  const last = out[out.length - 1];
  if (req.continueFinalMessage && last?.role !== "assistant")
    throw invalid("Cannot continue final message if it is not an assistant message", {
      field: "continue_final_message",
    });
  if (req.addGenerationPrompt && last !== undefined && last.role !== "user" && last.role !== "tool")
    throw invalid("the last message must be a user or tool message to generate a reply", {
      message: last.message,
      field: "role",
    });
  return {
    messages: out,
    systemPrompt: systemInPlace ? [] : nonEmpty(msgs.filter((m) => m.role === "system")),
    tools: req.tools.map((t) => ({
      name: t.name,
      description: t.description ?? "",
      parameters: t.parameters ?? {},
    })),
    continueFinal: req.continueFinalMessage,
    addGenerationPrompt: req.addGenerationPrompt,
  };
}
