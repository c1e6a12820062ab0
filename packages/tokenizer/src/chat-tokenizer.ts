// A loaded tokenizer bound to one model family: the text model (every literal path to a
// reserved ID closed), the verified reserved registry and token IDs, and the two safe encoders.
// The family's renderer (its definition's `render`) is the only family code that runs here.

import type { ChatEncoding } from "./chat/builder.ts";
import { BuilderSpare } from "./chat/builder-spare.ts";
import type { FormatName, ReservedRegistry } from "./chat/reserved.ts";
import { TextRenderer } from "./chat/sink.ts";
import { type DecodeOptions, decodeIds } from "./chat-decode.ts";
import { TokenizerError } from "./errors.ts";
import type { FamilyDefinition, TokenIds } from "./families/definition.ts";
import type { TokenizerConfig } from "./load/config.ts";
import type { TextModel } from "./models/text-model.ts";
import type { ChatRequest } from "./request/request.ts";
import { checkPolicy, policyOf, rejectReserved, type SpecialTextOptions } from "./special-text/policy.ts";
import { createSpecialScanner, type SpecialMatch, type SpecialScanner } from "./special-text/scanner.ts";

export interface TextEncoding {
  readonly ids: number[];
  /** Where the text looked like a reserved token (it was encoded as ordinary text). */
  readonly audit: SpecialMatch[];
}

export interface ChatTokenizer {
  /** The family name (family.name). */
  readonly format: FormatName;
  /** The family definition the tokenizer was loaded with (families/). */
  readonly family: FamilyDefinition;
  /** Verified token ID per token key of the family (resolved from the files at load). */
  readonly tokenIds: TokenIds<string>;
  readonly textModel: TextModel;
  readonly registry: ReservedRegistry;
  readonly config: TokenizerConfig;
  readonly scanner: SpecialScanner;
  /** One ordinary-encoder call, no BOS/EOS, never a reserved ID. */
  encodeText(text: string, options?: SpecialTextOptions): TextEncoding;
  /**
   * A chat request (docs/formats.md "The chat request"). Validated at run time too: anything
   * else is TokenizerError("invalid-conversation") naming the field.
   */
  encodeChat(request: ChatRequest, options?: SpecialTextOptions): ChatEncoding;
  /**
   * The same rendering as text with every reserved ID written as its token string (like
   * apply_chat_template(tokenize=False)), for debugging. Caller text that looks like a reserved
   * token reads the same here: only encodeChat's IDs tell them apart.
   */
  renderChat(request: ChatRequest, options?: SpecialTextOptions): string;
  /** IDs back to text; reserved IDs skipped (default) or shown by name (chat-decode.ts). */
  decode(ids: readonly number[], options?: DecodeOptions): string;
  /** The number of IDs encodeText(text) returns, without building the audit. */
  countTokens(text: string, options?: SpecialTextOptions): number;
}

export function createChatTokenizer(parts: {
  readonly family: FamilyDefinition;
  readonly tokenIds: TokenIds<string>;
  readonly textModel: TextModel;
  readonly registry: ReservedRegistry;
  readonly config: TokenizerConfig;
  readonly defaultSpecialText?: SpecialTextOptions["specialText"];
}): ChatTokenizer {
  const { family, tokenIds, textModel, registry, config } = parts;
  const scanner = createSpecialScanner(registry.strings);
  const defaultPolicy = checkPolicy(parts.defaultSpecialText);
  const builders = new BuilderSpare(textModel, scanner);
  return Object.freeze({
    format: family.name,
    family,
    tokenIds,
    textModel,
    registry,
    config,
    scanner,
    encodeText(text: string, options: SpecialTextOptions = {}): TextEncoding {
      const policy = policyOf(options, defaultPolicy);
      if (typeof text !== "string") throw new TypeError("encodeText: text must be a string");
      rejectReserved(scanner, text, policy);
      return { ids: textModel.encode(text), audit: policy === "reject" ? [] : scanner.scan(text) };
    },
    decode(ids: readonly number[], options?: DecodeOptions): string {
      return decodeIds(textModel, registry, ids, options);
    },
    countTokens(text: string, options: SpecialTextOptions = {}): number {
      const policy = policyOf(options, defaultPolicy);
      if (typeof text !== "string")
        throw new TokenizerError("invalid-argument", "countTokens: text must be a string");
      rejectReserved(scanner, text, policy);
      return textModel.encode(text).length;
    },
    encodeChat(request: ChatRequest, options: SpecialTextOptions = {}): ChatEncoding {
      const policy = policyOf(options, defaultPolicy);
      const b = builders.take(policy);
      try {
        family.render(request, b, tokenIds);
        return b.finish();
      } finally {
        builders.give(b);
      }
    },
    renderChat(request: ChatRequest, options: SpecialTextOptions = {}): string {
      const policy = policyOf(options, defaultPolicy);
      const r = new TextRenderer(registry.nameById, scanner, policy);
      family.render(request, r, tokenIds);
      return r.finish();
    },
  });
}
