// encode-chat --format template (docs/templates.md): the model directory's own chat template
// (or --chat-template FILE) rendered with provenance; every added token reserved. A load
// failure is a UsageError, as for the other formats.
import { readFileSync } from "node:fs";
import {
  type ChatRequest,
  type ChatTokenizer,
  FAMILY_NAMES,
  NO_NATIVE_FAMILY,
  type TemplateTokenizer,
  TokenizerError,
} from "@chatwire/tokenizer";
import { loadTokenizer, loadTokenizerSync } from "@chatwire/tokenizer/node";
import { getFlag, getString, type OptionSpecs, type ParsedOptions, UsageError } from "./args.ts";
import { auditJson } from "./audit-json.ts";
import { loadErrorDetail, quoteInput } from "./quote.ts";
import { DEFAULT_TOKENIZER, loadTokenizerOption, TOKENIZER_OPTIONS } from "./tokenizer-option.ts";

/** --format for encode-chat and decode: a family, "template", or "auto" (a family, else the template). */
export const CHAT_FORMAT_OPTION: OptionSpecs = {
  format: {
    kind: "string",
    choices: [...FAMILY_NAMES, "template", "auto"],
    description: `${TOKENIZER_OPTIONS.format?.description ?? ""}; "template" renders the model's own chat template (docs/templates.md); "auto" is the detected family, else the template when the directory has one`,
  },
};

export type LoadedChatTokenizer =
  | { readonly kind: "native"; readonly tokenizer: ChatTokenizer }
  | { readonly kind: "template"; readonly tokenizer: TemplateTokenizer };

/**
 * The tokenizer --format names. "auto": the native family detected from tokenizer_config.json;
 * when no family matches (unknown-format) or the detected one does not fit the files
 * (tokenizer-config-mismatch), the directory's chat template. Other formats (or none) load as
 * before. --chat-template / --show-provenance with a format that renders no chat template (a
 * family, none, or auto that found one) is a usage error, not an option silently ignored.
 */
export async function loadChatTokenizerOption(
  opts: ParsedOptions,
  specialText: "neutralize" | "reject",
): Promise<LoadedChatTokenizer> {
  const format = getString(opts, "format");
  if (format === "template") return { kind: "template", tokenizer: loadTemplateOption(opts, specialText) };
  if (format !== "auto") {
    refuseTemplateOptions(
      opts,
      format === undefined
        ? "without --format the format is the family detected from the files"
        : `--format ${format} is a family's own format`,
    );
    return { kind: "native", tokenizer: await loadTokenizerOption(opts) };
  }
  const name = getString(opts, "tokenizer") ?? DEFAULT_TOKENIZER;
  let native: ChatTokenizer | undefined;
  try {
    native = await loadTokenizer(name);
  } catch (err) {
    if (TokenizerError.isInstance(err) && NO_NATIVE_FAMILY.has(err.type))
      return { kind: "template", tokenizer: loadTemplateOption(opts, specialText) };
  }
  if (native !== undefined) {
    refuseTemplateOptions(opts, `--format auto found the family ${native.format} in ${quoteInput(name)}`);
    return { kind: "native", tokenizer: native };
  }
  // Another load failure is reported as without --format.
  const rest = new Map(opts);
  rest.delete("format");
  return { kind: "native", tokenizer: await loadTokenizerOption(rest) };
}

export const CHAT_TEMPLATE_OPTION: OptionSpecs = {
  "chat-template": {
    kind: "string",
    description:
      "--format template (or auto on files without a family): a Jinja chat template file overriding the directory's; a usage error with any other format",
  },
};

export const TEMPLATE_OPTIONS: OptionSpecs = {
  ...CHAT_TEMPLATE_OPTION,
  "show-provenance": {
    kind: "flag",
    description:
      "--format template (or auto on files without a family): also output the rendering as runs of template / caller text; a usage error with any other format",
  },
};

/** The options only a chat template uses (each command's own among them). */
const TEMPLATE_ONLY = ["chat-template", "show-provenance"] as const;

/** Usage error when an option of TEMPLATE_ONLY is given where no chat template is rendered (`why`). */
function refuseTemplateOptions(opts: ParsedOptions, why: string): void {
  const given = TEMPLATE_ONLY.filter((name) => opts.has(name));
  if (given.length > 0)
    throw new UsageError(
      `${given.map((n) => `--${n}`).join(" and ")} ${given.length > 1 ? "apply" : "applies"} only to a chat template (--format template, or auto on files without a family); ${why}`,
    );
}

export type ChatEncoder = (input: ChatRequest) => Record<string, unknown>;

/** The template tokenizer of --tokenizer DIR [--chat-template FILE]; failures are UsageErrors. */
export function loadTemplateOption(
  opts: ParsedOptions,
  specialText: "neutralize" | "reject",
): TemplateTokenizer {
  const name = getString(opts, "tokenizer") ?? DEFAULT_TOKENIZER;
  const file = getString(opts, "chat-template");
  let chatTemplate: string | undefined;
  if (file !== undefined) {
    try {
      chatTemplate = readFileSync(file, "utf8");
    } catch {
      throw new UsageError(`cannot read --chat-template ${quoteInput(file)}`, "tokenizer-load-failed");
    }
  }
  try {
    return loadTokenizerSync(name, {
      format: "template",
      specialText,
      ...(chatTemplate === undefined ? {} : { chatTemplate }),
    });
  } catch (err) {
    if (!TokenizerError.isInstance(err)) throw err;
    throw new UsageError(
      `cannot load tokenizer ${quoteInput(name)} (${err.type}): ${loadErrorDetail(err.message, name)}`,
      "tokenizer-load-failed",
    );
  }
}

/** The encode-chat line handler for a template tokenizer (--format template, or auto's fallback). */
export function templateEncoder(
  opts: ParsedOptions,
  tok: TemplateTokenizer,
  specialText: "neutralize" | "reject",
  withText: boolean,
): ChatEncoder {
  const provenance = getFlag(opts, "show-provenance");
  return (request) => {
    const { ids, audit, structure } = tok.encodeChat(request, { specialText });
    return {
      ids,
      audit: auditJson(audit),
      structure,
      ...(withText ? { text: tok.renderChat(request) } : {}),
      ...(provenance ? { provenance: tok.renderProvenance(request) } : {}),
    };
  };
}
