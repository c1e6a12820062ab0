// The burst and streaming properties on the peers' own parse cases (test-vectors/peer-parse/):
// for every case the template decoder passes (scoreCase, the peer's comparison), the same IDs
//   - pushed one at a time, in one pushMany, and in random bursts (fast-check, fixed seed) give
//     identical events;
//   - decoded with streamToolCalls give the same events plus tool_call_name / tool_call_arguments:
//     per call the name comes first (and is the call's name), and the argument deltas
//     concatenate to JSON equal to the call's final arguments.
// Loading a vocabulary with its template dominates the run, so the default run samples: the
// first template of each format of formats.json, each loaded once, and CASES_PER_TEMPLATE of its
// passing cases (a fixed, spread-out choice, cases with tool calls first). CHATWIRE_PEER_STREAM_ALL=1
// takes every template and every passing case.
import { existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  type DecoderSpec,
  eventCollector,
  type JsonValue,
} from "../../packages/stream-decoder/src/index.ts";
import {
  caseSpec,
  caseTools,
  formats,
  type Loaded,
  loadSafe,
  type PeerCase,
  peerFile,
  sameJson,
  scoreCase,
  templateDir,
} from "../peer-parse/score.ts";

const file = peerFile("llamacpp.json");
const fmt = formats();
const templatesPresent = Object.values(fmt.templates).every((e) =>
  existsSync(join(templateDir(e.template.dir), e.template.file)),
);
const ALL = process.env.CHATWIRE_PEER_STREAM_ALL === "1";
const CASES_PER_TEMPLATE = 3;
const RUNS = ALL ? 30 : 12;

function decode(
  spec: DecoderSpec,
  options: DecoderOptions,
  feed: (d: ReturnType<typeof createDecoder>) => void,
) {
  const c = eventCollector();
  const d = createDecoder(spec, c, options);
  feed(d);
  d.end();
  return c.events;
}

const oneByOne = (spec: DecoderSpec, ids: readonly number[], o: DecoderOptions): DecoderEvent[] =>
  decode(spec, o, (d) => {
    for (const id of ids) d.push(id);
  });

/** `ids` in bursts of the given sizes in order (the last size repeats; none: one burst). */
const inBursts = (spec: DecoderSpec, ids: readonly number[], o: DecoderOptions, sizes: readonly number[]) =>
  decode(spec, o, (d) => {
    let i = 0;
    let k = 0;
    while (i < ids.length) {
      const n = sizes.length === 0 ? ids.length : (sizes[Math.min(k++, sizes.length - 1)] as number);
      d.pushMany(ids.slice(i, i + n));
      i += n;
    }
  });

const isToolStream = (e: DecoderEvent): boolean =>
  e.type === "tool_call_name" || e.type === "tool_call_arguments";

/** Why the streamed events break the streaming contract, or undefined. */
function streamingProblem(events: readonly DecoderEvent[]): string | undefined {
  let names: string[] = [];
  let args = "";
  let argsBeforeName = false;
  for (const e of events) {
    if (e.type === "tool_call_name") names.push(e.name);
    else if (e.type === "tool_call_arguments") {
      if (names.length === 0) argsBeforeName = true;
      args += e.text;
    } else if (e.type === "action_end") {
      const call = e.call;
      if (call !== undefined) {
        if (argsBeforeName) return `call ${call.name}: argument deltas before its name`;
        if (names.length !== 1 || names[0] !== call.name)
          return `call ${call.name}: streamed names ${JSON.stringify(names)}`;
        let value: unknown;
        try {
          value = JSON.parse(args) as unknown;
        } catch {
          return `call ${call.name}: argument deltas ${JSON.stringify(args.slice(0, 60))} are not JSON`;
        }
        if (!sameJson(value, call.arguments))
          return `call ${call.name}: argument deltas ${JSON.stringify(args.slice(0, 60))} differ from the arguments`;
      }
      names = [];
      args = "";
      argsBeforeName = false;
    }
  }
  return undefined;
}

/** A fixed, spread-out choice of `n` of `xs` (all of them when there are fewer). */
function spread<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)] as T);
}

const byTemplate = new Map<string, PeerCase[]>();
for (const c of file.cases) byTemplate.set(c.template, [...(byTemplate.get(c.template) ?? []), c]);
const sampled = new Set<string>();
if (!ALL)
  for (const [template] of byTemplate) {
    const format = fmt.templates[template]?.format;
    if (format !== undefined && ![...sampled].some((t) => fmt.templates[t]?.format === format))
      sampled.add(template);
  }

describe("the streaming check itself", () => {
  const end = (name: string, args: { readonly [k: string]: JsonValue }): DecoderEvent => ({
    type: "action_end",
    kind: "tool_call",
    raw: "",
    call: { name, arguments: args },
  });
  it("accepts the name then deltas that concatenate to the arguments", () => {
    expect(
      streamingProblem([
        { type: "tool_call_name", name: "f" },
        { type: "tool_call_arguments", text: '{"a": ' },
        { type: "tool_call_arguments", text: "[1, true]}" },
        end("f", { a: [1, true] }),
      ]),
    ).toBeUndefined();
  });
  it("rejects deltas before the name, a wrong or missing name, deltas that are not the arguments", () => {
    const args: DecoderEvent = { type: "tool_call_arguments", text: '{"a": 1}' };
    const name: DecoderEvent = { type: "tool_call_name", name: "f" };
    expect(streamingProblem([args, name, end("f", { a: 1 })])).toMatch(/before its name/);
    expect(streamingProblem([{ ...name, name: "g" }, args, end("f", { a: 1 })])).toMatch(/names/);
    expect(streamingProblem([args, end("f", { a: 1 })])).toMatch(/before its name/);
    expect(streamingProblem([name, args, end("f", { a: 2 })])).toMatch(/differ/);
    expect(streamingProblem([name, end("f", {})])).toMatch(/not JSON/);
  });
});

// Cases and calls checked over all templates (the last test asserts the run was not vacuous).
let casesChecked = 0;
let callsChecked = 0;

describe.runIf(templatesPresent)("peer cases: bursts and tool-call streaming (every passing case)", () => {
  for (const [template, cases] of byTemplate) {
    const entry = fmt.templates[template];
    if (entry === undefined || !(ALL || sampled.has(template))) continue;
    it(`${entry.format}: ${entry.template.file}`, () => {
      const loaded: Loaded = loadSafe(entry);
      const { spec: base, encode } = loaded;
      if (base === undefined || encode === undefined) return; // scored as a failure by peer-parse
      const passing = cases.filter((c) => scoreCase(c, loaded).kind === "pass");
      // The sample favours cases with tool calls (what streaming is about), one without.
      const withCalls = passing.filter((c) => c.expect.tool_calls.length > 0);
      const without = passing.filter((c) => c.expect.tool_calls.length === 0);
      const chosen = ALL
        ? passing
        : [
            ...spread(withCalls, CASES_PER_TEMPLATE - Math.min(1, without.length)),
            ...spread(without, Math.max(1, CASES_PER_TEMPLATE - withCalls.length)),
          ];
      for (const c of chosen) {
        const spec = caseSpec(c, loaded, base);
        const ids = encode(c.input);
        const tools = caseTools(c);
        const plain: DecoderOptions = tools.length > 0 ? { tools } : {};
        const streamed: DecoderOptions = { ...plain, streamToolCalls: true };
        const one = oneByOne(spec, ids, plain);
        expect(inBursts(spec, ids, plain, []), `${c.name}: one pushMany`).toEqual(one);
        const oneStreamed = oneByOne(spec, ids, streamed);
        expect(
          oneStreamed.filter((e) => !isToolStream(e)),
          `${c.name}: streaming adds events only`,
        ).toEqual(one);
        expect(streamingProblem(oneStreamed), c.name).toBeUndefined();
        casesChecked += 1;
        callsChecked += one.filter((e) => e.type === "action_end" && e.call !== undefined).length;
        fc.assert(
          fc.property(
            fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: Math.max(1, ids.length) }),
            fc.boolean(),
            (sizes, stream) => {
              const o = stream ? streamed : plain;
              expect(inBursts(spec, ids, o, sizes), `${c.name}: bursts ${sizes.join(",")}`).toEqual(
                stream ? oneStreamed : one,
              );
            },
          ),
          { numRuns: RUNS, seed: 37 },
        );
      }
    });
  }
  it("checked cases with tool calls", () => {
    console.log(`peer-stream: ${casesChecked} passing cases, ${callsChecked} tool calls checked`);
    expect(casesChecked).toBeGreaterThan(20);
    expect(callsChecked).toBeGreaterThan(10);
  });
});
