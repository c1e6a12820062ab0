// The decoder handler of the decode benchmarks: a no-op consumer that adds the length of every
// event's text to the global sink (measure.ts), so no decode work is dead code and no event
// object is kept. Each worker makes its own (one per process), choosing what onStop does.
import type { DecoderHandler, StopInfo } from "@chatwire/stream-decoder";
import { SINK } from "./measure.ts";

const countReason = (stop: StopInfo): void => {
  SINK.v += stop.reason.length;
};

export function sinkHandler(onStop: (stop: StopInfo) => void = countReason): DecoderHandler {
  return {
    onMessageStart(role, metadata) {
      SINK.v += role.length + metadata.length;
    },
    onText(text) {
      SINK.v += text.length;
    },
    onReasoning(text) {
      SINK.v += text.length;
    },
    onActionStart(kind) {
      SINK.v += kind.length;
    },
    onActionText(text) {
      SINK.v += text.length;
    },
    onActionEnd(end) {
      SINK.v += end.raw.length;
    },
    onMessageEnd() {
      SINK.v++;
    },
    onStop,
    onError(error) {
      SINK.v += error.message.length;
    },
  };
}

/** The floor's callback: the piece string's length into the sink. */
export const sinkText = (s: string): void => {
  SINK.v += s.length;
};
