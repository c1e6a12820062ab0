// A call the template writes as plain JSON text with no reserved token (Llama 3.1+:
// {"name": N, "parameters": {...}}): the generated part of a one-call turn is a JSON object
// naming the call. Read from text only when the request gives tools (Grammar.plainTextToolCall).
import type { Recognizer } from "../part.ts";

export const plainJson: Recognizer = {
  name: "plain-json",
  recognize(ctx) {
    const g = ctx.assistant({ calls: [{ name: "probe_tool", arguments: { k: "v" } }] });
    if (g === null || g.pieces.length !== 1) return null;
    const only = g.pieces[0];
    if (only === undefined || !("text" in only)) return null;
    try {
      const v: unknown = JSON.parse(only.text);
      if (typeof v !== "object" || v === null || (v as { name?: unknown }).name !== "probe_tool") return null;
    } catch {
      return null;
    }
    return {
      name: "plain JSON call",
      markers: {},
      blocks: [],
      plainTextToolCall: "json-call",
      evidence: ["a one-call turn renders as a JSON object naming the call, with no reserved token"],
    };
  },
};
