// The --tokenizer / --format / --special-text options shared by every command. A tokenizer
// that cannot be loaded is a UsageError: main prints one line on stderr and exits 2.
import {
  type ChatTokenizer,
  FAMILY_NAMES,
  SPECIAL_TEXT_POLICIES,
  type SpecialTextPolicy,
  TokenizerError,
} from "@chatwire/tokenizer";
import { BUILTIN_TOKENIZERS, loadTokenizer } from "@chatwire/tokenizer/node";
import { getString, type OptionSpecs, type ParsedOptions, UsageError } from "./args.ts";
import { loadErrorDetail, quoteInput } from "./quote.ts";

/** The embedded tokenizer (the first built-in name). */
export const DEFAULT_TOKENIZER: string = BUILTIN_TOKENIZERS[0] ?? "";

export const TOKENIZER_OPTIONS: OptionSpecs = {
  tokenizer: {
    kind: "string",
    description:
      "a Hugging Face tokenizer directory (tokenizer.model and/or tokenizer.json + tokenizer_config.json), a GGUF file (its tokenizer metadata) or a built-in name",
    default: DEFAULT_TOKENIZER,
  },
  format: {
    kind: "string",
    choices: ["auto", ...FAMILY_NAMES],
    description:
      "the model family; auto (the default, also when omitted) detects it from the files; a family the files do not fit is a format-mismatch usage error",
  },
};

export const SPECIAL_TEXT_OPTION: OptionSpecs = {
  "special-text": {
    kind: "string",
    choices: SPECIAL_TEXT_POLICIES,
    description: "caller text that looks like a reserved token: neutralize (encode as text) or reject",
    default: "neutralize",
  },
};

export function specialTextOption(opts: ParsedOptions): SpecialTextPolicy {
  return getString(opts, "special-text") === "reject" ? "reject" : "neutralize";
}

/**
 * Load the tokenizer the options name; any failure becomes a one-line UsageError. With an explicit
 * --format that the files do not fit, the message says which format the files are (found by
 * loading them without --format), so the caller is not left with a missing-file error.
 */
export async function loadTokenizerOption(opts: ParsedOptions): Promise<ChatTokenizer> {
  const name = getString(opts, "tokenizer") ?? DEFAULT_TOKENIZER;
  const given = getString(opts, "format");
  const format = given === "auto" ? undefined : given;
  let tokenizer: ChatTokenizer;
  try {
    tokenizer = await loadTokenizer(name, format === undefined ? {} : { format });
  } catch (err) {
    if (!TokenizerError.isInstance(err)) throw err;
    if (format !== undefined) await throwIfFormatMismatch(name, format, err);
    throw new UsageError(
      `cannot load tokenizer ${quoteInput(name)} (${err.type}): ${loadErrorDetail(err.message, name)}`,
      "tokenizer-load-failed",
    );
  }
  return tokenizer;
}

/**
 * After `--format family` failed to load `name` with `err`: the usage error `format-mismatch`
 * when the files load as another family (which it names), so the caller is not left with a
 * missing-file error. Returns when they do not load without --format either.
 */
export async function throwIfFormatMismatch(
  name: string,
  format: string,
  err: TokenizerError,
): Promise<void> {
  const detected = await loadTokenizer(name).then(
    (t) => t.format,
    () => undefined,
  );
  if (detected !== undefined && detected !== format)
    throw new UsageError(
      `--format ${format} does not match the tokenizer files of ${quoteInput(name)}, which are ${detected} (${err.type}: ${loadErrorDetail(err.message, name)})`,
      "format-mismatch",
    );
}
