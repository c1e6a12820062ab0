// The Llama 3.x decoder grammar (both definitions; docs/families/llama3.md):
//   <|start_header_id|>ROLE<|end_header_id|>\n\nCONTENT<|eot_id|>
// - the role is the text between the header markers (header "pair"); the template writes
//   "\n\n" after <|end_header_id|>, dropped before the content;
// - <|eot_id|> ends the message (a stop by default), <|end_of_text|> is end of text;
// - Llama 3.1+ built-in tool calls: <|python_tag|>CALL<|eom_id|> (e.g.
//   `brave_search.call(query="...")`): the python_tag block has no close marker; the decoder
//   ends an open action at the message end (<|eom_id|>: "end of message, a tool result
//   follows", a stop; or <|eot_id|>); the body is kept as raw action text;
// - custom tool calls are plain JSON text after the header, {"name": N, "parameters": {...}},
//   marked by no token: plainTextToolCall, detected only when the decoder was given the
//   request's tools (structure read from model text, documented as such).
// <|begin_of_text|>, <|finetune_right_pad_id|> and every <|reserved_special_token_N|> are
// misplaced in a generation (not listed: every reserved ID not listed here is "misplaced").
import type { Grammar } from "../grammar.ts";
import type { Llama3Key } from "./tokens.ts";

export const LLAMA3_GRAMMAR: Grammar<Llama3Key> = {
  markers: {
    beginOfText: { move: "misplaced" },
    endOfText: { move: "end-of-text" },
    startHeader: { move: "message-start" },
    endHeader: { move: "header-end" },
    eot: { move: "message-end" },
    eom: { move: "message-end" },
    pythonTag: { move: "block-open", block: "python_tag" },
    finetuneRightPad: { move: "misplaced" },
  },
  header: { syntax: "pair", dropAfter: "\n\n" },
  blocks: [{ name: "python_tag", emits: "action", kind: "python", body: "raw" }],
  initialRole: "assistant",
  plainTextToolCall: "json-call",
  // `{"name": "NAME", "parameters": {...}}` as plain text, as the 3.1+ templates write a call.
  callOpening: {
    required: [{ text: '{"name":' }],
    named: [{ text: '{"name": "' }, { name: "raw" }, { text: '", "parameters":' }],
  },
};
