// Differential renderings of a chat template for the output-format recognizers: an assistant
// turn with chosen content, reasoning and tool calls, rendered after one user message, of which
// only what the model would generate is kept (after the generation prompt, up to the end of
// turn). Recognizers compare such renderings to find where the reasoning, the calls, a call's
// name and its arguments go, and which reserved tokens or literal texts delimit them.
import type { ChatRequest, JsonObject, ToolDefinition } from "../../request/request.ts";
import type { TemplateTokenizer } from "../tokenizer.ts";

export interface ProbeCall {
  readonly name: string;
  readonly arguments: JsonObject;
  readonly id?: string;
}

export interface ProbeTurn {
  readonly content?: string;
  readonly reasoning?: string;
  readonly calls?: readonly ProbeCall[];
  /** The request's tools (default: one per called name, parameters typed from its arguments). */
  readonly tools?: readonly ToolDefinition[];
  /** Template variables (enable_thinking ...). */
  readonly kwargs?: Readonly<Record<string, boolean | string>>;
  /**
   * Each call's arguments as JSON text, as OpenAI clients send them (a template that writes
   * them by concatenation, `'>>>' + name + '\n' + arguments`, takes only text). Default: objects.
   */
  readonly argumentsText?: boolean;
}

/** A piece of a generated part: a reserved token (by its string) or decoded ordinary text. */
export type Piece = { readonly reserved: string; readonly id: number } | { readonly text: string };

export interface Generated {
  readonly ids: readonly number[];
  readonly pieces: readonly Piece[];
  /** The pieces joined: reserved tokens spelled by their string. */
  readonly text: string;
}

export interface ProbeContext {
  readonly tok: TemplateTokenizer;
  /** Every template source of the tokenizer, joined (a marker the template never spells is not its format). */
  readonly source: string;
  /**
   * Template variables no request defines that every probe rendering is given (as ""), because
   * the template fails without them (./template-variables.ts); {} for most templates.
   */
  readonly variables: Readonly<Record<string, string>>;
  /** The end-of-turn ID the probe found (excluded from generated parts), or null. */
  readonly endOfTurn: number | null;
  /** The reserved ID of a string, when the vocabulary reserves it. */
  id(s: string): number | undefined;
  /** The generated part of an assistant turn, or null when the template refuses the conversation. */
  assistant(turn: ProbeTurn): Generated | null;
  /**
   * The whole rendering of an assistant turn after the generation prompt, its end of turn and
   * whatever the template writes after it included (GigaChat 3.0 writes a call as a turn of its
   * own after the assistant's end of turn), or null when the template refuses the conversation.
   */
  wholeTurn(turn: ProbeTurn): Generated | null;
  /** The generation prompt of [user] with these template variables (tools from `turn`), or null. */
  prompt(turn?: ProbeTurn): Generated | null;
}

export const PROBE_USER = "probe user one";

const schemaOf = (v: unknown): Record<string, unknown> => {
  if (typeof v === "string") return { type: "string" };
  if (typeof v === "number") return { type: Number.isInteger(v) ? "integer" : "number" };
  if (typeof v === "boolean") return { type: "boolean" };
  if (v === null) return { type: "null" };
  if (Array.isArray(v)) return { type: "array" };
  return { type: "object" };
};

function defaultTools(calls: readonly ProbeCall[]): ToolDefinition[] {
  const seen = new Map<string, ToolDefinition>();
  for (const c of calls) {
    if (seen.has(c.name)) continue;
    const properties: Record<string, unknown> = {};
    // A description per parameter: templates that print it (Command-R) fail without one.
    for (const [k, v] of Object.entries(c.arguments))
      properties[k] = { ...schemaOf(v), description: `probe ${k}` };
    seen.set(c.name, {
      type: "function",
      function: { name: c.name, description: `probe ${c.name}`, parameters: { type: "object", properties } },
    });
  }
  return [...seen.values()];
}

export function createProbeContext(
  tok: TemplateTokenizer,
  endOfTurn: number | null,
  variables: Readonly<Record<string, string>> = {},
): ProbeContext {
  const source = [tok.templates.default, tok.templates.toolUse ?? ""].join("\n");
  const reservedIds = new Map<number, string>();
  for (const [s, id] of tok.reserved) reservedIds.set(id, s);
  const toolsOf = (turn: ProbeTurn): readonly ToolDefinition[] =>
    turn.tools ?? defaultTools(turn.calls ?? []);
  const request = (turn: ProbeTurn, messages: readonly object[], gp: boolean): ChatRequest => {
    const tools = toolsOf(turn);
    const kwargs = { ...variables, ...turn.kwargs };
    return {
      messages,
      ...(tools.length > 0 ? { tools } : {}),
      add_generation_prompt: gp,
      ...(Object.keys(kwargs).length > 0 ? { chat_template_kwargs: kwargs } : {}),
    } as unknown as ChatRequest;
  };
  // The recognizers ask for the same renderings again and again (every assistant() renders the
  // prompt of its tools too): each distinct request is rendered once per probe.
  const rendered = new Map<string, readonly number[] | null>();
  const encode = (r: ChatRequest): readonly number[] | null => {
    const key = JSON.stringify(r);
    let ids = rendered.get(key);
    if (ids === undefined) {
      try {
        ids = tok.encodeChat(r).ids;
      } catch {
        ids = null; // a template that refuses this conversation
      }
      rendered.set(key, ids);
    }
    return ids;
  };
  const generated = (ids: readonly number[]): Generated => {
    const pieces: Piece[] = [];
    let run: number[] = [];
    const flush = (): void => {
      if (run.length > 0) pieces.push({ text: tok.textModel.decode(run) });
      run = [];
    };
    for (const id of ids) {
      const s = reservedIds.get(id);
      if (s === undefined) run.push(id);
      else {
        flush();
        pieces.push({ reserved: s, id });
      }
    }
    flush();
    const text = pieces.map((p) => ("text" in p ? p.text : p.reserved)).join("");
    return { ids, pieces, text };
  };
  const user = { role: "user", content: PROBE_USER };
  /** An assistant turn rendered after [user], the generation prompt's IDs cut off; `cut`: up to its end of turn. */
  const rendering = (turn: ProbeTurn, cut: boolean): Generated | null => {
    const calls = (turn.calls ?? []).map((c) => ({
      type: "function",
      ...(c.id !== undefined ? { id: c.id } : {}),
      function: {
        name: c.name,
        arguments: turn.argumentsText === true ? JSON.stringify(c.arguments) : c.arguments,
      },
    }));
    const message = {
      role: "assistant",
      content: turn.content ?? "",
      ...(turn.reasoning !== undefined ? { reasoning_content: turn.reasoning } : {}),
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    };
    const prompt = encode(request(turn, [user], true));
    const full = encode(request(turn, [user, message], false));
    if (prompt === null || full === null) return null;
    let k = 0;
    while (k < prompt.length && prompt[k] === full[k]) k++;
    let end = full.length;
    if (cut && endOfTurn !== null) {
      const e = full.indexOf(endOfTurn, k);
      if (e >= 0) end = e;
    }
    return generated(full.slice(k, end));
  };
  return {
    tok,
    source,
    variables,
    endOfTurn,
    id: (s) => tok.reserved.get(s),
    prompt(turn = {}) {
      const a = encode(request(turn, [user], false));
      const b = encode(request(turn, [user], true));
      if (a === null || b === null) return null;
      let k = 0;
      while (k < a.length && a[k] === b[k]) k++;
      return generated(b.slice(k));
    },
    assistant(turn) {
      return rendering(turn, true);
    },
    wholeTurn(turn) {
      return rendering(turn, false);
    },
  };
}
