// Synthetic grammars over the synthetic text model (./synthetic.ts): the shapes of the new
// families' grammars (a "pair" header; role markers with a container of calls) as engine
// fixtures that do not depend on the family definitions.
import type { Grammar } from "@chatwire/tokenizer";
import { compileDecoderSpecFor, type DecoderEvent, type DecoderSpec } from "../src/index.ts";
import { synthetic } from "./synthetic.ts";

export const PIECES = [
  "Hello",
  "▁world",
  "assistant",
  "user",
  "\n\n",
  "\n",
  "function",
  "get_weather",
  "```",
  "json",
];

export interface SyntheticFamily {
  /** Text model vocabulary size (marker IDs follow it). */
  readonly vocabSize: number;
  readonly spec: DecoderSpec;
  /** Marker key -> ID. */
  readonly id: Readonly<Record<string, number>>;
  enc(text: string): number[];
}

/** A grammar over the synthetic model; every key gets a reserved ID above the vocabulary. */
export function syntheticFamily(
  grammar: Grammar,
  keys: readonly string[],
  eosKeys: readonly string[],
): SyntheticFamily {
  const s = synthetic(PIECES, false);
  const base = s.model.vocabSize;
  const id: Record<string, number> = {};
  const nameById = new Map<number, string>();
  keys.forEach((k, i) => {
    id[k] = base + i;
    nameById.set(base + i, `<${k}>`);
  });
  const spec = compileDecoderSpecFor({
    textModel: s.model,
    family: { grammar, name: "synthetic" },
    tokenIds: id,
    registry: { ids: new Set(nameById.keys()), nameById, eosIds: eosKeys.map((k) => id[k] as number) },
  });
  return { spec, id, vocabSize: base, enc: (t) => s.enc(t) };
}

/** Adjacent deltas of one type merged. */
export function mergedAll(events: readonly DecoderEvent[]): DecoderEvent[] {
  const out: DecoderEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (
      last !== undefined &&
      last.type === e.type &&
      (e.type === "text" ||
        e.type === "reasoning" ||
        e.type === "action_text" ||
        e.type === "tool_call_arguments")
    ) {
      out[out.length - 1] = { type: e.type, text: (last as { text: string }).text + e.text };
    } else out.push(e);
  }
  return out;
}

// ---- a pair-header grammar (the shape of Llama 3) ----
export const PAIR_KEYS = ["bot", "startHeader", "endHeader", "eot", "eom", "endOfText", "pythonTag"];
export const PAIR_GRAMMAR: Grammar = {
  markers: {
    startHeader: { move: "message-start" },
    endHeader: { move: "header-end" },
    eot: { move: "message-end" },
    eom: { move: "message-end" },
    endOfText: { move: "end-of-text" },
    pythonTag: { move: "block-open", block: "python_tag" },
  },
  header: { syntax: "pair", dropAfter: "\n\n" },
  blocks: [{ name: "python_tag", emits: "action", kind: "python_tag", body: "raw" }],
  plainTextToolCall: "json-call",
};

// ---- a role-marker grammar with a container (the shape of DeepSeek V3) ----
export const ROLE_KEYS = [
  "bos",
  "user",
  "assistant",
  "eos",
  "callsBegin",
  "callsEnd",
  "callBegin",
  "callEnd",
  "sep",
];
export function roleGrammar(body: "raw" | "json-call" | "fenced-json-call"): Grammar {
  return {
    markers: {
      user: { move: "role", role: "user" },
      assistant: { move: "role", role: "assistant" },
      eos: { move: "message-end" },
      callsBegin: { move: "block-open", block: "tool_calls" },
      callsEnd: { move: "block-close", block: "tool_calls" },
      callBegin: { move: "block-open", block: "tool_call" },
      callEnd: { move: "block-close", block: "tool_call" },
      sep: { move: "separator", block: "tool_call" },
    },
    header: { syntax: "none" },
    blocks: [
      { name: "tool_calls", emits: "container", children: ["tool_call"] },
      { name: "tool_call", emits: "action", body },
    ],
  };
}

// ---- a sectioned-call grammar (the shape of Kimi K2) ----
export const SECTION_KEYS = [
  "think",
  "endThink",
  "sectionBegin",
  "sectionEnd",
  "callBegin",
  "argBegin",
  "callEnd",
  "eot",
];
/** Reasoning, a tool section of calls `ID‹argBegin›{json}`; a call may open alone and ends reasoning. */
export const SECTION_GRAMMAR: Grammar = {
  markers: {
    think: { move: "block-open", block: "think" },
    endThink: { move: "block-close", block: "think" },
    sectionBegin: { move: "block-open", block: "tool_calls" },
    sectionEnd: { move: "block-close", block: "tool_calls" },
    callBegin: { move: "block-open", block: "tool_call" },
    argBegin: { move: "separator", block: "tool_call" },
    callEnd: { move: "block-close", block: "tool_call" },
    eot: { move: "message-end" },
  },
  header: { syntax: "none" },
  blocks: [
    { name: "think", emits: "reasoning" },
    { name: "tool_calls", emits: "container", children: ["tool_call"], endsReasoning: true },
    {
      name: "tool_call",
      emits: "action",
      body: "call-id-args",
      reopens: true,
      alsoTopLevel: true,
      endsReasoning: true,
    },
  ],
  startBlock: "think",
};
