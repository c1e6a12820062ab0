// What the tokenizer.json readers share (byte-level BPE and its pipeline components, the
// SentencePiece-converted flavour): the JSON value type, the typed-failure callback each reader
// passes down (a `bad-tokenizer-file` naming the field), and the checks of a component's "type"
// and of an added_tokens entry.
import { TokenizerError } from "../errors.ts";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Fail = (message: string, field?: string) => never;

/** The Fail of the file `file`: a `bad-tokenizer-file` naming it (and the field, when given). */
export function fileFail(file: string): Fail {
  return (message, field) => {
    throw new TokenizerError(
      "bad-tokenizer-file",
      `${file}: ${message}`,
      field === undefined ? { file } : { file, field },
    );
  };
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A component's "type" string. */
export function typeOf(v: Json, fail: Fail, field: string): string {
  if (!isObject(v) || typeof v.type !== "string") return fail(`${field} has no "type"`, field);
  return v.type;
}

/** The largest token ID + 1 a tokenizer.json may hold (its vocabulary's IDs are held to it too). */
export const TOKEN_ID_LIMIT = 2 ** 24;

/** The added_tokens entries, each checked to hold an integer id in [0, 2^24) and a string content. */
export function addedTokenEntries(
  a: Json,
  fail: Fail,
): Array<JsonObject & { readonly id: number; readonly content: string }> {
  if (!Array.isArray(a)) return fail("added_tokens is not an array", "added_tokens");
  return a.map((t, i) => {
    if (
      !isObject(t) ||
      typeof t.content !== "string" ||
      typeof t.id !== "number" ||
      !Number.isInteger(t.id) ||
      t.id < 0 ||
      t.id >= TOKEN_ID_LIMIT
    )
      return fail(
        `added_tokens[${i}] needs an integer id below ${TOKEN_ID_LIMIT} and a string content`,
        "added_tokens",
      );
    return t as JsonObject & { readonly id: number; readonly content: string };
  });
}
