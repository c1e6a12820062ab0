// Shared checks for the chat request (docs/cli-contract.md "encode-chat"). Every failure is
// TokenizerError("invalid-conversation") naming the message index and field.
//
// Untrusted input rules kept here for every format:
// - fields are read as OWN properties only (`own`): a polluted Object.prototype cannot add a
//   field, a role or an action to a request;
// - an error echoes at most 40 characters of caller input in all, field names included: a
//   caller key inside a field name is cut to 20 characters (`fieldName`), because the field
//   appears twice (in the message and in `field`); a quoted value (`quote`) is cut to 40 and
//   its field is ours.
import { quote, TokenizerError } from "../errors.ts";

export type JsonObject = Readonly<Record<string, unknown>>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `obj[key]` when it is an own property, else undefined (never the prototype chain). */
export function own(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** The elements of an array, a hole read as undefined (never through the prototype chain). */
export function items(arr: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(arr.length);
  for (let i = 0; i < arr.length; i++) out[i] = Object.hasOwn(arr, i) ? arr[i] : undefined;
  return out;
}

/** `prefix.key` (or just key) with a caller key cut to 20 characters (see the header). */
export function fieldName(prefix: string | undefined, key: string): string {
  const k = key.length > 20 ? `${key.slice(0, 20)}…` : key;
  return prefix === undefined ? k : `${prefix}.${k}`;
}

export type At = { readonly message?: number; readonly field?: string };

export function invalid(message: string, at: At = {}): TokenizerError {
  const where =
    at.message === undefined
      ? ""
      : `messages[${at.message}]${at.field === undefined ? "" : `.${at.field}`}: `;
  const top = at.message === undefined && at.field !== undefined ? `${at.field}: ` : "";
  return new TokenizerError("invalid-conversation", `${where}${top}${message}`, at);
}

/** Unknown keys are an error, never ignored (the key is named in `field`, cut to 20 characters). */
export function checkKeys(
  obj: JsonObject,
  allowed: ReadonlySet<string>,
  at: { readonly message?: number; readonly prefix?: string },
): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key))
      throw invalid("unknown field", {
        ...(at.message === undefined ? {} : { message: at.message }),
        field: fieldName(at.prefix, key),
      });
  }
}

/** The roles a message may take: "function" is known only to be refused with its own message. */
function renderable(roles: ReadonlySet<string>): string[] {
  return [...roles].filter((r) => r !== "function");
}

export function checkRole(role: unknown, index: number, roles: ReadonlySet<string>): string {
  if (typeof role !== "string") throw invalid("must be a string", { message: index, field: "role" });
  if (!roles.has(role))
    throw invalid(`unknown role ${quote(role)}; expected one of ${renderable(roles).join(", ")}`, {
      message: index,
      field: "role",
    });
  return role;
}

/** A header value (name / metadata) is one line. */
export function checkOneLine(value: string, index: number, field: string): void {
  if (value.includes("\n")) throw invalid("must not contain a newline", { message: index, field });
}
