// gpt-oss's decoder grammar: the harmony header syntax selects its own decoder
// (stream-decoder harmony-decoder.ts), which reads these markers.
//   ‹start›ROLE[ to=R]‹channel›C[ TYPE]‹message›CONTENT‹end›   ‹return›/‹call› stop
import type { Grammar } from "../grammar.ts";
import type { GptOssKey } from "./definition.ts";

export const grammar: Grammar<GptOssKey> = {
  markers: {
    endOfText: { move: "end-of-text" },
    start: { move: "message-start" },
    message: { move: "header-end" },
    end: { move: "message-end" },
  },
  header: { syntax: "harmony" },
  // A message whose header has a functions.NAME recipient: the harmony decoder reports it as a
  // "tool_call" action with a JSON body (other recipients, the built-in tools, are not calls).
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
