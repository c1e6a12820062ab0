// Limits on what model output can make the decoder hold or nest (docs/decoder.md). Everything
// beyond them is reported (an `error` event or an `action_end` error), never thrown.

/**
 * Deepest nesting of brackets ([ { and, in Python, ( ) in a tool call's arguments: the JSON
 * scanner (streamToolCalls), the JSON call check and the ChatGLM3 Python-literal parser.
 * CPython's own tokenizer refuses more than 200 nested brackets ("too many nested
 * parentheses"), so a ChatGLM3 call deeper than this would fail in the vendor's eval() too;
 * it also keeps every parsed call far below the depth where a recursive JSON.stringify of
 * it (the caller's, or ours for ChatGLM3 argument streaming) overflows the stack (~4,000 in
 * Node 20).
 */
export const MAX_NESTING_DEPTH = 200;

/** Most stop strings in one set (compileStopStrings / DecoderOptions.stopStrings). */
export const MAX_STOP_STRINGS = 64;

/** Longest stop string, in UTF-16 code units. */
export const MAX_STOP_STRING_LENGTH = 1024;
