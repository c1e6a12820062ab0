// Qwen3-Coder's decoder grammar: Qwen3's ChatML (../qwen3/grammar.ts) with the tool-call body
// read as "xml-call" (`<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>`,
// stream-decoder syntax/xml-call.ts), its newlines as the template writes them:
// `CONTENT\n\n<tool_call>\n<function=...>\n...</function>\n</tool_call>` (the content is
// stripped by the template: every "\n" before the marker is layout; the "\n"s inside the body
// stay in the action's raw text and xml-call reads past them).
import type { BlockGrammar, Grammar } from "../grammar.ts";
import { grammar as qwen3 } from "../qwen3/grammar.ts";
import type { Qwen3CoderKey } from "./definition.ts";

const think = qwen3.blocks?.find((b) => b.name === "think") as BlockGrammar;

export const grammar: Grammar<Qwen3CoderKey> = {
  markers: qwen3.markers,
  header: qwen3.header,
  blocks: [
    think,
    {
      name: "tool_call",
      emits: "action",
      kind: "tool_call",
      body: "xml-call",
      newlines: { beforeOpen: "all" },
    },
  ],
  // `<tool_call>\n<function=NAME>\n<parameter=...`, as the template writes a call.
  callOpening: {
    required: [{ marker: "toolCall" }, { text: "\n" }],
    named: [{ marker: "toolCall" }, { text: "\n<function=" }, { name: "raw" }, { text: ">\n" }],
  },
};
