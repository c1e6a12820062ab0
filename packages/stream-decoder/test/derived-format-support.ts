// Shared by the decoder-level tests of template-derived formats (syntax-*.test.ts): a peer-parse
// format loaded as the scorer loads it (test-vectors/peer-parse: its chat template from ../shared
// and its vocabulary, stand-in markers added), model output text encoded into IDs as a model
// would generate it, and the events of those IDs pushed one at a time, in bursts, and through
// the reference decoder, so a test can hold all three equal.

import { existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { expect } from "vitest";
import { formats, type Loaded, loadSafe, templateDir } from "../../../test-vectors/peer-parse/score.ts";
import {
  createDecoder,
  createReferenceDecoder,
  type DecoderEvent,
  type DecoderOptions,
} from "../src/index.ts";
import { jsonArgsArb } from "./body-support.ts";
import { eventsInBursts } from "./push-bursts.ts";

/** Whether the chat template of a formats.json entry is in ../shared. */
export function haveTemplate(key: string): boolean {
  const e = formats().templates[key];
  return e !== undefined && existsSync(join(templateDir(e.template.dir), e.template.file));
}

/**
 * The entries loaded last, most recent last. A worker runs many suites, each asking for its own
 * few entries; keeping every entry ever loaded would leave hundreds of megabytes that every later
 * garbage collection marks again, so the oldest is dropped (and loaded again if asked for).
 */
const loaded = new Map<string, Loaded>();
const KEEP = 4;

/** A formats.json entry, loaded, probed and compiled (kept for the next suites while recent). */
export function loadEntry(key: string): Required<Pick<Loaded, "spec" | "encode" | "probe" | "tok">> {
  let l = loaded.get(key);
  if (l === undefined) {
    const e = formats().templates[key];
    if (e === undefined) throw new Error(`no formats.json entry ${key}`);
    l = loadSafe(e);
    if (loaded.size >= KEEP) loaded.delete(loaded.keys().next().value as string);
  } else loaded.delete(key);
  loaded.set(key, l);
  const { spec, encode, probe, tok } = l;
  if (spec === undefined || encode === undefined || probe === undefined || tok === undefined)
    throw new Error(`${key}: ${l.error ?? "not loaded"}`);
  return { spec, encode, probe, tok };
}

export type Push = "one" | { readonly bursts: readonly number[] } | "reference";

/** The events of `ids` decoded by `spec`, pushed as `how` says. */
export function decodeIds(
  key: string,
  ids: readonly number[],
  how: Push,
  options: DecoderOptions = {},
): DecoderEvent[] {
  const { spec } = loadEntry(key);
  const make = how === "reference" ? createReferenceDecoder : createDecoder;
  return eventsInBursts(make, spec, ids, options, how === "one" || how === "reference" ? [] : how.bursts);
}

/** The calls, content and reasoning of decoded events, and the streamed name / argument text per call. */
export function message(events: readonly DecoderEvent[]): {
  content: string;
  reasoning: string;
  calls: { name: string; arguments: unknown }[];
  errors: string[];
  streamed: { name: string; args: string }[];
} {
  let content = "";
  let reasoning = "";
  const calls: { name: string; arguments: unknown }[] = [];
  const errors: string[] = [];
  const streamed: { name: string; args: string }[] = [];
  for (const e of events) {
    if (e.type === "text") content += e.text;
    else if (e.type === "reasoning") reasoning += e.text;
    else if (e.type === "action_end") {
      if (e.call !== undefined) calls.push({ name: e.call.name, arguments: e.call.arguments });
      else errors.push(e.error ?? "no call");
    } else if (e.type === "tool_call_name") streamed.push({ name: e.name, args: "" });
    else if (e.type === "tool_call_arguments") {
      const last = streamed.at(-1);
      if (last !== undefined) last.args += e.text;
    } else if (e.type === "error") errors.push(e.code);
  }
  return { content, reasoning, calls, errors, streamed };
}

/**
 * The message of `ids` pushed one at a time, after checking that the given bursts and the
 * reference decoder give the same events.
 */
export function agreedMessage(
  key: string,
  ids: readonly number[],
  bursts: readonly number[],
  options: DecoderOptions = {},
): ReturnType<typeof message> {
  const one = decodeIds(key, ids, "one", options);
  expect(decodeIds(key, ids, { bursts }, options)).toEqual(one);
  expect(decodeIds(key, ids, "reference", options)).toEqual(one);
  return message(one);
}

/** Burst sizes for agreedMessage: one to six bursts of 1 to 8 IDs. */
export const burstsArb = fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 });

/** A request's tools: "f" and every name called (an unknown name is an action error). */
export function toolsFor(names: readonly string[]): object[] {
  return [...new Set(["f", ...names])].map((name) => ({
    type: "function",
    function: { name, parameters: { type: "object" } },
  }));
}

/**
 * Model output of a formats.json entry decoded with streamed tool calls and the request's tools
 * naming `names` (toolsFor): its message, agreed in bursts and on the reference path, with no error.
 */
export function agreedCalls(
  key: string,
  output: string,
  names: readonly string[],
  bursts: readonly number[],
): ReturnType<typeof message> {
  const options = { streamToolCalls: true, tools: toolsFor(names) };
  const m = agreedMessage(key, loadEntry(key).encode(output), bursts, options);
  expect(m.errors).toEqual([]);
  return m;
}

/** The message's calls are `expected`, and each streamed its name and deltas of its arguments. */
export function expectStreamedCalls(
  m: ReturnType<typeof message>,
  expected: readonly { readonly name: string; readonly arguments: unknown }[],
): void {
  expect(m.calls).toEqual(expected);
  expect(m.streamed.map((s) => s.name)).toEqual(expected.map((c) => c.name));
  expect(m.streamed.map((s) => JSON.parse(s.args))).toEqual(expected.map((c) => c.arguments));
}

/** Calls as the JSON-argument tests generate them: a name and its arguments object. */
export type JsonCalls = readonly (readonly [string, { readonly [key: string]: unknown }])[];

/**
 * One to three calls (names from `name`, arguments from jsonArgsArb) after one of `contents`,
 * written by `render` as `key`'s model output: the message's content (through `contentOf`, for a
 * template that pads it) and its calls, streamed, agree one ID at a time, in bursts and on the
 * reference path. The expected arguments are the generated ones through JSON (what the text says).
 */
export function expectRenderedJsonCalls(
  key: string,
  name: fc.Arbitrary<string>,
  contents: readonly string[],
  render: (content: string, calls: JsonCalls) => string,
  contentOf: (content: string) => string = (c) => c,
): void {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(name, jsonArgsArb), { minLength: 1, maxLength: 3 }),
      fc.constantFrom(...contents),
      burstsArb,
      (calls, content, bursts) => {
        const names = calls.map(([n]) => n);
        const m = agreedCalls(key, render(content, calls), names, bursts);
        expect(contentOf(m.content)).toBe(content);
        expectStreamedCalls(
          m,
          calls.map(([n, a]) => ({ name: n, arguments: JSON.parse(JSON.stringify(a)) as unknown })),
        );
      },
    ),
    { numRuns: 40 },
  );
}
