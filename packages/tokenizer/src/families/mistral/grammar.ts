// The decoder grammar of Mistral's instruct formats (docs/families/mistral.md):
//
//   v2-v7:  TEXT[‹TOOL_CALLS›[{"name": N, "arguments": {...}[, "id": ID]}, ...]]‹/s›
//   v11+:   [‹THINK›REASONING‹/THINK›]TEXT[‹TOOL_CALLS›N[‹CALL_ID›ID]‹ARGS›{...}]...‹/s›
//
// No headers: a generation is assistant text from the start. v2-v7: ‹TOOL_CALLS› opens the
// calls, which run to the end of the message (there is no close marker); their body is a JSON
// list of json-call objects (body syntax "json-call-list"), one action per element. v11+: each
// call has its own ‹TOOL_CALLS›, so the next one ends the call before it ("reopens"); the body
// is "name-args", ‹CALL_ID› and ‹ARGS› its separators. ‹THINK›/‹/THINK› (v13 files that have
// them) delimit reasoning. ‹[/INST]›, tool results, tools and the rest are never written by a
// model: misplaced.
import { blockMarkers } from "../block-markers.ts";
import type { Grammar } from "../grammar.ts";
import type { MistralKey, MistralVersion } from "./tokens.ts";

const LIST_CALLS: Pick<Grammar<MistralKey>, "markers" | "blocks" | "callOpening"> = {
  markers: {
    eos: { move: "end-of-text" },
    toolCalls: { move: "block-open", block: "tool_calls" },
  },
  blocks: [{ name: "tool_calls", emits: "action", kind: "tool_call", body: "json-call-list" }],
  // The list as render.ts writes it (json.dumps spacing); the model writes the rest of it.
  callOpening: {
    required: [{ marker: "toolCalls" }],
    named: [{ marker: "toolCalls" }, { text: '[{"name": ' }, { name: "json" }, { text: ', "arguments":' }],
  },
};

const NAMED_CALLS: Pick<Grammar<MistralKey>, "markers" | "blocks" | "callOpening"> = {
  markers: {
    eos: { move: "end-of-text" },
    toolCalls: { move: "block-open", block: "tool_calls" },
    callId: { move: "separator", block: "tool_calls" },
    args: { move: "separator", block: "tool_calls" },
    ...blockMarkers("think", "thinkEnd", "think"),
  },
  blocks: [
    { name: "tool_calls", emits: "action", kind: "tool_call", body: "name-args", reopens: true },
    { name: "think", emits: "reasoning" },
  ],
  callOpening: {
    required: [{ marker: "toolCalls" }],
    named: [{ marker: "toolCalls" }, { name: "raw" }, { marker: "args" }],
  },
};

export function grammar(v: MistralVersion): Grammar<MistralKey> {
  const base = { header: { syntax: "none" }, initialRole: "assistant" } as const;
  if (v === 1) return { ...base, markers: { eos: { move: "end-of-text" } }, blocks: [] };
  return { ...base, ...(v >= 11 ? NAMED_CALLS : LIST_CALLS) };
}
