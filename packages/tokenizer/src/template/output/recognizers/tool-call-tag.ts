// Hermes / Qwen2.5 / Qwen3 `<tool_call>`…`</tool_call>` (both reserved, spelled by the
// template) with a JSON `{"name", "arguments"}` body. Tried after ./xml-parameters.ts, which
// claims the templates that write an XML body inside the same tags (Qwen3-Coder, Qwen3.5).
import { blockMarkers } from "../../../families/block-markers.ts";
import type { Recognizer } from "../part.ts";

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

export const toolCallTag: Recognizer = {
  name: "tool-call-tag",
  recognize(ctx) {
    if (ctx.id(OPEN) === undefined || ctx.id(CLOSE) === undefined) return null;
    if (!ctx.source.includes(OPEN) && !ctx.source.includes(CLOSE)) return null;
    return {
      name: "tool_call JSON",
      markers: {
        ...blockMarkers(OPEN, CLOSE, "tool_call"),
      },
      blocks: [{ name: "tool_call", emits: "action", body: "json-call" }],
      evidence: [
        `${OPEN} and ${CLOSE} are reserved and spelled by the template`,
        "the body is JSON {name, arguments}",
      ],
    };
  },
};
