// Round trip helpers: an assistant turn goes through the real encoder (@chatwire/tokenizer,
// encodeChat), the generated part of it (what a model would have produced after the
// generation prompt) goes through the decoder, and the recovered events must equal the
// events the turn implies. Expected events are built here from the turn itself, never from
// the decoder's own output.
import type { ChatMessage, ChatTokenizer } from "@chatwire/tokenizer";
import fc from "fast-check";
import { mulberry32 } from "../../../test-support/mulberry32.ts";
// Internal helper of @chatwire/tokenizer (Python json.dumps), not part of its public API.
import { pyJsonDumps } from "../../tokenizer/src/py/json.ts";
import {
  compileDecoderSpecFor,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  eventCollector,
  type JsonValue,
} from "../src/index.ts";
import type { DecoderSpec } from "../src/spec.ts";
import { toolCall } from "./chat-messages.ts";
import { mergeDeltas } from "./merge-deltas.ts";
import { tokenizer } from "./models.ts";

export type Fmt = "qwen3" | "internlm2" | "chatglm3";
export type JsonObject = { [key: string]: JsonValue };

/** The encoded turn does not extend the generation prompt (a cross-boundary merge). */
export class PrefixMismatch extends Error {
  override readonly name = "PrefixMismatch";
}

/**
 * The generated part of `turn` (packages/cli/src/commands/demo.ts generationIds): encode
 * `context` with the generation prompt (P) and `context + turn` without it (F); F must start
 * with P; the generation is F after P through the first EOS-class ID of the registry.
 */
export function generationIds(
  tok: ChatTokenizer,
  context: readonly unknown[],
  turn: readonly unknown[],
): number[] {
  const prompt = tok.encodeChat({ messages: context as ChatMessage[], add_generation_prompt: true }).ids;
  const full = tok.encodeChat({
    messages: [...context, ...turn] as ChatMessage[],
    add_generation_prompt: false,
  }).ids;
  for (let i = 0; i < prompt.length; i++) {
    if (prompt[i] !== full[i]) throw new PrefixMismatch(`the turn changes prompt token ${i}`);
  }
  const gen = full.slice(prompt.length);
  const eos = new Set(tok.registry.eosIds);
  const end = gen.findIndex((id) => eos.has(id));
  if (end === -1) throw new Error("the encoded turn has no EOS-class ID");
  return gen.slice(0, end + 1);
}

const specs = new Map<Fmt, DecoderSpec>();
export function specOf(format: Fmt): DecoderSpec {
  let s = specs.get(format);
  if (s === undefined) {
    s = compileDecoderSpecFor(tokenizer(format));
    specs.set(format, s);
  }
  return s;
}

/** A small seeded PRNG for chunk boundaries. */
export const prng = mulberry32;

/** Events of one stream: `chunkSeed` undefined = push() one ID at a time, else pushMany() in random chunks. */
export function decode(
  spec: DecoderSpec,
  ids: readonly number[],
  options: DecoderOptions = {},
  chunkSeed?: number,
): DecoderEvent[] {
  const c = eventCollector();
  const d = createDecoder(spec, c, options);
  if (chunkSeed === undefined) for (const id of ids) d.push(id);
  else {
    const rnd = prng(chunkSeed);
    let i = 0;
    while (i < ids.length) {
      const n = 1 + Math.floor(rnd() * 7);
      d.pushMany(ids.slice(i, i + n));
      i += n;
    }
  }
  d.end();
  return c.events;
}

/** Adjacent text, reasoning and action-text deltas merged (assertions must not depend on token boundaries). */
export function merged(events: readonly DecoderEvent[]): DecoderEvent[] {
  return mergeDeltas(events, ["text", "reasoning", "action_text"]);
}

// ---------------------------------------------------------------- turns per format

/** Qwen3 assistant turn. */
export interface QwenTurn {
  readonly reasoning: string;
  readonly content: string;
  readonly calls: readonly { readonly name: string; readonly arguments: JsonObject }[];
}

/** InternLM2 assistant turn: text, then at most one action. */
export interface InternTurn {
  readonly content: string;
  readonly action?:
    | { readonly kind: "plugin"; readonly name: string; readonly parameters: JsonObject }
    | { readonly kind: "interpreter"; readonly code: string };
}

/** ChatGLM3 generation: one or more assistant segments. */
export type GlmSegment =
  | { readonly kind: "text"; readonly content: string }
  | {
      readonly kind: "tool";
      readonly name: string;
      readonly arguments: JsonObject;
      readonly quote?: "'" | '"';
    }
  | { readonly kind: "interpreter"; readonly code: string };

export interface Case {
  readonly context: unknown[];
  readonly turn: unknown[];
  readonly expected: DecoderEvent[];
}

const START = { type: "message_start", role: "assistant", metadata: "" } as const;
const fence = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

/** A Qwen3 tool call as the chat_template writes it (arguments: tojson = json.dumps). */
export function qwenRaw(c: QwenTurn["calls"][number]): string {
  return `\n{"name": "${c.name}", "arguments": ${pyJsonDumps(c.arguments)}}\n`;
}

export function qwenCase(t: QwenTurn, user = "Hi"): Case {
  const assistant: Record<string, unknown> = { role: "assistant", content: t.content };
  if (t.reasoning !== "") assistant.reasoning_content = t.reasoning;
  if (t.calls.length > 0) assistant.tool_calls = t.calls.map(toolCall);
  const expected: DecoderEvent[] = [START];
  if (t.reasoning !== "") expected.push({ type: "reasoning", text: t.reasoning });
  if (t.content !== "") expected.push({ type: "text", text: t.content });
  for (const c of t.calls) {
    const raw = qwenRaw(c);
    expected.push(
      { type: "action_start", kind: "tool_call" },
      { type: "action_text", text: raw },
      { type: "action_end", kind: "tool_call", raw, call: { name: c.name, arguments: c.arguments } },
    );
  }
  expected.push({ type: "message_end" }, { type: "stop", reason: "eos", token: 151645 });
  return { context: [{ role: "user", content: user }], turn: [assistant], expected };
}

export function internCase(t: InternTurn, user = "Hi"): Case {
  const assistant: Record<string, unknown> = { role: "assistant", content: t.content };
  const expected: DecoderEvent[] = [START];
  if (t.content !== "") expected.push({ type: "text", text: t.content });
  const a = t.action;
  if (a !== undefined) {
    // formats.md: ‹action_start› ‹plugin› "\n{json}" / ‹interpreter› "\n```python\nCODE\n```".
    const raw =
      a.kind === "plugin"
        ? `\n${pyJsonDumps({ name: a.name, parameters: a.parameters })}`
        : `\n${fence(a.code)}`;
    const call =
      a.kind === "plugin"
        ? { name: a.name, arguments: a.parameters }
        : { name: "interpreter", arguments: { code: a.code } };
    assistant.action = { kind: a.kind, text: raw };
    expected.push(
      { type: "action_start", kind: a.kind },
      { type: "action_text", text: raw },
      { type: "action_end", kind: a.kind, raw, call },
    );
  }
  expected.push({ type: "message_end" }, { type: "stop", reason: "eos", token: 92542 });
  return { context: [{ role: "user", content: user }], turn: [assistant], expected };
}

/** Python literal source of a JSON value (what a model writes inside tool_call(...)). */
export function pyLiteral(v: JsonValue, quote: "'" | '"' = '"'): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") {
    if (Number.isSafeInteger(v)) return String(v);
    // Not an exact int: a float literal (the parser refuses inexact ints).
    const s = String(v);
    return /[.eE]/.test(s) ? s : `${v.toExponential()}`;
  }
  if (typeof v === "string") return pyString(v, quote);
  if (Array.isArray(v)) return `[${v.map((x) => pyLiteral(x, quote)).join(", ")}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${pyString(k, quote)}: ${pyLiteral(x, quote)}`)
    .join(", ")}}`;
}

/** Python repr-style string: backslash, the quote and C0/DEL escaped, the rest kept as is. */
function pyString(s: string, quote: "'" | '"'): string {
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

export function glmToolContent(args: JsonObject, quote: "'" | '"' = '"'): string {
  const kw = Object.entries(args).map(([k, v]) => `${k}=${pyLiteral(v, quote)}`);
  return fence(`tool_call(${kw.join(", ")})`);
}

/**
 * The segments as consecutive assistant messages, closed by the message that follows a
 * ChatGLM3 generation: <|observation|> after a tool/code call, else <|user|> (both EOS).
 */
export function glmCase(segments: readonly GlmSegment[], user = "Hi"): Case {
  const turn: unknown[] = [];
  const expected: DecoderEvent[] = [];
  for (const s of segments) {
    if (s.kind === "text") {
      turn.push({ role: "assistant", content: s.content });
      expected.push(START);
      if (s.content !== "") expected.push({ type: "text", text: s.content });
    } else {
      const metadata = s.kind === "tool" ? s.name : "interpreter";
      const content = s.kind === "tool" ? glmToolContent(s.arguments, s.quote) : fence(s.code);
      const call =
        s.kind === "tool"
          ? { name: s.name, arguments: s.arguments }
          : { name: "interpreter", arguments: { code: s.code } };
      turn.push({ role: "assistant", metadata, content });
      expected.push(
        { type: "message_start", role: "assistant", metadata },
        { type: "action_start", kind: metadata },
        { type: "action_text", text: content },
        { type: "action_end", kind: metadata, raw: content, call },
      );
    }
    expected.push({ type: "message_end" });
  }
  const last = segments[segments.length - 1];
  const observe = last !== undefined && last.kind !== "text";
  turn.push(observe ? { role: "observation", content: "{}" } : { role: "user", content: "ok" });
  expected.push({ type: "stop", reason: "eos", token: observe ? 64797 : 64795 });
  return { context: [{ role: "user", content: user }], turn, expected };
}

/** Encodes the case and decodes it one ID at a time and in seeded random chunks. */
export function roundTrip(
  format: Fmt,
  c: Case,
  chunkSeed = 1,
  options: DecoderOptions = {},
): { ids: number[]; single: DecoderEvent[]; chunked: DecoderEvent[] } {
  const ids = generationIds(tokenizer(format), c.context, c.turn);
  const spec = specOf(format);
  return { ids, single: decode(spec, ids, options), chunked: decode(spec, ids, options, chunkSeed) };
}

// ---------------------------------------------------------------- arbitraries

/** Characters that stress the encoders: ASCII incl. whitespace, CJK, emoji, ZWJ, combining, rare. */
const charPool = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(..."abcXYZ019 .,:;!?'\"\\{}[]()<>|/_-=+*#@$%^&~`") },
  { weight: 2, arbitrary: fc.constantFrom(" ", "  ", "\n", "\n\n", "\t", "\r\n") },
  { weight: 3, arbitrary: fc.constantFrom(..."中文你好，世界。上海天气日本語한국어ÄöüßéñçØ") },
  {
    weight: 2,
    arbitrary: fc.constantFrom("😀", "🌦️", "👨‍👩‍👧‍👦", "🏳️‍🌈", "👍🏽", "🇨🇳", "\u200d", "\ufe0f", "❤️"),
  },
  // Combining marks (precomposable and not), Hangul jamo: NFC changes some of these.
  {
    weight: 1,
    arbitrary: fc.constantFrom("e\u0301", "\u0301", "a\u0308\u0323", "\u1100\u1161", "\u0915\u094d"),
  },
  // Rare code points: byte fallback in both SentencePiece models.
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "𠀀",
      "𪚥",
      "\u{10FFFD}",
      "\u{E0041}",
      "\u0378",
      "\uFFFF",
      "\u0007",
      "\u0000",
      "\u{1D11E}",
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 2 }) },
  // Text that looks like reserved markers: must stay text (neutralize policy).
  {
    weight: 1,
    arbitrary: fc.constantFrom("<|im_end|>", "<tool_call>", "</think>", "<|user|>", "[UNUSED_TOKEN_146]"),
  },
);

/** Argument values that are hard to carry: CJK keys, emoji, numbers JSON spells in exponents, escapes, brackets and markers inside a string, depth. */
export const NESTED = {
  城市: "上海",
  "emoji 👨‍👩‍👧": { list: [1, -2.5, 1e-7, 1e21, null, true, false, "😀", []], empty: {} },
  quote: 'a"b\\c}]\n\t\u0001 </tool_call> <|im_end|>',
  deep: { a: { b: { c: ["x", { d: "𠀀" }] } } },
} satisfies JsonObject;

/** Several calls in one turn: empty, NESTED and unicode-named, and empty values. */
export const THREE_CALLS: QwenTurn["calls"] = [
  { name: "a", arguments: {} },
  { name: "查询", arguments: NESTED },
  { name: "c.d-e_f", arguments: { n: 0, s: "" } },
];

export const unicodeText = (maxLength = 12): fc.Arbitrary<string> =>
  fc.array(charPool, { maxLength }).map((xs) => xs.join(""));

/** JSON-able argument values (no -0: JSON cannot write it; no lone surrogates). */
export const jsonValue = (str: fc.Arbitrary<string>): fc.Arbitrary<JsonValue> =>
  fc.letrec<{ v: JsonValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)),
      str,
      fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(str, tie("v"), { maxKeys: 3, noNullPrototype: true }),
    ),
  })).v;
