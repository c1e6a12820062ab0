// The --tokenizer / --format / --special-text options shared by every command. A tokenizer
// that cannot be loaded is a UsageError: main prints one line on stderr and exits 2.
import {
  type ChatTokenizer,
  FORMAT_NAMES,
  type FormatName,
  SPECIAL_TEXT_POLICIES,
  type SpecialTextPolicy,
  TokenizerError,
} from "@chatwire/tokenizer";
import { loadTokenizer } from "@chatwire/tokenizer/node";
import { getString, type OptionSpecs, type ParsedOptions, UsageError } from "./args.ts";

export const DEFAULT_TOKENIZER = "qwen3";

export const TOKENIZER_OPTIONS: OptionSpecs = {
  tokenizer: {
    kind: "string",
    description: `a Hugging Face tokenizer directory (tokenizer.model and/or tokenizer.json + tokenizer_config.json) or a built-in name (default "${DEFAULT_TOKENIZER}")`,
  },
  format: {
    kind: "string",
    choices: FORMAT_NAMES,
    description: "the chat format; detected from tokenizer_config.json when omitted",
  },
};

export const SPECIAL_TEXT_OPTION: OptionSpecs = {
  "special-text": {
    kind: "string",
    choices: SPECIAL_TEXT_POLICIES,
    description:
      "caller text that looks like a reserved token: neutralize (encode as text, default) or reject",
  },
};

export function specialTextOption(opts: ParsedOptions): SpecialTextPolicy {
  return getString(opts, "special-text") === "reject" ? "reject" : "neutralize";
}

/** Load the tokenizer the options name; any failure becomes a one-line UsageError. */
export async function loadTokenizerOption(opts: ParsedOptions): Promise<ChatTokenizer> {
  const name = getString(opts, "tokenizer") ?? DEFAULT_TOKENIZER;
  const format = getString(opts, "format") as FormatName | undefined;
  try {
    return await loadTokenizer(name, format === undefined ? {} : { format });
  } catch (err) {
    if (TokenizerError.isInstance(err))
      throw new UsageError(
        `cannot load tokenizer ${JSON.stringify(name)} (${err.type}): ${err.message.split("\n")[0]}`,
      );
    throw err;
  }
}
