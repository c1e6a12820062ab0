// What to do with caller text that contains a reserved token's string (docs/formats.md):
// "neutralize" encodes it as ordinary text (never altered); "reject" refuses the input with a
// typed error naming the token and its position.
import { quote, TokenizerError } from "../errors.ts";
import type { SpecialMatch, SpecialScanner } from "./scanner.ts";

export type SpecialTextPolicy = "neutralize" | "reject";
export const SPECIAL_TEXT_POLICIES: readonly SpecialTextPolicy[] = ["neutralize", "reject"];

export interface SpecialTextOptions {
  /** Default "neutralize". */
  readonly specialText?: SpecialTextPolicy;
}

export function checkPolicy(value: unknown): SpecialTextPolicy {
  if (value === undefined) return "neutralize";
  if (value === "neutralize" || value === "reject") return value;
  throw new TokenizerError(
    "invalid-argument",
    `specialText must be "neutralize" or "reject", got ${quote(String(value))}`,
    {
      field: "specialText",
    },
  );
}

/** The checked policy of `options`, or `fallback` (the tokenizer's default) when it names none. */
export function policyOf(options: SpecialTextOptions, fallback: SpecialTextPolicy): SpecialTextPolicy {
  return options.specialText === undefined ? fallback : checkPolicy(options.specialText);
}

/** Under "reject", throws the "special-token-in-text" error for the first reserved string of `text`. */
export function rejectReserved(scanner: SpecialScanner, text: string, policy: SpecialTextPolicy): void {
  if (policy !== "reject") return;
  const m = scanner.first(text);
  if (m !== undefined) throw specialTokenError(m);
}

/** The "special-token-in-text" error for the first match; `where` adds message/field for chats. */
export function specialTokenError(
  match: SpecialMatch,
  where: { readonly message?: number | null; readonly field?: string } = {},
): TokenizerError {
  const loc =
    where.field === undefined
      ? ""
      : where.message == null
        ? ` in ${where.field}`
        : ` in messages[${where.message}].${where.field}`;
  return new TokenizerError(
    "special-token-in-text",
    `text${loc} contains the reserved token ${quote(match.token)} at index ${match.index}`,
    {
      token: match.token,
      index: match.index,
      ...(where.message == null ? {} : { message: where.message }),
      ...(where.field === undefined ? {} : { field: where.field }),
    },
  );
}
