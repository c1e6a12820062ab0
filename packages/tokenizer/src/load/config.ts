// tokenizer_config.json: read and validate the fields chatwire uses. Everything else is kept
// in `raw` untouched (`response_template` is read but never fails the load). A malformed file is a "bad-tokenizer-file" error naming the file and field.
// Runtime-neutral: reading the file from disk is ../node (readTokenizerConfig).
import { TokenizerError } from "../errors.ts";
import {
  type ResponseTemplateRead,
  readResponseTemplate,
} from "../template/output/response-template/read.ts";

export interface AddedTokenDecl {
  readonly id: number;
  readonly content: string;
  readonly special: boolean;
}

export interface TokenizerConfig {
  /** The path it was read from (or a label), for messages. */
  readonly file: string;
  readonly tokenizerClass: string | undefined;
  /** added_tokens_decoder, sorted by ID. */
  readonly addedTokens: readonly AddedTokenDecl[];
  readonly bosToken: string | undefined;
  readonly eosToken: string | undefined;
  readonly chatTemplate: string | undefined;
  /**
   * `response_template` (HF transformers' declarative output description), or why it was
   * ignored: a malformed one never fails the load, the template-derived format is used instead
   * and the reason is shown as evidence (`chatwire decode --explain`).
   */
  readonly responseTemplate?: ResponseTemplateRead;
  readonly raw: Readonly<Record<string, unknown>>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A token field is a string, null, or an AddedToken object {content: string, ...}. */
function tokenString(raw: Record<string, unknown>, field: string, file: string): string | undefined {
  const v = raw[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (isRecord(v) && typeof v.content === "string") return v.content;
  throw new TokenizerError("bad-tokenizer-file", `${file}: "${field}" must be a string or {content}`, {
    file,
    field,
  });
}

function chatTemplate(raw: Record<string, unknown>, file: string): string | undefined {
  const v = raw.chat_template;
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (Array.isArray(v)) {
    // [{name, template}]: the "default" entry is what apply_chat_template uses.
    for (const entry of v) {
      if (isRecord(entry) && entry.name === "default" && typeof entry.template === "string")
        return entry.template;
    }
    return undefined;
  }
  throw new TokenizerError("bad-tokenizer-file", `${file}: "chat_template" must be a string or a list`, {
    file,
    field: "chat_template",
  });
}

/** The JSON object a model file holds; other JSON, or no JSON, is a bad-tokenizer-file error. */
function jsonObjectOf(text: string, file: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new TokenizerError("bad-tokenizer-file", `${file} is not valid JSON: ${why}`, { file });
  }
  if (!isRecord(raw))
    throw new TokenizerError("bad-tokenizer-file", `${file} must hold a JSON object`, { file });
  return raw;
}

export function parseTokenizerConfig(text: string, file: string): TokenizerConfig {
  const raw = jsonObjectOf(text, file);
  const addedTokens: AddedTokenDecl[] = [];
  const decl = raw.added_tokens_decoder;
  if (decl !== undefined) {
    if (!isRecord(decl)) {
      throw new TokenizerError("bad-tokenizer-file", `${file}: "added_tokens_decoder" must be an object`, {
        file,
        field: "added_tokens_decoder",
      });
    }
    for (const [key, value] of Object.entries(decl)) {
      const field = `added_tokens_decoder.${key}`;
      if (!/^(0|[1-9]\d{0,9})$/.test(key) || !isRecord(value) || typeof value.content !== "string") {
        throw new TokenizerError(
          "bad-tokenizer-file",
          `${file}: "${field}" must map an ID to {content: string}`,
          {
            file,
            field,
          },
        );
      }
      addedTokens.push({ id: Number(key), content: value.content, special: value.special === true });
    }
    addedTokens.sort((a, b) => a.id - b.id);
  }
  const cls = raw.tokenizer_class;
  if (cls !== undefined && cls !== null && typeof cls !== "string") {
    throw new TokenizerError("bad-tokenizer-file", `${file}: "tokenizer_class" must be a string`, {
      file,
      field: "tokenizer_class",
    });
  }
  return {
    file,
    tokenizerClass: typeof cls === "string" ? cls : undefined,
    addedTokens,
    bosToken: tokenString(raw, "bos_token", file),
    eosToken: tokenString(raw, "eos_token", file),
    chatTemplate: chatTemplate(raw, file),
    ...(raw.response_template !== undefined && raw.response_template !== null
      ? { responseTemplate: readResponseTemplate(raw.response_template) }
      : {}),
    raw,
  };
}

/**
 * `eos_token_id` of a generation_config.json or config.json (a number, a list of numbers, or
 * absent/null: []). Malformed: "bad-tokenizer-file" naming the file and field.
 */
export function parseEosTokenIds(text: string, file: string): number[] {
  const raw = jsonObjectOf(text, file);
  const v = raw.eos_token_id;
  const list: unknown[] = v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
  const ids: number[] = [];
  for (const x of list) {
    if (typeof x !== "number" || !Number.isSafeInteger(x) || x < 0)
      throw new TokenizerError(
        "bad-tokenizer-file",
        `${file}: "eos_token_id" must be an ID or a list of IDs`,
        {
          file,
          field: "eos_token_id",
        },
      );
    ids.push(x);
  }
  return ids;
}
