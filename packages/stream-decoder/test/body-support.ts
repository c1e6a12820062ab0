// Shared by the body-syntax suites: a registered parser, a body as pieces (text, or a separator
// marker) fed the way the decoder feeds a parser, text cut into chunks at given fractions of its
// length, and the two checks every syntax runs: a generated call read back from any chunking, and
// any chunking of any input giving what the whole input gives.
import type { BodySyntax, ResponseFieldBody } from "@chatwire/tokenizer";
import fc from "fast-check";
import { expect } from "vitest";
import type { ActionResult } from "../src/action-parse.ts";
import { jsonPlainness, PLAIN_YES } from "../src/fast-tables.ts";
import type { BodyParser, ToolSchemas } from "../src/syntax/body.ts";
import { BODY_SYNTAXES } from "../src/syntax/index.ts";
import type { ToolCallSink } from "../src/tool-call-scanner.ts";

/** A separator marker between two pieces of a body (DeepSeek's <｜tool▁sep｜>). */
export const SEP: unique symbol = Symbol("sep");
export type Piece = string | typeof SEP;

/**
 * A compiled response_template region (the "response-field" syntax) in transformers' Gemma 4
 * style: `call:NAME{lax JSON}`, strings quoted by <|"|>.
 */
export const LAX_CALL_REGION: ResponseFieldBody = {
  header: [{ lit: "call:" }, { word: "name" }],
  content: "json",
  unquotedKeys: true,
  stringDelims: [['<|"|>', '<|"|>']],
  allowNonJson: false,
  name: { capture: "name" },
  arguments: { content: [] },
};

/** A fresh parser of a registered body syntax. */
export function bodyParser(syntax: BodySyntax, max = 1_000_000): BodyParser {
  const make = BODY_SYNTAXES[syntax];
  if (make === undefined) throw new Error(`no ${syntax} parser`);
  return make({ maxBufferedChars: max, argumentsKey: "arguments" });
}

/**
 * Feeds the pieces as the decoder does (separator() at SEP, feed() per text), then end(raw).
 * `plain`: as the decoder's fast path feeds a parser with feedPlain: a JSON-plain piece goes to
 * feedPlain(), or, while the parser defersPlain, joins a run handed over as one feedPlain()
 * before the next other piece, separator or end.
 */
export function feedPieces(parser: BodyParser, pieces: readonly Piece[], plain = false): ActionResult {
  return parser.end(feedBody(parser, pieces, plain));
}

/** feedPieces without the end(): returns the raw text. */
export function feedBody(parser: BodyParser, pieces: readonly Piece[], plain = false): string {
  const feedPlain = plain ? parser.feedPlain?.bind(parser) : undefined;
  let raw = "";
  let run = "";
  const flush = (): void => {
    if (run !== "") (feedPlain as (t: string) => void)(run);
    run = "";
  };
  for (const p of pieces) {
    if (p === SEP) {
      flush();
      parser.separator();
      continue;
    }
    raw += p;
    // The decoder's own rule for a JSON-plain piece (its per-ID table is filled by jsonPlainness).
    if (feedPlain === undefined || jsonPlainness(p) !== PLAIN_YES) {
      flush();
      parser.feed(p);
    } else if (parser.defersPlain === true) run += p;
    else {
      flush();
      feedPlain(p);
    }
  }
  flush();
  return raw;
}

/** One body's result, with the name and the concatenated argument deltas it streamed. */
export interface BodyRun {
  readonly result: ActionResult;
  readonly names: string[];
  readonly args: string;
}

export interface DriveOptions {
  /** The action kind reset() is given. */
  readonly kind?: string | undefined;
  readonly tools?: ToolSchemas | undefined;
  /** A delta before the name fails the test. */
  readonly nameFirst?: boolean;
  /** Fed as the decoder's fast path feeds (feedPieces' `plain`). */
  readonly plain?: boolean;
}

/**
 * A new body (reset with a recording sink when `streamed`), its pieces fed (feedPieces). An
 * empty argument delta fails the test.
 */
export function drivePieces(
  p: BodyParser,
  pieces: readonly Piece[],
  streamed: boolean,
  o: DriveOptions = {},
): BodyRun {
  const sink = new Recorder(o.nameFirst === true);
  p.reset(streamed ? sink : null, o.tools, o.kind);
  const result = feedPieces(p, pieces, o.plain === true);
  return { result, ...sink.take() };
}

/** A sink that records the streamed names and deltas; an empty delta fails the test. */
class Recorder implements ToolCallSink {
  private names: string[] = [];
  private args = "";

  /** `nameFirst`: a delta before the name also fails the test. */
  constructor(private readonly nameFirst = false) {}

  onToolCallName(n: string): void {
    this.names.push(n);
  }

  onToolCallArguments(t: string): void {
    // Called once per delta (per character under unit chunking): expect() only on a failure.
    if (t === "") expect(t).not.toBe("");
    if (this.nameFirst && this.names.length !== 1) expect(this.names.length).toBe(1);
    this.args += t;
  }

  /** What was recorded since the last take(). */
  take(): { names: string[]; args: string } {
    const r = { names: this.names, args: this.args };
    this.names = [];
    this.args = "";
    return r;
  }
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

/** Each text piece cut at the given fractions of its length (cutAt); separators kept. */
export function cutPieces(pieces: readonly Piece[], cuts: readonly number[]): Piece[] {
  return pieces.flatMap((p): Piece[] => (p === SEP ? [p] : cutAt(p, cuts)));
}

/** One unit per chunk; separators kept. */
export function unitPieces(pieces: readonly Piece[]): Piece[] {
  return pieces.flatMap((p): Piece[] => (p === SEP ? [p] : [...p]));
}

export const cutsArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 });

/** A scalar argument a template writes: `text`, an integer, a finite double (not -0), a boolean or null. */
export function scalarArb(text: fc.Arbitrary<string>): fc.Arbitrary<string | number | boolean | null> {
  return fc.oneof(
    text,
    fc.integer({ min: -1e6, max: 1e6 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).filter((x) => !Object.is(x, -0)),
    fc.boolean(),
    fc.constant(null),
  );
}

/** A body fed whole and cut at `cuts`: the same run (returned). */
export function expectChunkInvariant(
  make: () => BodyParser,
  pieces: readonly Piece[],
  cuts: readonly number[],
  streamed: boolean,
  o?: DriveOptions,
): BodyRun {
  const whole = drivePieces(make(), pieces, streamed, o);
  const cut = cutPieces(pieces, cuts);
  expect(drivePieces(make(), cut, streamed, o)).toEqual(whole);
  expect(drivePieces(make(), cut, streamed, { ...o, plain: true })).toEqual(whole);
  return whole;
}

/**
 * A generated call read back: any chunking gives `call`; streamed, the name once and deltas
 * that parse to its arguments.
 */
export function expectCall(
  make: () => BodyParser,
  pieces: readonly Piece[],
  cuts: readonly number[],
  streamed: boolean,
  call: { readonly name: string; readonly arguments: unknown },
  o?: DriveOptions,
): void {
  const whole = expectChunkInvariant(make, pieces, cuts, streamed, o);
  expect(whole.result).toEqual({ call });
  if (streamed) {
    expect(whole.names).toEqual([call.name]);
    expect(JSON.parse(whole.args)).toEqual(call.arguments);
  }
}

/**
 * The chunk-invariance battery of one body on one parser: whole vs cut at `cuts` vs one unit at a
 * time, streamed and not, give the same result, name and deltas. With `callDeltas` and a call,
 * the deltas are its arguments' JSON and its name is reported once.
 */
export function expectSameRuns(
  p: BodyParser,
  pieces: readonly Piece[],
  cuts: readonly number[],
  o: DriveOptions = {},
  callDeltas = true,
): BodyRun {
  const whole = drivePieces(p, pieces, true, o);
  expect(drivePieces(p, pieces, false, o).result).toEqual(whole.result);
  for (const c of [cutPieces(pieces, cuts), unitPieces(pieces)]) {
    const r = drivePieces(p, c, true, o);
    expect(r.result).toEqual(whole.result);
    expect(r.names).toEqual(whole.names);
    expect(r.args).toBe(whole.args);
    expect(drivePieces(p, c, false, o).result).toEqual(whole.result);
    expect(drivePieces(p, c, true, { ...o, plain: true })).toEqual(r);
    expect(drivePieces(p, c, false, { ...o, plain: true }).result).toEqual(whole.result);
  }
  if (callDeltas && "call" in whole.result) {
    expect(JSON.parse(whole.args)).toEqual(whole.result.call.arguments);
    expect(whole.names).toEqual([whole.result.call.name]);
  }
  return whole;
}

/** Generated JSON-object arguments: short string keys, JSON values up to two deep. */
export const jsonArgsArb = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 4,
});

/**
 * A generated call whose arguments JSON.stringify wrote (compact or indented) is read back from
 * any chunking, streamed or not (expectCall). `write` makes the body from the name, the JSON
 * text and a `trail`; `byKind`: the name is the action kind reset() is given.
 */
export function expectJsonCallRoundTrip(
  make: () => BodyParser,
  name: fc.Arbitrary<string>,
  trail: fc.Arbitrary<string>,
  write: (name: string, json: string, trail: string) => string,
  byKind = false,
): void {
  fc.assert(
    fc.property(
      name,
      jsonArgsArb,
      fc.constantFrom(undefined, 1),
      trail,
      cutsArb,
      fc.boolean(),
      (n, a, indent, t, cuts, streamed) => {
        const body = write(n, JSON.stringify(a, null, indent), t);
        const call = { name: n, arguments: JSON.parse(JSON.stringify(a)) as unknown };
        expectCall(make, [body], cuts, streamed, call, byKind ? { kind: n } : {});
      },
    ),
    { numRuns: 300 },
  );
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
  const sink = new Recorder();
  const close = () => {
    const result = p.end(raw);
    actions.push({ raw, result, ...sink.take() });
    raw = "";
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

/** Cut points for the call-list suites (up to eight cuts). */
export const listCutsArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });

/** A call-list body fed whole and cut at `cuts`: the same actions, whose texts are the body (returned). */
export function expectSameCalls(
  make: () => BodyParser,
  text: string,
  cuts: readonly number[],
  streamed: boolean,
): CallAction[] {
  const whole = driveCalls(make(), [text], streamed);
  expect(driveCalls(make(), cutAt(text, cuts), streamed)).toEqual(whole);
  expect(whole.map((a) => a.raw).join("")).toBe(text);
  return whole;
}

/** An expected ActionResult (arguments as the generator typed them). */
export type ExpectedResult =
  | { readonly call: { readonly name: string; readonly arguments: unknown } }
  | { readonly error: string };

/**
 * A generated call list read back (expectSameCalls): one action per expected result; streamed,
 * each call's action streamed its name and deltas of its arguments.
 */
export function expectCalls(
  make: () => BodyParser,
  text: string,
  cuts: readonly number[],
  streamed: boolean,
  expected: readonly ExpectedResult[],
): void {
  const whole = expectSameCalls(make, text, cuts, streamed);
  expect(whole.map((a) => a.result)).toEqual(expected);
  if (streamed)
    whole.forEach((a, i) => {
      const r = expected[i];
      if (r === undefined || !("call" in r)) return;
      expect(a.names).toEqual([r.call.name]);
      expect(JSON.parse(a.args)).toEqual(r.call.arguments);
    });
}

/** Call-list garbage over `alphabet` never throws, is chunk-invariant and keeps every unit in some action. */
export function expectGarbageCalls(
  make: () => BodyParser,
  alphabet: string,
  maxLength: number,
  numRuns: number,
): void {
  const unit = fc.constantFrom(...alphabet.split(""));
  fc.assert(
    fc.property(fc.array(unit, { maxLength }), listCutsArb, fc.boolean(), (units, cuts, streamed) => {
      expectSameCalls(make, units.join(""), cuts, streamed);
    }),
    { numRuns },
  );
}

/** A list's last action's error, streamed and not, for each [body, error]. */
export function expectListErrors(
  make: () => BodyParser,
  cases: readonly (readonly [string, string])[],
): void {
  for (const streamed of [false, true])
    for (const [body, error] of cases)
      expect(driveCalls(make(), [body], streamed).at(-1)?.result, body).toEqual({ error });
}
