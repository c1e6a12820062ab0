// The contract of a tool-call body syntax (contract v0; BodySyntax in
// @chatwire/tokenizer families/grammar.ts names them). The decoder opens one parser per action
// block whose grammar names a body syntax, feeds it the action text chunk by chunk (and any
// separator marker), and asks for the call at the block's close. With streamToolCalls on, the
// parser reports the function name as soon as it is known and the arguments as JSON text
// deltas (concatenated they are the arguments JSON). Linear in the body, bounded memory
// (maxBufferedChars), never throws on model output: a malformed body is an error result.
import type { ActionResult } from "../action-parse.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";

/** JSON schemas of the request's tools by function name (typing of text-written values, Qwen3-Coder). */
export type ToolSchemas = ReadonlyMap<string, unknown>;

export interface BodyParser {
  /** A new body; `sink` is null when tool calls are not streamed (then only end() matters). */
  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined): void;
  /** The next chunk of the body's decoded text. */
  feed(text: string): void;
  /** A separator marker of the block (DeepSeek <｜tool▁sep｜>). */
  separator(): void;
  /** The body is complete: the parsed call, or why not. */
  end(): ActionResult;
}
