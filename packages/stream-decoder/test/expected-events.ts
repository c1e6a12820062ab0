import type { ActionCall, DecoderEvent } from "../src/index.ts";

/** The events of one action read whole: its start, its text, its end with the parsed call. */
export function calledAction(kind: string, raw: string, call: ActionCall): DecoderEvent[] {
  return [
    { type: "action_start", kind },
    { type: "action_text", text: raw },
    { type: "action_end", kind, raw, call },
  ];
}

/** The events of one whole message with only text: its start, the text, its end. */
export function textMessage(role: string, text: string, metadata = ""): DecoderEvent[] {
  return [{ type: "message_start", role, metadata }, { type: "text", text }, { type: "message_end" }];
}

/** Text, then one action read whole, then the message's end and the stop at the EOS ID `token`. */
export function textCallThenEos(
  text: string,
  action: readonly [kind: string, raw: string, call: ActionCall],
  token: number,
): DecoderEvent[] {
  return [
    { type: "text", text },
    ...calledAction(...action),
    { type: "message_end" },
    { type: "stop", reason: "eos", token },
  ];
}
