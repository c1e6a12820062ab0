// Qwen3-Coder's decoder grammar: Qwen3's ChatML (../qwen3/grammar.ts) with the tool-call body
// read as "xml-call" (`<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>`,
// stream-decoder syntax/xml-call.ts), its newlines as the template writes them:
// `CONTENT\n\n<tool_call>\n<function=...>\n...</function>\n</tool_call>` (the content is
// stripped by the template: every "\n" before the marker is layout; the "\n"s inside the body
// stay in the action's raw text and xml-call reads past them).
import type { Grammar } from "../grammar.ts";
import type { Qwen3CoderKey } from "./definition.ts";

export const grammar: Grammar<Qwen3CoderKey> = {
  markers: {
    imStart: { move: "message-start" },
    imEnd: { move: "message-end" },
    endOfText: { move: "end-of-text" },
    think: { move: "block-open", block: "think" },
    thinkEnd: { move: "block-close", block: "think" },
    toolCall: { move: "block-open", block: "tool_call" },
    toolCallEnd: { move: "block-close", block: "tool_call" },
  },
  header: { syntax: "line" },
  blocks: [
    {
      name: "think",
      emits: "reasoning",
      newlines: { afterOpen: "all", beforeClose: "all", afterClose: "all" },
    },
    {
      name: "tool_call",
      emits: "action",
      kind: "tool_call",
      body: "xml-call",
      newlines: { beforeOpen: "all" },
    },
  ],
};
