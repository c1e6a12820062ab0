// Qwen3's decoder grammar (data; the decoder compiles it with the verified registry).
//   ‹im_start›ROLE\n[‹think›\nREASONING\n‹/think›\n\n]CONTENT[\n‹tool_call›\nJSON\n‹/tool_call›]‹im_end›
// Newline rules of the template: reasoning is stripped of "\n" on both sides and "\n\n"
// follows </think>; ONE "\n" precedes <tool_call>.
import { blockMarkers } from "../block-markers.ts";
import { CHATML_FRAME } from "../chatml.ts";
import type { Grammar } from "../grammar.ts";
import type { Qwen3Key } from "./tokens.ts";

export const grammar: Grammar<Qwen3Key> = {
  markers: {
    ...CHATML_FRAME.markers,
    endOfText: { move: "end-of-text" },
    ...blockMarkers("toolCall", "toolCallEnd", "tool_call"),
    ...blockMarkers("think", "thinkEnd", "think"),
  },
  header: CHATML_FRAME.header,
  blocks: [
    {
      name: "think",
      emits: "reasoning",
      newlines: { afterOpen: "all", beforeClose: "all", afterClose: "all" },
    },
    { name: "tool_call", emits: "action", body: "json-call", newlines: { beforeOpen: "one" } },
  ],
  startBlock: "think",
  // `<tool_call>\n{"name": NAME, "arguments": {...}}`, as the template writes a call.
  callOpening: {
    required: [{ marker: "toolCall" }, { text: "\n" }],
    named: [{ marker: "toolCall" }, { text: '\n{"name": ' }, { name: "json" }, { text: ', "arguments":' }],
  },
};
