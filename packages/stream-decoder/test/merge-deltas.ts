import type { DecoderEvent } from "../src/index.ts";

export type DeltaType = "text" | "reasoning" | "action_text" | "tool_call_arguments";

/** Adjacent deltas of one of `types` merged (assertions must not depend on token boundaries). */
export function mergeDeltas(events: readonly DecoderEvent[], types: readonly DeltaType[]): DecoderEvent[] {
  const out: DecoderEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (last !== undefined && last.type === e.type && (types as readonly string[]).includes(e.type)) {
      out[out.length - 1] = {
        type: e.type as DeltaType,
        text: (last as { text: string }).text + (e as { text: string }).text,
      };
    } else out.push(e);
  }
  return out;
}
