// Synthetic grammars over the synthetic text model (./synthetic.ts): the shapes of the new
// families' grammars (a "pair" header; role markers with a container of calls) as engine
// fixtures that do not depend on the family definitions.
import type { Grammar } from "@chatwire/tokenizer";
import { compileDecoderSpecFor, type DecoderEvent, type DecoderSpec } from "../src/index.ts";
import { mergeDeltas } from "./merge-deltas.ts";
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
  pieces: readonly string[] = PIECES,
): SyntheticFamily {
  const s = synthetic(pieces, false);
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

/** The two markers of `block`: `open` opens it, `close` closes it. */
function blockMarkers(
  block: string,
  open: string,
  close: string,
): { readonly [marker: string]: { readonly move: "block-open" | "block-close"; readonly block: string } } {
  return { [open]: { move: "block-open", block }, [close]: { move: "block-close", block } };
}

/** Adjacent deltas of one type merged, tool-call argument deltas too. */
export function mergedAll(events: readonly DecoderEvent[]): DecoderEvent[] {
  return mergeDeltas(events, ["text", "reasoning", "action_text", "tool_call_arguments"]);
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
      ...blockMarkers("tool_calls", "callsBegin", "callsEnd"),
      ...blockMarkers("tool_call", "callBegin", "callEnd"),
      sep: { move: "separator", block: "tool_call" },
    },
    header: { syntax: "none" },
    blocks: [
      { name: "tool_calls", emits: "container", children: ["tool_call"] },
      { name: "tool_call", emits: "action", body },
    ],
  };
}

// ---- grammars with text markers (Grammar.textMarkers) ----

/**
 * Text pieces that cut the text markers below anywhere: whole, in halves, glued to the text
 * around them (`x<`, `all>{`), plus JSON and name pieces ("▁" is a space). "｜" (3 UTF-8
 * bytes) has no piece of its own: a marker with it is also spelled through byte pieces.
 */
export const MARKER_PIECES = [
  ...PIECES,
  "<",
  ">",
  "<th",
  "ink>",
  "<think>",
  "</think>",
  "</th",
  "Hmm",
  "<｜DSML｜call>",
  "</｜DSML｜call>",
  "x<",
  "all>",
  "all>{",
  "DSML",
  "call",
  "<calls>",
  "</calls>",
  "<call>",
  "</call>",
  "</ca",
  "ll>",
  "<ca",
  "|ARGS|",
  "|A",
  "RGS|",
  "|A|",
  ">>",
  ">>>",
  "get_time",
  '{"name":▁"get_weather",▁"arguments":▁{"city":▁"Paris"}}',
  '{"city":▁"Paris"}',
  '"',
  "{",
  "}",
  "{}",
];

export const TEXT_MARKER_KEYS = ["eos", "user", "assistant"];

/** A text-marker grammar on the synthetic vocabulary with its marker pieces (and `extra`), "eos" its EOS. */
export function textMarkerFamily(grammar: Grammar, extra: readonly string[] = []): SyntheticFamily {
  return syntheticFamily(grammar, TEXT_MARKER_KEYS, ["eos"], [...MARKER_PIECES, ...extra]);
}

/**
 * A reasoning block and a call block (json-call) opened and closed by text markers, with
 * newline rules around them (the shape of DeepSeek V3.2's DSML calls), and plain-text calls.
 */
export const TEXT_CALL_GRAMMAR: Grammar = {
  markers: { eos: { move: "message-end" } },
  header: { syntax: "none" },
  blocks: [
    {
      name: "think",
      emits: "reasoning",
      newlines: { afterOpen: "one", beforeClose: "all", afterClose: "all" },
    },
    {
      name: "call",
      emits: "action",
      kind: "tool_call",
      body: "json-call",
      newlines: { beforeOpen: "one" },
    },
  ],
  textMarkers: {
    ...blockMarkers("think", "<think>", "</think>"),
    ...blockMarkers("call", "<｜DSML｜call>", "</｜DSML｜call>"),
  },
  // With the request's tools, content that starts with "{" is a call: the text before a
  // marker can move the decoder (then the marker is read where it moved).
  plainTextToolCall: "json-call",
};

/**
 * A container whose children are text-marked (name-args bodies with a text separator), and a
 * block that reopens at its own text marker (no close marker), in a role-marker grammar.
 */
export const TEXT_CONTAINER_GRAMMAR: Grammar = {
  markers: {
    eos: { move: "message-end" },
    user: { move: "role", role: "user" },
    assistant: { move: "role", role: "assistant" },
  },
  header: { syntax: "none" },
  blocks: [
    { name: "calls", emits: "container", children: ["call"] },
    { name: "call", emits: "action", kind: "tool_call", body: "name-args" },
    { name: "step", emits: "action", kind: "tool_call", body: "name-args", reopens: true },
  ],
  textMarkers: {
    ...blockMarkers("calls", "<calls>", "</calls>"),
    ...blockMarkers("call", "<call>", "</call>"),
    "|ARGS|": { move: "separator", block: "call" },
    ">>>": { move: "block-open", block: "step" },
    "|A|": { move: "separator", block: "step" },
  },
};

/** Generations of the text-marker grammars, as text (encoded by the synthetic model's `enc`). */
export const TEXT_CALL_SAMPLES = [
  'Hello\n<｜DSML｜call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</｜DSML｜call>',
  '<think>\nHmm <｜DSML｜call> is text here\n\n</think>\n\nx<｜DSML｜call>{"name": "f", "arguments": {}}</｜DSML｜call> after',
  "a <｜DSML｜cal> b </think> <think",
  '{"name": "f", "arguments": {}}<｜DSML｜call>{}</｜DSML｜call>',
];
export const TEXT_CONTAINER_SAMPLES = [
  'Hello <calls><call>get_weather|ARGS|{"city": "Paris"}</call>\n<call>get_time|ARGS|{}</call></calls> done',
  '>>>get_weather|A|{"city": "Paris"}>>>get_time|A|{}',
  "<call>x</call> <calls>text</calls> |ARGS| <calls><call>f|ARGS|{}",
];

// ---- a block whose reserved open marker must be followed by fixed text (BlockGrammar.openText) ----

export const OPEN_TEXT_KEYS = ["eos", "channel", "channelEnd", "toolCall", "toolCallEnd"];

/** Reasoning as ‹channel›thought\n…‹channelEnd› (the shape of Gemma 4), a call block beside it. */
export const OPEN_TEXT_GRAMMAR: Grammar = {
  markers: {
    eos: { move: "message-end" },
    ...blockMarkers("thought", "channel", "channelEnd"),
    ...blockMarkers("call", "toolCall", "toolCallEnd"),
  },
  header: { syntax: "none" },
  blocks: [
    { name: "thought", emits: "reasoning", openText: "thought\n" },
    { name: "call", emits: "action", kind: "tool_call", body: "json-call" },
  ],
};

export const OPEN_TEXT_PIECES = [
  ...MARKER_PIECES,
  "thought",
  "thought\n",
  "tho",
  "ught",
  "ught\nLet",
  "Let",
  "▁me",
];

/** Generations of OPEN_TEXT_GRAMMAR as text and marker keys (`<channel>` etc. are the reserved IDs). */
export const OPEN_TEXT_SAMPLES: ReadonlyArray<readonly string[]> = [
  ["<channel>", "thought\nLet me see", "<channelEnd>", "Answer"],
  [
    "<channel>",
    "tho",
    "ught\nLet",
    " me",
    "<channelEnd>",
    "<toolCall>",
    '{"name": "f", "arguments": {}}',
    "<toolCallEnd>",
  ],
  ["<channel>", "other text", "<channelEnd>", "x"],
  ["a", "<channel>", "thou", "<toolCall>", "{}"],
];
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
    ...blockMarkers("think", "think", "endThink"),
    ...blockMarkers("tool_calls", "sectionBegin", "sectionEnd"),
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
