// DecoderOptions.streamToolCalls through the decoder, on the real tokenizers: tool calls encoded
// by @chatwire/tokenizer (encodeChat, or the text model for randomly rendered JSON), decoded
// with the option on. The expected events are built from the option-off events (themselves
// checked against the turn) and from positions taken from the reference text: after each
// action_text chunk comes exactly the name (if its closing quote was in the chunk) and the
// part of the arguments value inside the chunk, in text order; ChatGLM3: the name after
// action_start, JSON.stringify(arguments) before action_end.
import type { ChatTokenizer } from "@chatwire/tokenizer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haveFixtures } from "../../../test-support/fixtures.ts";
import { tokenIds } from "../../../test-support/token-ids.ts";
import type { Qwen3Key } from "../../tokenizer/src/families/qwen3/definition.ts";
import { pyJsonDumps } from "../../tokenizer/src/py/json.ts";
import {
  createDecoder,
  type DecoderEvent,
  type DecoderHandler,
  type DecoderOptions,
  eventCollector,
  type JsonValue,
} from "../src/index.ts";
import { ToolCallScanner } from "../src/tool-call-scanner.ts";
import { tokenizer } from "./models.ts";
import {
  type Case,
  decode,
  type Fmt,
  type GlmSegment,
  generationIds,
  glmCase,
  internCase,
  type JsonObject,
  jsonValue,
  merged,
  NESTED,
  prng,
  type QwenTurn,
  qwenCase,
  qwenRaw,
  specOf,
  THREE_CALLS,
  unicodeText,
} from "./roundtrip-support.ts";

const ON: DecoderOptions = { streamToolCalls: true };
const isTool = (e: DecoderEvent) => e.type === "tool_call_name" || e.type === "tool_call_arguments";

/** Where, in one action's reference text, the name and the arguments value are. */
interface CallSpan {
  readonly raw: string;
  readonly name?: string;
  /** Index of the name's closing quote. */
  readonly nameEnd: number;
  /** The arguments value is raw.slice(argsStart, argsEnd). */
  readonly argsStart: number;
  readonly argsEnd: number;
}

type ActionPlan = { readonly json: CallSpan } | { readonly glm: boolean } | null;

/** The events the option must give, from the option-off events and one plan per action. */
function withToolEvents(off: readonly DecoderEvent[], plans: readonly ActionPlan[]): DecoderEvent[] {
  const out: DecoderEvent[] = [];
  let k = 0;
  let plan: ActionPlan = null;
  let seen = 0;
  for (const e of off) {
    if (e.type === "action_end" && plan !== null && "glm" in plan && plan.glm && e.call !== undefined)
      out.push({ type: "tool_call_arguments", text: JSON.stringify(e.call.arguments) });
    out.push(e);
    if (e.type === "action_start") {
      plan = plans[k++] ?? null;
      seen = 0;
      if (plan !== null && "glm" in plan && plan.glm) out.push({ type: "tool_call_name", name: e.kind });
    } else if (e.type === "action_text" && plan !== null && "json" in plan) {
      const s = plan.json;
      const prev = seen;
      seen += e.text.length;
      const args = s.raw.slice(Math.max(prev, s.argsStart), Math.min(seen, s.argsEnd));
      const name: DecoderEvent[] =
        s.name !== undefined && s.nameEnd >= prev && s.nameEnd < seen
          ? [{ type: "tool_call_name", name: s.name }]
          : [];
      const a: DecoderEvent[] = args === "" ? [] : [{ type: "tool_call_arguments", text: args }];
      out.push(...(s.nameEnd < s.argsStart ? [...name, ...a] : [...a, ...name]));
    } else if (e.type === "action_end") plan = null;
  }
  return out;
}

/** The spans of a Qwen3 call as the chat_template writes it ({"name": "N", "arguments": ARGS}). */
function qwenSpan(c: QwenTurn["calls"][number]): CallSpan {
  const p1 = `\n{"name": "${c.name}`;
  const p2 = `${p1}", "arguments": `;
  const value = pyJsonDumps(c.arguments);
  const raw = `${p2}${value}}\n`;
  expect(raw).toBe(qwenRaw(c));
  return { raw, name: c.name, nameEnd: p1.length, argsStart: p2.length, argsEnd: p2.length + value.length };
}

/** InternLM2 plugin text: "\n" + json.dumps({"name": N, "parameters": P}). */
function internSpan(name: string, parameters: JsonObject): CallSpan {
  const p1 = `\n{"name": ${pyJsonDumps(name)}`;
  const p2 = `${p1}, "parameters": `;
  const value = pyJsonDumps(parameters);
  const raw = `${p2}${value}}`;
  expect(raw).toBe(`\n${pyJsonDumps({ name, parameters })}`);
  return { raw, name, nameEnd: p1.length - 1, argsStart: p2.length, argsEnd: p2.length + value.length };
}

/** Decodes the case with the option off and on (one at a time and chunked) and checks all. */
function checkCase(format: Fmt, c: Case, plans: readonly ActionPlan[], seed = 7): DecoderEvent[] {
  const ids = generationIds(tokenizer(format), c.context, c.turn);
  const spec = specOf(format);
  const off = decode(spec, ids);
  expect(merged(off)).toEqual(c.expected);
  expect(decode(spec, ids, { streamToolCalls: false })).toEqual(off);
  const on = decode(spec, ids, ON);
  expect(on.filter((e) => !isTool(e))).toEqual(off);
  expect(on).toEqual(withToolEvents(off, plans));
  expect(decode(spec, ids, ON, seed)).toEqual(on);
  for (const e of on) if (isTool(e) && e.type === "tool_call_arguments") expect(e.text).not.toBe("");
  return on;
}

function argsOf(events: readonly DecoderEvent[]): string[] {
  const out: string[] = [];
  let cur: string | undefined;
  for (const e of events) {
    if (e.type === "action_start") cur = "";
    else if (e.type === "tool_call_arguments") cur += e.text;
    else if (e.type === "action_end") out.push(cur ?? "");
  }
  return out;
}

describe("streamToolCalls: Qwen3 (real tokenizer)", () => {
  const q = (t: Partial<QwenTurn>) => {
    const turn: QwenTurn = { reasoning: "", content: "", calls: [], ...t };
    const on = checkCase(
      "qwen3",
      qwenCase(turn),
      turn.calls.map((c) => ({ json: qwenSpan(c) })),
    );
    // The deltas of each call concatenate to its JSON text and parse back to its arguments.
    const args = argsOf(on);
    expect(args).toEqual(turn.calls.map((c) => pyJsonDumps(c.arguments)));
    for (let i = 0; i < args.length; i++)
      expect(JSON.parse(args[i] as string)).toEqual(turn.calls[i]?.arguments);
    return on;
  };

  it("one call: name, then argument deltas, all between action_start and action_end", () => {
    const on = q({
      content: "Let me check.",
      calls: [{ name: "get_weather", arguments: { location: "Paris", unit: "celsius" } }],
    });
    const types = on.map((e) => e.type);
    const start = types.indexOf("action_start");
    const end = types.indexOf("action_end");
    const name = types.indexOf("tool_call_name");
    expect(
      start < name &&
        name < types.indexOf("tool_call_arguments") &&
        types.lastIndexOf("tool_call_arguments") < end,
    ).toBe(true);
    // Every tool event follows an action_text (the chunk it came from).
    for (let i = start + 1; i < end; i++)
      if (isTool(on[i] as DecoderEvent)) expect(on[i - 1]?.type).toMatch(/action_text|tool_call/);
  });

  it("several calls, nested and unicode arguments, empty arguments", () => {
    q({ reasoning: "thinking", content: "Three calls:", calls: THREE_CALLS });
  });

  it("a stop string inside the arguments: the stream ends where the visible action text ends", () => {
    const c = qwenCase({
      reasoning: "",
      content: "",
      calls: [{ name: "get_weather", arguments: { location: "Paris" } }],
    });
    const ids = generationIds(tokenizer("qwen3"), c.context, c.turn);
    const spec = specOf("qwen3");
    const span = qwenSpan({ name: "get_weather", arguments: { location: "Paris" } });
    const opts = { stopStrings: ["aris"] };
    const off = decode(spec, ids, opts);
    const on = decode(spec, ids, { ...opts, ...ON });
    expect(on.filter((e) => !isTool(e))).toEqual(off);
    expect(on).toEqual(withToolEvents(off, [{ json: span }]));
    const visible = on.reduce((s, e) => s + (e.type === "action_text" ? e.text : ""), "");
    expect(visible).toBe(span.raw.slice(0, span.raw.indexOf("aris")));
    expect(argsOf(on)).toEqual(['{"location": "P']);
    expect(on.at(-2)).toMatchObject({ type: "action_end", error: expect.stringMatching(/^invalid JSON/) });
    expect(on.at(-1)).toEqual({ type: "stop", reason: "stop_string", text: "aris" });
  });

  it("max_tokens inside the arguments: the deltas so far, never a guessed close", () => {
    const call = { name: "f", arguments: { a: [1, 2, 3], b: "xyz" } };
    const c = qwenCase({ reasoning: "", content: "", calls: [call] });
    const ids = generationIds(tokenizer("qwen3"), c.context, c.turn);
    const span = qwenSpan(call);
    for (let n = 1; n < ids.length; n++) {
      const off = decode(specOf("qwen3"), ids, { maxTokens: n });
      const on = decode(specOf("qwen3"), ids, { maxTokens: n, ...ON });
      expect(on).toEqual(withToolEvents(off, [{ json: span }]));
    }
  });

  it("off (default or false): exactly the events without the option, and the caller's handler is called directly", () => {
    const turn: QwenTurn = { reasoning: "r", content: "x", calls: [{ name: "f", arguments: { a: 1 } }] };
    const c = qwenCase(turn);
    const ids = generationIds(tokenizer("qwen3"), c.context, c.turn);
    const off = decode(specOf("qwen3"), ids);
    expect(merged(off)).toEqual(c.expected);
    expect(off.some(isTool)).toBe(false);
    const h = eventCollector();
    expect(Reflect.get(createDecoder(specOf("qwen3"), h), "h")).toBe(h);
    expect(Reflect.get(createDecoder(specOf("qwen3"), h, { streamToolCalls: false }), "h")).toBe(h);
    expect(Reflect.get(createDecoder(specOf("qwen3"), h), "sink")).toBe(null);
    // On: still no wrapper between decoder and handler; the body parsers get the handler as sink.
    const on = createDecoder(specOf("qwen3"), h, ON);
    expect(Reflect.get(on, "h")).toBe(h);
    expect(Reflect.get(on, "sink")).toBe(h);
  });

  it("a handler without the optional methods works with the option on", () => {
    const c = qwenCase({ reasoning: "", content: "", calls: [{ name: "f", arguments: { a: 1 } }] });
    const ids = generationIds(tokenizer("qwen3"), c.context, c.turn);
    const full = eventCollector();
    const { onToolCallName: _n, onToolCallArguments: _a, ...rest } = full;
    const plain: DecoderHandler = rest;
    const d = createDecoder(specOf("qwen3"), plain, ON);
    d.pushMany(ids);
    d.end();
    expect(merged(full.events)).toEqual(c.expected);
  });
});

describe.skipIf(!haveFixtures())("streamToolCalls: InternLM2 (real tokenizer)", () => {
  it("plugin call: name and parameters streamed; interpreter: nothing", () => {
    const parameters = { location: "Shanghai", nested: NESTED };
    const on = checkCase(
      "internlm2",
      internCase({ content: "Let me check.", action: { kind: "plugin", name: "get_weather", parameters } }),
      [{ json: internSpan("get_weather", parameters) }],
    );
    expect(JSON.parse(argsOf(on)[0] as string)).toEqual(parameters);
    const code = checkCase(
      "internlm2",
      internCase({ content: "", action: { kind: "interpreter", code: "print(1)" } }),
      [null],
    );
    expect(code.some(isTool)).toBe(false);
  });
});

describe.skipIf(!haveFixtures())("streamToolCalls: ChatGLM3 (real tokenizer)", () => {
  it("tool call: the name at action_start, one arguments delta (JSON.stringify) before action_end", () => {
    const segments: GlmSegment[] = [
      { kind: "text", content: "Checking." },
      {
        kind: "tool",
        name: "get_weather",
        arguments: { location: "北京", days: 3, opts: { x: [true, null] } },
      },
    ];
    const on = checkCase("chatglm3", glmCase(segments), [{ glm: true }]);
    expect(on.filter(isTool)).toEqual([
      { type: "tool_call_name", name: "get_weather" },
      { type: "tool_call_arguments", text: '{"location":"北京","days":3,"opts":{"x":[true,null]}}' },
    ]);
  });

  it("interpreter: nothing", () => {
    const on = checkCase("chatglm3", glmCase([{ kind: "interpreter", code: "print(1)" }]), [{ glm: false }]);
    expect(on.some(isTool)).toBe(false);
  });
});

// ---------------------------------------------------------------- property tests

const WS = ["", " ", "  ", "\n", "\t", "\r\n", "\n    "];
/** No combining marks / jamo (NFC would change the rendered text) and no lone surrogates. */
const safeText = unicodeText(10).filter((s) => !/\p{M}|[\u1100-\u11ff]|[\ud800-\udfff]/u.test(s));

/** JSON text of a string with random escapes (\uXXXX in either case, short forms). */
function renderString(s: string, rnd: () => number): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    const r = rnd();
    const u = (unit: number) => {
      const h = unit.toString(16).padStart(4, "0");
      return `\\u${rnd() < 0.5 ? h : h.toUpperCase()}`;
    };
    if (ch === '"' || ch === "\\" || cp < 0x20 || r < 0.15) {
      const short =
        ch === '"' ? '\\"' : ch === "\\" ? "\\\\" : ch === "\n" ? "\\n" : ch === "\t" ? "\\t" : "";
      if (short !== "" && rnd() < 0.5) out += short;
      else if (cp > 0xffff) out += u(ch.charCodeAt(0)) + u(ch.charCodeAt(1));
      else out += u(cp);
    } else if (ch === "/" && rnd() < 0.3) out += "\\/";
    else out += ch;
  }
  return `${out}"`;
}

function renderValue(v: JsonValue, rnd: () => number): string {
  const ws = () => WS[Math.floor(rnd() * WS.length)] as string;
  if (typeof v === "string") return renderString(v, rnd);
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => renderValue(x, rnd)).join(`${ws()},${ws()}`)}${ws()}]`;
  const parts = Object.entries(v).map(
    ([k, x]) => `${renderString(k, rnd)}${ws()}:${ws()}${renderValue(x, rnd)}`,
  );
  return `{${ws()}${parts.join(`${ws()},${ws()}`)}${ws()}}`;
}

interface Rendered {
  readonly span: CallSpan;
  readonly args: JsonObject;
}

/** A call with its keys in random order (maybe an extra key), random whitespace and escapes. */
function renderCall(
  name: string,
  args: JsonObject,
  extra: JsonValue | undefined,
  argsKey: string,
  seed: number,
): Rendered {
  const rnd = prng(seed);
  const ws = () => WS[Math.floor(rnd() * WS.length)] as string;
  const keys: Array<"name" | "args" | "extra"> = ["name", "args"];
  if (extra !== undefined) keys.push("extra");
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [keys[i], keys[j]] = [keys[j] as "name", keys[i] as "name"];
  }
  let raw = `\n{${ws()}`;
  let nameEnd = -1;
  let argsStart = -1;
  let argsEnd = -1;
  keys.forEach((k, i) => {
    if (i > 0) raw += `${ws()},${ws()}`;
    const key = k === "name" ? "name" : k === "args" ? argsKey : "id";
    raw += `${renderString(key, rnd)}${ws()}:${ws()}`;
    if (k === "name") {
      raw += renderString(name, rnd);
      nameEnd = raw.length - 1;
    } else if (k === "args") {
      argsStart = raw.length;
      raw += renderValue(args, rnd);
      argsEnd = raw.length;
    } else raw += renderValue(extra as JsonValue, rnd);
  });
  raw += `${ws()}}${ws()}`;
  return { span: { raw, name, nameEnd, argsStart, argsEnd }, args };
}

const callArb = fc.record({
  name: safeText.filter((s) => s !== ""),
  args: fc.dictionary(safeText, jsonValue(safeText), { maxKeys: 4, noNullPrototype: true }),
  extra: fc.option(jsonValue(safeText), { nil: undefined }),
  argsKey: fc.constantFrom("arguments", "parameters"),
  seed: fc.nat(),
});
const params = (seed: number) => ({ seed, numRuns: 150 });

describe("streamToolCalls: properties (seeded)", () => {
  it("scanner, random text chunkings: exact value text, parses to the arguments, name, no empty deltas", () => {
    fc.assert(
      fc.property(callArb, fc.array(fc.nat(), { maxLength: 12 }), (c, cuts) => {
        const { span, args } = renderCall(c.name, c.args, c.extra, c.argsKey, c.seed);
        const at = [...new Set(cuts.map((x) => x % (span.raw.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let from = 0;
        for (const x of [...at, span.raw.length]) {
          chunks.push(span.raw.slice(from, x));
          from = x;
        }
        const names: string[] = [];
        const deltas: string[] = [];
        const s = new ToolCallScanner({
          onToolCallName: (n) => names.push(n),
          onToolCallArguments: (t) => deltas.push(t),
        });
        for (const ch of chunks) {
          const before = deltas.length;
          s.feed(ch);
          expect(deltas.length - before).toBeLessThanOrEqual(1);
        }
        expect(names).toEqual([c.name]);
        for (const d of deltas) expect(d).not.toBe("");
        expect(deltas.join("")).toBe(span.raw.slice(span.argsStart, span.argsEnd));
        expect(JSON.parse(deltas.join(""))).toEqual(args);
      }),
      params(20260501),
    );
  });

  it("Qwen3 decoder: exact events (positions from the text), one-at-a-time === random pushMany, call parses", () => {
    const tok: ChatTokenizer = tokenizer("qwen3");
    const spec = specOf("qwen3");
    const Q = tokenIds<Qwen3Key>(() => tok);
    fc.assert(
      fc.property(callArb, fc.nat(), (c, chunkSeed) => {
        const { span, args } = renderCall(c.name, c.args, c.extra, c.argsKey, c.seed);
        const ids = [Q.toolCall, ...tok.textModel.encode(span.raw), Q.toolCallEnd, Q.imEnd];
        const off = decode(spec, ids);
        const on = decode(spec, ids, ON);
        expect(off.reduce((s, e) => s + (e.type === "action_text" ? e.text : ""), "")).toBe(span.raw);
        expect(on).toEqual(withToolEvents(off, [{ json: span }]));
        expect(decode(spec, ids, ON, chunkSeed)).toEqual(on);
        const joined = argsOf(on)[0] as string;
        expect(joined).toBe(span.raw.slice(span.argsStart, span.argsEnd));
        expect(JSON.parse(joined)).toEqual(args);
        expect(on.find((e) => e.type === "action_end")).toMatchObject({
          call: { name: c.name, arguments: args },
        });
        expect(on.filter((e) => e.type === "tool_call_name")).toEqual([
          { type: "tool_call_name", name: c.name },
        ]);
      }),
      params(7001),
    );
  });
});
