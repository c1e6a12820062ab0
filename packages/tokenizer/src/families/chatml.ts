// The ChatML turn frame shared by the ChatML families (Qwen3, Qwen3-Coder, InternLM2):
//   ‹im_start›ROLE\n … ‹im_end›\n
// written as the reserved marker, the role as "role" text and the newline as template text, so
// every family's spans and audit see the frame alike.
import type { ChatSink } from "../chat/sink.ts";
import type { Grammar } from "./grammar.ts";

/**
 * The frame in a decoder grammar: <|im_start|> starts a message whose header is the role line
 * ("line" syntax), <|im_end|> ends it. Each family adds its own markers and blocks.
 */
export const CHATML_FRAME = {
  markers: {
    imStart: { move: "message-start" },
    imEnd: { move: "message-end" },
  },
  header: { syntax: "line" },
} as const satisfies Pick<Grammar<"imStart" | "imEnd">, "markers" | "header">;

/** `<|im_start|>ROLE\n` for the message `owner` (null: text the template adds). */
export function imStartLine(b: ChatSink, imStart: number, owner: number | null, role: string): void {
  b.reserved(imStart, owner, "marker");
  b.text(role, owner, "role");
  b.text("\n", owner, "template");
}

/** `<|im_end|>\n` for the message `owner`. */
export function imEndLine(b: ChatSink, imEnd: number, owner: number | null): void {
  b.reserved(imEnd, owner, "marker");
  b.text("\n", owner, "template");
}
