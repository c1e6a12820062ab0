import type { ActionCall, DecoderEvent } from "../src/index.ts";

/** The events of one action read whole: its start, its text, its end with the parsed call. */
export function calledAction(kind: string, raw: string, call: ActionCall): DecoderEvent[] {
  return [
    { type: "action_start", kind },
    { type: "action_text", text: raw },
    { type: "action_end", kind, raw, call },
  ];
}
