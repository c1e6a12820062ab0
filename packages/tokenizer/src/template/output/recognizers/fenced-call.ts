// DeepSeek V3 / R1: <｜tool▁calls▁begin｜> <｜tool▁call▁begin｜>TYPE<｜tool▁sep｜>NAME\n```json\nARGS\n```
// <｜tool▁call▁end｜> <｜tool▁calls▁end｜>, when all five are reserved and the template spells the first.
import { blockMarkers } from "../../../families/block-markers.ts";
import type { Recognizer } from "../part.ts";

const CALLS_BEGIN = "<｜tool▁calls▁begin｜>";
const CALL_BEGIN = "<｜tool▁call▁begin｜>";
const SEP = "<｜tool▁sep｜>";
const CALL_END = "<｜tool▁call▁end｜>";
const CALLS_END = "<｜tool▁calls▁end｜>";

export const fencedCall: Recognizer = {
  name: "fenced-call",
  recognize(ctx) {
    for (const s of [CALLS_BEGIN, CALL_BEGIN, SEP, CALL_END, CALLS_END])
      if (ctx.id(s) === undefined) return null;
    if (!ctx.source.includes(CALLS_BEGIN)) return null;
    return {
      name: "fenced JSON calls",
      markers: {
        ...blockMarkers(CALLS_BEGIN, CALLS_END, "tool_calls"),
        ...blockMarkers(CALL_BEGIN, CALL_END, "fenced_call"),
        [SEP]: { move: "separator", block: "fenced_call" },
      },
      // A container of action blocks whose "fenced-json-call" body takes the separator.
      blocks: [
        { name: "tool_calls", emits: "container", children: ["fenced_call"] },
        { name: "fenced_call", emits: "action", kind: "tool_call", body: "fenced-json-call" },
      ],
      evidence: [
        "the five tool-call markers (calls begin / call begin / separator / call end / calls end) are reserved; the template spells the first",
      ],
    };
  },
};
