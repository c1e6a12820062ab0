// A block's two markers as grammar data: the one that opens it and the one that closes it, the
// way every family grammar and every recognizer writes a delimited block (<think>…</think>,
// <tool_call>…</tool_call>). Spread into a marker table: `{ ...blockMarkers(open, close, "think") }`.
import type { MarkerMove } from "./grammar.ts";

/** `{ [open]: block-open, [close]: block-close }` of the block named `block`. */
export function blockMarkers<K extends string>(open: K, close: K, block: string): Record<K, MarkerMove> {
  // Computed keys type as a string index; the two keys are exactly `open` and `close`.
  return {
    [open]: { move: "block-open", block },
    [close]: { move: "block-close", block },
  } as Record<K, MarkerMove>;
}
