// The tokenizer `chatwire serve` encodes with, and where it came from (docs/serve.md):
//   --tokenizer DIR|NAME|FILE.gguf     that one
//   none, --engine llama-cpp --model   the model GGUF's own tokenizer (vocabulary, template, stop IDs)
//   none otherwise                     the built-in default (DEFAULT_TOKENIZER)
// --format: a family, "template", or "auto" (= omitted): the native family detected from the
// files, else the model's own chat template. With --engine llama-cpp, a --tokenizer whose
// vocabulary differs from the GGUF's is a startup error naming the first differing token: the
// engine would read chatwire's IDs as other tokens and answer with garbage.
// A template-only model is served with every engine: its template is probed here (markers, end
// of turn, call grammar), so a template that cannot be probed is a startup error, not a 500.
import { servedTokenizer } from "@chatwire/server";
import {
  type AnyTokenizer,
  firstVocabularyDifference,
  ggufTokenizerFiles,
  readGgufMetadata,
  TokenizerError,
} from "@chatwire/tokenizer";
import { BUILTIN_TOKENIZERS, isGgufPath, loadAnyTokenizer, readGgufHead } from "@chatwire/tokenizer/node";
import { getString, type ParsedOptions, UsageError } from "./args.ts";
import { loadErrorDetail, quoteInput } from "./quote.ts";
import { DEFAULT_TOKENIZER, throwIfFormatMismatch } from "./tokenizer-option.ts";

export interface ServeTokenizer {
  /** A native family's, or one bound to the model's own chat template. */
  readonly tokenizer: AnyTokenizer;
  /** Where it came from, as /v1/models reports it: "gguf:PATH", "directory:PATH" or "builtin:NAME". */
  readonly source: string;
}

function sourceLabel(name: string): string {
  if (isGgufPath(name)) return `gguf:${name}`;
  return BUILTIN_TOKENIZERS.includes(name) ? `builtin:${name}` : `directory:${name}`;
}

async function ggufTokens(model: string): Promise<readonly string[]> {
  try {
    return ggufTokenizerFiles(readGgufMetadata(await readGgufHead(model), model), model).tokens;
  } catch (err) {
    if (!TokenizerError.isInstance(err)) throw err;
    throw new UsageError(
      `cannot read the tokenizer of --model ${quoteInput(model)} (${err.type}): ${loadErrorDetail(err.message, model)}`,
      "tokenizer-load-failed",
    );
  }
}

export async function loadServeTokenizer(
  opts: ParsedOptions,
  engine: string,
  model: string | undefined,
): Promise<ServeTokenizer> {
  const given = getString(opts, "tokenizer");
  const fromModel = given === undefined && engine === "llama-cpp" && model !== undefined;
  const name = given ?? (fromModel ? (model as string) : DEFAULT_TOKENIZER);
  const format = getString(opts, "format");
  let tokenizer: AnyTokenizer;
  try {
    tokenizer = await loadAnyTokenizer(name, format === undefined ? {} : { format });
  } catch (err) {
    if (!TokenizerError.isInstance(err)) throw err;
    // A family the files do not fit: format-mismatch, as for the JSONL commands.
    if (format !== undefined && format !== "auto" && format !== "template")
      await throwIfFormatMismatch(name, format, err);
    throw new UsageError(
      `cannot load tokenizer ${quoteInput(name)}${fromModel ? " (the --model GGUF's own)" : ""} (${err.type}): ${loadErrorDetail(err.message, name)}`,
      "tokenizer-load-failed",
    );
  }
  try {
    servedTokenizer(tokenizer);
  } catch (err) {
    if (!TokenizerError.isInstance(err)) throw err;
    throw new UsageError(
      `the chat template of tokenizer ${quoteInput(name)} cannot be probed for its markers (${err.type}): ${loadErrorDetail(err.message, name)}`,
      "tokenizer-load-failed",
    );
  }
  if (engine === "llama-cpp" && model !== undefined && !fromModel) {
    const diff = firstVocabularyDifference(await ggufTokens(model), tokenizer);
    if (diff !== undefined)
      throw new UsageError(
        `--tokenizer ${quoteInput(name)} does not match the vocabulary of --model ${quoteInput(model)}: token ${diff.id} is ${diff.tokenizer === undefined ? "absent" : JSON.stringify(diff.tokenizer)} in the tokenizer but ${diff.gguf === undefined ? "absent" : JSON.stringify(diff.gguf)} in the GGUF (omit --tokenizer to use the GGUF's own)`,
        "tokenizer-load-failed",
      );
  }
  return { tokenizer, source: sourceLabel(name) };
}
