// The decoder grammar of DeepSeek V3 / R1 (docs/families/deepseek.md), written once for the
// encoder's renderer (render.ts writes exactly these shapes) and the decoder:
//
//   <｜Assistant｜>TEXT<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\nARGS\n```<｜tool▁call▁end｜>
//   \n<｜tool▁call▁begin｜>…<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>
//
// No headers: <｜User｜> / <｜Assistant｜> switch the role; <｜tool▁outputs▁end｜> is followed by
// assistant text in the templates (no <｜Assistant｜> after tool results), so it also starts an
// assistant segment. <｜tool▁calls▁begin｜> … <｜tool▁calls▁end｜> is a container of
// <｜tool▁call▁begin｜> … <｜tool▁call▁end｜> action blocks, whose body syntax is
// "fenced-json-call" with <｜tool▁sep｜> as its separator. Tool results and BOS are never
// written by a model: misplaced. R1 (only with a vocabulary that has <think> / </think>, see
// docs): <think> … </think> is reasoning, "\n" after <think>, before </think> and "\n\n" after it
// as R1 writes them.
import { blockMarkers } from "../block-markers.ts";
import type { BlockGrammar, CallOpening, Grammar, MarkerMove, OpeningPart } from "../grammar.ts";
import type { DeepSeekKey, DeepSeekR1Key } from "./tokens.ts";

const TOOL_CALLS: BlockGrammar = { name: "tool_calls", emits: "container", children: ["tool_call"] };
const TOOL_CALL: BlockGrammar = {
  name: "tool_call",
  emits: "action",
  kind: "tool_call",
  body: "fenced-json-call",
  // The "\n" the templates write between two calls, inside the container.
  newlines: { beforeOpen: "one" },
};
const THINK: BlockGrammar = {
  name: "think",
  emits: "reasoning",
  newlines: { afterOpen: "one", beforeClose: "one", afterClose: "all" },
};

// `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{...}`, as the templates write a call.
const OPENING: readonly OpeningPart<DeepSeekKey>[] = [
  { marker: "toolCallsBegin" },
  { marker: "toolCallBegin" },
  { text: "function" },
  { marker: "toolSep" },
];
const CALL_OPENING: CallOpening<DeepSeekKey> = {
  required: OPENING,
  named: [...OPENING, { name: "raw" }, { text: "\n```json\n" }],
};

const MARKERS: Readonly<Record<DeepSeekKey, MarkerMove>> = {
  bos: { move: "misplaced" },
  eos: { move: "end-of-text" },
  user: { move: "role", role: "user" },
  assistant: { move: "role", role: "assistant" },
  ...blockMarkers("toolCallsBegin", "toolCallsEnd", "tool_calls"),
  ...blockMarkers("toolCallBegin", "toolCallEnd", "tool_call"),
  toolSep: { move: "separator", block: "tool_call" },
  toolOutputsBegin: { move: "misplaced" },
  toolOutputsEnd: { move: "role", role: "assistant" },
  toolOutputBegin: { move: "misplaced" },
  toolOutputEnd: { move: "misplaced" },
};

export const DEEPSEEK_V3_GRAMMAR: Grammar<DeepSeekKey> = {
  markers: MARKERS,
  header: { syntax: "none" },
  blocks: [TOOL_CALLS, TOOL_CALL],
  initialRole: "assistant",
  callOpening: CALL_OPENING,
};

export const DEEPSEEK_R1_GRAMMAR: Grammar<DeepSeekR1Key> = {
  markers: {
    ...MARKERS,
    ...blockMarkers("think", "thinkEnd", "think"),
  },
  header: { syntax: "none" },
  blocks: [THINK, TOOL_CALLS, TOOL_CALL],
  initialRole: "assistant",
  callOpening: CALL_OPENING,
};
