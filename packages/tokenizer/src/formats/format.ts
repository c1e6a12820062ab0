// What a chat format module provides: validation of the chat request (./normalize.ts plus the
// family's own rules) and its rendering into a sink (token IDs or text).
import type { FormatName } from "./reserved.ts";
import type { ChatSink } from "./sink.ts";

export interface ChatFormat {
  readonly name: FormatName;
  /** Validate `request` (TokenizerError "invalid-conversation") and push its segments into `b`. */
  render(request: unknown, b: ChatSink): void;
}
