// One error class for the package: a kebab-case `type`, structured fields, and caller
// input quoted to at most 40 characters. `TokenizerError.isInstance` works across
// package copies (Symbol.for marker), as in vercel/ai.

const MARKER = Symbol.for("chatwire.tokenizer.error");

export type TokenizerErrorType =
  | "file-not-found"
  | "bad-tokenizer-file"
  | "bad-gguf-file"
  | "unsupported-vocabulary"
  | "tokenizer-config-mismatch"
  | "unknown-format"
  | "special-token-in-text"
  | "invalid-conversation"
  | "invalid-argument"
  | "fetch-failed"
  | "template-syntax-error"
  | "template-error"
  | "template-exception"
  | "template-limit";

export interface TokenizerErrorFields {
  readonly file?: string;
  readonly token?: string;
  readonly index?: number;
  readonly message?: number;
  readonly field?: string;
  readonly [key: string]: unknown;
}

export class TokenizerError extends Error {
  readonly [MARKER] = true;
  readonly type: TokenizerErrorType;
  readonly fields: TokenizerErrorFields;

  constructor(type: TokenizerErrorType, message: string, fields: TokenizerErrorFields = {}) {
    super(message);
    this.name = "TokenizerError";
    this.type = type;
    this.fields = fields;
  }

  static isInstance(value: unknown): value is TokenizerError {
    return typeof value === "object" && value !== null && MARKER in value;
  }

  /**
   * The JSON shape of the CLI contract: {type, message, ...fields}. The `message` field (a
   * message index) is written as `message_index` so it never hides the sentence.
   */
  toJSON(): Record<string, unknown> {
    const { message: index, ...rest } = this.fields;
    return {
      ...rest,
      ...(index === undefined ? {} : { message_index: index }),
      type: this.type,
      message: this.message,
    };
  }
}

/** Quote caller input for an error message: at most 40 characters, JSON-escaped. */
export function quote(input: string): string {
  const cut = input.length > 40 ? `${input.slice(0, 40)}…` : input;
  return JSON.stringify(cut);
}
