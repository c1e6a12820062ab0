// gpt-oss's decoder grammar: the harmony header syntax (its fields started by the channel and
// constrain markers). <|return|> and <|call|> end a message too (they are also EOS IDs).
//   ‹start›ROLE[ to=R]‹channel›C[ TYPE]‹message›CONTENT‹end›   ‹return›/‹call› stop
import type { Grammar } from "../grammar.ts";
import type { GptOssKey } from "./tokens.ts";

export const grammar: Grammar<GptOssKey> = {
  markers: {
    endOfText: { move: "end-of-text" },
    start: { move: "message-start" },
    message: { move: "header-end" },
    channel: { move: "header-field", field: "channel" },
    constrain: { move: "header-field", field: "constrain" },
    end: { move: "message-end" },
    return: { move: "message-end" },
    call: { move: "message-end" },
  },
  header: { syntax: "harmony" },
  // A message whose header has a functions.NAME recipient: the decoder reports it as a
  // "tool_call" action whose content is the JSON arguments (other recipients, the built-in
  // tools, are not calls); the block names that kind for the OpenAI layer.
  blocks: [{ name: "tool_call", emits: "action", body: "json-call" }],
  // After the prompt's `<|start|>assistant`: ` to=functions.NAME<|channel|>commentary <|constrain|>json<|message|>`,
  // the header the renderer writes for a call.
  callOpening: {
    required: [{ text: " to=functions." }],
    named: [
      { text: " to=functions." },
      { name: "raw" },
      { marker: "channel" },
      { text: "commentary " },
      { marker: "constrain" },
      { text: "json" },
      { marker: "message" },
    ],
  },
};
