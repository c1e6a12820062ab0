// Shared by the body-parser suites: a body as pieces (text, or a separator marker), fed the way
// the decoder feeds a parser, and text cut into chunks at given fractions of its length.
import { expect } from "vitest";
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

/** One action of a call-list body as the decoder would report it. */
export interface CallAction {
  readonly raw: string;
  readonly result: ActionResult;
  readonly names: string[];
  readonly args: string;
}

/**
 * The decoder's loop over a call-list body (decoder.ts callListText): feedCall per chunk (feed()
 * for a parser without it); a short read ends the action and opens the next. Streamed: the
 * name and argument deltas each action reported (an empty delta fails the test).
 */
export function driveCalls(
  p: BodyParser,
  chunks: readonly string[],
  streamed: boolean,
  tools?: ReadonlyMap<string, unknown>,
): CallAction[] {
  const actions: CallAction[] = [];
  let raw = "";
  let names: string[] = [];
  let args = "";
  const sink = {
    onToolCallName: (n: string) => names.push(n),
    onToolCallArguments: (t: string) => {
      expect(t).not.toBe("");
      args += t;
    },
  };
  const close = () => {
    actions.push({ raw, result: p.end(raw), names, args });
    raw = "";
    names = [];
    args = "";
  };
  p.reset(streamed ? sink : null, tools, "tool_call");
  for (const chunk of chunks) {
    if (p.feedCall === undefined) {
      p.feed(chunk);
      raw += chunk;
      continue;
    }
    let rest = chunk;
    for (;;) {
      const n = p.feedCall(rest);
      raw += rest.slice(0, n);
      if (n >= rest.length) break;
      rest = rest.slice(n);
      close();
      p.nextCall?.();
    }
  }
  close();
  return actions;
}
