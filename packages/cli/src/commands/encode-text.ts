// encode-text: {"text": "..."} -> {"ids": [...], "audit": [...]}. One ordinary-encoder call, no
// BOS/EOS, never a reserved ID; the audit lists every place the text looked like a reserved
// token (as the library's encodeText: token, UTF-16 index, id). With --special-text reject,
// reserved-looking text is a "special-token-in-text" error.
import type { Command } from "../command.ts";
import { LineError } from "../command.ts";
import {
  loadTokenizerOption,
  SPECIAL_TEXT_OPTION,
  specialTextOption,
  TOKENIZER_OPTIONS,
} from "../tokenizer-option.ts";
import { inputObject } from "./input.ts";

export const command: Command = {
  name: "encode-text",
  summary: "encode plain text with the ordinary encoder (no reserved IDs); answers ids and audit",
  options: { ...TOKENIZER_OPTIONS, ...SPECIAL_TEXT_OPTION },
  jsonl: true,
  async prepare(opts) {
    const tokenizer = await loadTokenizerOption(opts);
    const specialText = specialTextOption(opts);
    return (input) => {
      const { text } = inputObject(input, ["text"]);
      if (typeof text !== "string")
        throw new LineError("invalid-input", '"text" must be a string', { field: "text" });
      const { ids, audit } = tokenizer.encodeText(text, { specialText });
      return { ids, audit: audit.map((a) => ({ token: a.token, index: a.index, id: a.id })) };
    };
  },
};
