// Hermes / Qwen2.5 / Qwen3 `<tool_call>`…`</tool_call>` (both reserved, spelled by the
// template) with a JSON `{"name", "arguments"}` body, or Qwen3-Coder's XML body
// (`<function=N>` `<parameter=K>`) when the template writes those.
import type { Recognizer } from "../part.ts";

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

export const toolCallTag: Recognizer = {
  name: "tool-call-tag",
  recognize(ctx) {
    if (ctx.id(OPEN) === undefined || ctx.id(CLOSE) === undefined) return null;
    if (!ctx.source.includes(OPEN) && !ctx.source.includes(CLOSE)) return null;
    const xml = ctx.source.includes("<function=") && ctx.source.includes("<parameter=");
    return {
      name: xml ? "tool_call XML parameters" : "tool_call JSON",
      markers: {
        [OPEN]: { move: "block-open", block: "tool_call" },
        [CLOSE]: { move: "block-close", block: "tool_call" },
      },
      blocks: [{ name: "tool_call", emits: "action", body: xml ? "xml-call" : "json-call" }],
      evidence: [
        `${OPEN} and ${CLOSE} are reserved and spelled by the template`,
        xml ? "the template writes <function=…> and <parameter=…>" : "the body is JSON {name, arguments}",
      ],
    };
  },
};
