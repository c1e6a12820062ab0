// Shared by the body-parser suites: a body as pieces (text, or a separator marker), fed the way
// the decoder feeds a parser, and text cut into chunks at given fractions of its length.
import type { ActionResult } from "../src/action-parse.ts";
import type { BodyParser } from "../src/syntax/body.ts";

/** A separator marker between two pieces of a body (DeepSeek's <｜tool▁sep｜>). */
export const SEP: unique symbol = Symbol("sep");
export type Piece = string | typeof SEP;

/** Feeds the pieces as the decoder does (separator() at SEP, feed() per text), then end(raw). */
export function feedPieces(parser: BodyParser, pieces: readonly Piece[]): ActionResult {
  let raw = "";
  for (const p of pieces) {
    if (p === SEP) parser.separator();
    else {
      parser.feed(p);
      raw += p;
    }
  }
  return parser.end(raw);
}

/** `text` cut at the given fractions of its length (each cut once, none at an end). */
export function cutAt(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((f) => Math.floor(f * text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of at) {
    if (c > from && c < text.length) {
      out.push(text.slice(from, c));
      from = c;
    }
  }
  out.push(text.slice(from));
  return out;
}
