// Small helpers shared by the body syntaxes: the character class they skip between tokens, how a
// parsed value takes a key, and the messages every syntax gives for the same fault.
import type { JsonValue } from "../python-literal.ts";
import { jsonString } from "./json-text.ts";

/** JSON whitespace (space, \t, \n, \r). */
export function isJsonSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Sets a key without going through the prototype chain ("__proto__" is an ordinary key). */
export function setKey(obj: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** At most 40 units of model text in a message, in the JSON spelling of the streamed arguments. */
export function quote40(s: string): string {
  return jsonString(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** The error of a body longer than the decoder's maxBufferedChars. */
export function tooLongError(maxChars: number): string {
  return `the tool call body is longer than ${maxChars} characters`;
}
