// encode-chat: a chat request (docs/formats.md "The chat request": OpenAI / Hugging Face
// messages plus the format's native fields) -> {"ids": [...], "audit": [...]}, and with --text
// also {"text": "..."} (the prompt with reserved tokens written out, tok.renderChat). Invalid
// requests, and reserved-looking text under --special-text reject, are that line's error. An
// unknown top-level field is checked here, as in encode-text, so both commands report it as
// `invalid-input` (the library would say `invalid-conversation`); the list is the library's own
// (CHAT_REQUEST_FIELDS), so the CLI never refuses a field the library takes.
import { CHAT_REQUEST_FIELDS, type ChatRequest } from "@chatwire/tokenizer";
import { getFlag } from "../args.ts";
import { auditJson } from "../audit-json.ts";
import type { Command } from "../command.ts";
import {
  CHAT_FORMAT_OPTION,
  loadChatTokenizerOption,
  TEMPLATE_OPTIONS,
  templateEncoder,
} from "../template-option.ts";
import { SPECIAL_TEXT_OPTION, specialTextOption, TOKENIZER_OPTIONS } from "../tokenizer-option.ts";
import { inputObject } from "./input.ts";

export const command: Command = {
  name: "encode-chat",
  summary: "encode a chat request (OpenAI/HF messages or the format's native fields)",
  options: {
    ...TOKENIZER_OPTIONS,
    ...CHAT_FORMAT_OPTION,
    ...TEMPLATE_OPTIONS,
    ...SPECIAL_TEXT_OPTION,
    text: {
      kind: "flag",
      description:
        "also output the prompt as text with reserved tokens written out (like apply_chat_template(tokenize=False))",
    },
  },
  jsonl: true,
  async prepare(opts) {
    const specialText = specialTextOption(opts);
    const withText = getFlag(opts, "text");
    const loaded = await loadChatTokenizerOption(opts, specialText);
    if (loaded.kind === "template") {
      const encode = templateEncoder(opts, loaded.tokenizer, specialText, withText);
      return (input) => {
        inputObject(input, CHAT_REQUEST_FIELDS);
        return encode(input as ChatRequest);
      };
    }
    const tokenizer = loaded.tokenizer;
    return (input) => {
      inputObject(input, CHAT_REQUEST_FIELDS);
      // The request is untrusted JSON: encodeChat validates it at run time (typed errors).
      // A TokenizerError thrown here becomes this line's {"error": ...} (its toJSON is the contract shape).
      const request = input as ChatRequest;
      const { ids, audit } = tokenizer.encodeChat(request, { specialText });
      const out = {
        ids,
        audit: auditJson(audit),
      };
      return withText ? { ...out, text: tokenizer.renderChat(request, { specialText }) } : out;
    };
  },
};
