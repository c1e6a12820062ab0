// What a chat format module provides: validation of its native request schema and the
// rendering of a valid request into builder segments.
import type { ChatBuilder } from "./builder.ts";
import type { FormatName } from "./reserved.ts";

export interface ChatFormat {
  readonly name: FormatName;
  /** Validate `request` (TokenizerError "invalid-conversation") and push its segments into `b`. */
  render(request: unknown, b: ChatBuilder): void;
}
