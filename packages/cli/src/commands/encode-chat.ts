// encode-chat: {"messages": [...], "tools"?, "add_generation_prompt"?} in the format's native
// schema -> {"ids": [...], "audit": [...]}. Invalid conversations, and reserved-looking text
// under --special-text reject, are that line's error.
import type { ChatRequest } from "@chatwire/tokenizer";
import type { Command } from "../command.ts";
import {
  loadTokenizerOption,
  SPECIAL_TEXT_OPTION,
  specialTextOption,
  TOKENIZER_OPTIONS,
} from "../tokenizer-option.ts";

export const command: Command = {
  name: "encode-chat",
  summary: "encode a conversation in the format's native schema",
  options: { ...TOKENIZER_OPTIONS, ...SPECIAL_TEXT_OPTION },
  jsonl: true,
  async prepare(opts) {
    const tokenizer = await loadTokenizerOption(opts);
    const specialText = specialTextOption(opts);
    return (input) => {
      // A TokenizerError thrown here becomes this line's {"error": ...} (its toJSON is the contract shape).
      // The request is untrusted JSON: encodeChat validates it at run time (typed errors).
      const { ids, audit } = tokenizer.encodeChat(input as ChatRequest, { specialText });
      return {
        ids,
        audit: audit.map((a) => ({ message: a.message, field: a.field, token: a.token, index: a.index })),
      };
    };
  },
};
