// encode-chat: {"messages": [...], "tools"?, "add_generation_prompt"?} in the format's native
// schema -> {"ids": [...], "audit": [...]}. Invalid conversations, and reserved-looking text
// under --special-text reject, are that line's error. An unknown top-level field is checked
// here, as in encode-text, so both commands report it as `invalid-input` (the library would say
// `invalid-conversation`); message fields stay the library's (`invalid-conversation`).
import type { FormatName } from "@chatwire/tokenizer";
import type { Command } from "../command.ts";
import {
  loadTokenizerOption,
  SPECIAL_TEXT_OPTION,
  specialTextOption,
  TOKENIZER_OPTIONS,
} from "../tokenizer-option.ts";
import { inputObject } from "./input.ts";

/** Top-level fields per format (docs/cli-contract.md "encode-chat"; test/encode.test.ts checks the library takes each). */
export const TOP_LEVEL_FIELDS: ReadonlyMap<FormatName, readonly string[]> = new Map<
  FormatName,
  readonly string[]
>([
  ["internlm2", ["messages", "add_generation_prompt"]],
  ["chatglm3", ["messages", "add_generation_prompt"]],
  ["qwen3", ["messages", "add_generation_prompt", "tools", "enable_thinking"]],
]);

export const command: Command = {
  name: "encode-chat",
  summary: "encode a conversation in the format's native schema; answers ids and audit",
  options: { ...TOKENIZER_OPTIONS, ...SPECIAL_TEXT_OPTION },
  jsonl: true,
  async prepare(opts) {
    const tokenizer = await loadTokenizerOption(opts);
    const specialText = specialTextOption(opts);
    const allowed = TOP_LEVEL_FIELDS.get(tokenizer.format) ?? ["messages", "add_generation_prompt"];
    return (input) => {
      inputObject(input, allowed);
      // A TokenizerError thrown here becomes this line's {"error": ...} (its toJSON is the contract shape).
      const { ids, audit } = tokenizer.encodeChat(input, { specialText });
      return {
        ids,
        audit: audit.map((a) => ({
          message: a.message,
          field: a.field,
          token: a.token,
          index: a.index,
          id: a.id,
        })),
      };
    };
  },
};
