// encode-chat --format template (docs/templates.md): the model directory's own chat template
// (or --chat-template FILE) rendered with provenance; every added token reserved. A load
// failure is a UsageError, as for the other formats.
import { readFileSync } from "node:fs";
import { type ChatRequest, TokenizerError } from "@chatwire/tokenizer";
import { loadTemplateTokenizerSync, qwen3Dir } from "@chatwire/tokenizer/node";
import { getFlag, getString, type OptionSpecs, type ParsedOptions, UsageError } from "./args.ts";
import { quoteInput } from "./quote.ts";
import { DEFAULT_TOKENIZER } from "./tokenizer-option.ts";

export const TEMPLATE_OPTIONS: OptionSpecs = {
  "chat-template": {
    kind: "string",
    description: "--format template: a Jinja chat template file overriding the directory's",
  },
  "show-provenance": {
    kind: "flag",
    description: "--format template: also output the rendering as runs of template / caller text",
  },
};

export type ChatEncoder = (input: ChatRequest) => Record<string, unknown>;

/** The encode-chat line handler for --format template. */
export function templateEncoder(
  opts: ParsedOptions,
  specialText: "neutralize" | "reject",
  withText: boolean,
): ChatEncoder {
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
  let tok: ReturnType<typeof loadTemplateTokenizerSync>;
  try {
    tok = loadTemplateTokenizerSync(name === "qwen3" ? qwen3Dir() : name, {
      specialText,
      ...(chatTemplate === undefined ? {} : { chatTemplate }),
    });
  } catch (err) {
    if (!TokenizerError.isInstance(err)) throw err;
    throw new UsageError(
      `cannot load tokenizer ${quoteInput(name)} (${err.type}): ${err.message.split("\n")[0] ?? ""}`,
      "tokenizer-load-failed",
    );
  }
  const provenance = getFlag(opts, "show-provenance");
  return (request) => {
    const { ids, audit, structure } = tok.encodeChat(request, { specialText });
    return {
      ids,
      audit: audit.map((a) => ({
        message: a.message,
        field: a.field,
        token: a.token,
        index: a.index,
        id: a.id,
      })),
      structure,
      ...(withText ? { text: tok.renderChat(request) } : {}),
      ...(provenance ? { provenance: tok.renderProvenance(request) } : {}),
    };
  };
}
