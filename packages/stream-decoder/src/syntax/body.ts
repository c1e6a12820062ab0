// The contract of a tool-call body syntax (contract v0; BodySyntax in
// @chatwire/tokenizer families/grammar.ts names them). The decoder opens one parser per action
// block whose grammar names a body syntax, feeds it the action text chunk by chunk (and any
// separator marker), and asks for the call at the block's close. With streamToolCalls on, the
// parser reports the function name as soon as it is known and the arguments as JSON text
// deltas (concatenated they are the arguments JSON). Linear in the body, bounded memory
// (maxBufferedChars), never throws on model output: a malformed body is an error result.
import type { ResponseFieldBody } from "@chatwire/tokenizer";
import type { ActionResult } from "../action-parse.ts";
import type { ToolCallSink } from "../tool-call-scanner.ts";

/** JSON schemas of the request's tools by function name (typing of values the model writes as text: xml-call). */
export type ToolSchemas = ReadonlyMap<string, unknown>;

export interface BodyParser {
  /**
   * A new body; `sink` is null when tool calls are not streamed (then only end() matters).
   * `kind`: the action kind the block reported in action_start (a metadata-named tool's name).
   */
  reset(sink: ToolCallSink | null, tools: ToolSchemas | undefined, kind?: string): void;
  /** The next chunk of the body's decoded text. */
  feed(text: string): void;
  /**
   * Optional: feed() of a chunk the decoder knows to be JSON-plain (no quote, backslash or
   * unit below U+0020; a per-ID table says so), which a JSON reader inside a string takes
   * without a scan.
   * Absent: the decoder calls feed() for every chunk.
   */
  feedPlain?(text: string): void;
  /**
   * With feedPlain: true while the text fed so far ends inside a string whose JSON-plain chunks
   * need not arrive one by one (nothing is streamed from them); the decoder may then join a run
   * of such chunks and hand it over as ONE feedPlain() before the next other chunk, separator()
   * or end(). Read after every feed / feedPlain call.
   */
  readonly defersPlain?: boolean;
  /**
   * After reset(): false when feed() would ignore the text (the body is read from `raw` at
   * end()), so the decoder's fast path does not call it. Absent: true.
   */
  readsText?(): boolean;
  /** A separator marker of the block (e.g. <｜tool▁sep｜>). */
  separator(): void;
  /**
   * The body is complete: the parsed call, or why not. `raw` is the body text the decoder kept
   * (the fed chunks concatenated); a parser may use it instead of keeping its own copy. Not
   * called when the body exceeded maxBufferedChars (then the action_end is an error).
   */
  end(raw: string): ActionResult;
  /**
   * A body of several calls (json-call-list): the decoder feeds the body here instead of feed().
   * Returns the units of `text` read; fewer than text.length means the next call starts there:
   * the decoder ends the current action (end() gives its call), opens one of the same kind,
   * calls nextCall() and feeds the rest. Each call is its own action (docs/decoder.md).
   */
  feedCall?(text: string): number;
  /** After a feedCall() cut: the next call's action is open. */
  nextCall?(): void;
}

/** What the decoder gives a body syntax's factory (syntax/index.ts), once per decoder. */
export interface BodyParserOptions {
  /** The decoder's maxBufferedChars: the cap on any text a parser keeps. */
  readonly maxBufferedChars: number;
  /** json-call: the key read first for the arguments (both "arguments" and "parameters" are accepted). */
  readonly argumentsKey: "arguments" | "parameters";
  /** JSON call lists: the key of the tool name (default "name") and of the call id (default "id"). */
  readonly nameKey?: string;
  readonly idKey?: string;
  /** "response-field": the block's compiled response_template region (BlockGrammar.responseField). */
  readonly responseField?: ResponseFieldBody;
}

export type BodyParserFactory = (options: BodyParserOptions) => BodyParser;
