// Shared by the body-syntax suites that drive a registered parser on text chunks as the decoder
// does: the parser from the registry, the call's result with the streamed name and argument
// deltas, and a text cut at fractions of its length.
import type { BodySyntax } from "@chatwire/tokenizer";
import fc from "fast-check";
import type { ActionResult } from "../src/action-parse.ts";
import type { BodyParser } from "../src/syntax/body.ts";
import { BODY_SYNTAXES } from "../src/syntax/index.ts";

/** A fresh parser of a registered body syntax. */
export function bodyParser(syntax: BodySyntax, max = 1_000_000): BodyParser {
  const make = BODY_SYNTAXES[syntax];
  if (make === undefined) throw new Error(`no ${syntax} parser`);
  return make({ maxBufferedChars: max, argumentsKey: "arguments" });
}

/** The body fed in `chunks` (reset with `kind` when given), with a sink when `streamed`. */
export function driveBody(
  p: BodyParser,
  chunks: readonly string[],
  streamed: boolean,
  kind?: string,
): { result: ActionResult; names: string[]; args: string } {
  const names: string[] = [];
  let args = "";
  const sink = streamed
    ? {
        onToolCallName: (n: string) => names.push(n),
        onToolCallArguments: (t: string) => {
          args += t;
        },
      }
    : null;
  if (kind === undefined) p.reset(sink, undefined);
  else p.reset(sink, undefined, kind);
  for (const c of chunks) p.feed(c);
  return { result: p.end(chunks.join("")), names, args };
}

/** `text` cut at the given fractions of its length. */
export function chunked(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((f) => Math.floor(f * text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of at)
    if (c > from && c < text.length) {
      out.push(text.slice(from, c));
      from = c;
    }
  out.push(text.slice(from));
  return out;
}

export const cutsArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 });
