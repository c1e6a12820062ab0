// ChatGLM3's decoder grammar (data; the decoder compiles it with the verified registry).
//   ‹<|assistant|>›METADATA\nCONTENT   METADATA "" = text; a tool name = a Python tool_call(...)
//   (fenced) whose kind is the name; "interpreter" = code. <|user|>/<|observation|> end the turn.
import type { Grammar } from "../grammar.ts";
import type { ChatGLM3Key } from "./tokens.ts";

export const grammar: Grammar<ChatGLM3Key> = {
  markers: {
    eos: { move: "end-of-text" },
    user: { move: "role", role: "user" },
    assistant: { move: "role", role: "assistant" },
    observation: { move: "role", role: "observation" },
  },
  header: {
    syntax: "role-metadata-line",
    actionRole: "assistant",
    actionBlock: "tool",
    blockByMetadata: { interpreter: "interpreter" },
  },
  blocks: [
    { name: "tool", emits: "action", body: "python-call" },
    { name: "interpreter", emits: "action", kind: "interpreter", body: "raw" },
  ],
  // The metadata line after the prompt's <|assistant|> IS the call's opening: `NAME\n`. No
  // opening without the name ("required" needs exactly one tool); "interpreter" opens code.
  callOpening: { named: [{ name: "raw" }, { text: "\n" }], notNames: ["interpreter"] },
};
