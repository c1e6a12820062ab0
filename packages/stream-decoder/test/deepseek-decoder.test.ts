// DeepSeek V3 / R1 decoding: the generations of the goldens (model-output texts tokenized by HF's
// Rust tokenizers: test-vectors/golden/families/deepseek-*.json) through the decoder compiled from
// the loaded tokenizer's verified registry and family grammar (compileDecoderSpecFor(tok)), with hand-written expectations: roles, text, tool
// calls streamed (name, then argument deltas), several calls, the EOS stop, malformed bodies as
// action_end errors; R1 reasoning on the DERIVED vocabulary (<think>/</think> tokens) and as
// plain text on the package vocabulary (no such tokens). Every generation is also pushed one ID
// at a time and all at once: the same events.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DeepSeekFamily, encoder, golden } from "../../tokenizer/test/deepseek-support.ts";
import {
  compileDecoderSpecFor,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  eventCollector,
} from "../src/index.ts";
import { SLOW_PATH_ONLY } from "../src/internal.ts";
import type { DecoderSpec } from "../src/spec.ts";
import { assistantCalls } from "./chat-messages.ts";
import { eventsInBursts, ONE_BURST } from "./push-bursts.ts";
import { timeRatio } from "./ratio-support.ts";

function spec(family: DeepSeekFamily, derived: boolean): { spec: DecoderSpec; ids: Record<string, number> } {
  const enc = encoder(family, derived);
  return { ids: enc.ids as Record<string, number>, spec: compileDecoderSpecFor(enc.tok) };
}

function decode(s: DecoderSpec, ids: readonly number[], oneByOne: boolean, stream = true): DecoderEvent[] {
  return eventsInBursts(createDecoder, s, ids, { streamToolCalls: stream }, oneByOne ? [] : ONE_BURST);
}

type Item =
  | readonly ["start", string]
  | readonly ["text" | "reasoning" | "args", string]
  | readonly ["action", string]
  | readonly ["name", string]
  | readonly ["call", string, unknown]
  | readonly ["error", string]
  | readonly ["end"]
  | readonly ["stop", string, number?]
  | readonly ["decoder-error", string];

/** Events as items: deltas of one kind merged, action_text left out (it is checked as `raw`). */
function summary(events: readonly DecoderEvent[]): Item[] {
  const out: Item[] = [];
  const add = (k: "text" | "reasoning" | "args", t: string) => {
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === k) out[out.length - 1] = [k, `${last[1]}${t}`];
    else out.push([k, t]);
  };
  let raw = "";
  for (const e of events) {
    switch (e.type) {
      case "message_start":
        out.push(["start", e.role]);
        break;
      case "text":
        add("text", e.text);
        break;
      case "reasoning":
        add("reasoning", e.text);
        break;
      case "tool_call_arguments":
        add("args", e.text);
        break;
      case "tool_call_name":
        out.push(["name", e.name]);
        break;
      case "action_start":
        raw = "";
        out.push(["action", e.kind]);
        break;
      case "action_text":
        raw += e.text;
        break;
      case "action_end":
        expect(e.raw).toBe(raw);
        out.push(e.call !== undefined ? ["call", e.call.name, e.call.arguments] : ["error", e.error ?? ""]);
        break;
      case "message_end":
        out.push(["end"]);
        break;
      case "stop":
        out.push(e.token === undefined ? ["stop", e.reason] : ["stop", e.reason, e.token]);
        break;
      case "error":
        out.push(["decoder-error", e.code]);
        break;
    }
  }
  return out;
}

const WEATHER_ARGS = '{"city": "Paris", "unit": "celsius"}';
const weatherCall: Item[] = [
  ["action", "tool_call"],
  ["name", "get_weather"],
  ["args", WEATHER_ARGS],
  ["call", "get_weather", { city: "Paris", unit: "celsius" }],
];
const EOS: Item = ["stop", "eos", 1];
const UNICODE_ARGS = '{"q": "東京 天気 🌦️", "n": [1, 2.5, null, true], "nested": {"a": {"b": "\\"```\\""}}}';

/** Hand-written expectations by generation name (both families, any vocabulary). */
const EXPECTED: Readonly<Record<string, Item[]>> = {
  text_eos: [["start", "assistant"], ["text", "Hello! How can I help you today?"], EOS],
  cjk_emoji_eos: [["start", "assistant"], ["text", "你好！🌍 こんにちは。\n\n- 一\n- 二"], EOS],
  one_call: [["start", "assistant"], ...weatherCall, EOS],
  two_calls: [
    ["start", "assistant"],
    ...weatherCall,
    ["action", "tool_call"],
    ["name", "get_time"],
    ["args", '{"tz": "Europe/Paris"}'],
    ["call", "get_time", { tz: "Europe/Paris" }],
    EOS,
  ],
  text_then_call: [["start", "assistant"], ["text", "Let me check the weather."], ...weatherCall, EOS],
  call_unicode_arguments: [
    ["start", "assistant"],
    ["action", "tool_call"],
    ["name", "search"],
    ["args", UNICODE_ARGS],
    ["call", "search", JSON.parse(UNICODE_ARGS)],
    EOS,
  ],
  malformed_no_fence: [
    ["start", "assistant"],
    ["action", "tool_call"],
    ["name", "get_weather"],
    ["error", "expected ```json on the line after the name"],
    EOS,
  ],
  malformed_json: [
    ["start", "assistant"],
    ["action", "tool_call"],
    ["name", "get_weather"],
    ["args", '{"city": "Paris",'],
    ["error", "invalid JSON arguments: Expected double-quoted property name in JSON at position 17"],
    EOS,
  ],
  malformed_no_separator: [
    ["start", "assistant"],
    ["action", "tool_call"],
    ["error", "the tool call has no <｜tool▁sep｜>"],
    EOS,
  ],
  user_marker_in_output: [
    ["start", "assistant"],
    ["text", "Done."],
    ["end"],
    ["start", "user"],
    ["text", "next question"],
    EOS,
  ],
  truncated_in_call: [
    ["start", "assistant"],
    ["action", "tool_call"],
    ["name", "get_weather"],
    ["args", '{"city": "Par'],
    ["error", "the tool call's arguments are not closed by ```"],
    ["stop", "end_of_input"],
  ],
  // R1 on the derived vocabulary: <think> … </think> is reasoning.
  think_answer_derived: [
    ["start", "assistant"],
    ["reasoning", "The user greets me. I should greet back."],
    ["text", "Hello! 👋"],
    EOS,
  ],
  think_then_call_derived: [
    ["start", "assistant"],
    ["reasoning", "I need the weather tool."],
    ...weatherCall,
    EOS,
  ],
  think_unclosed_derived: [
    ["start", "assistant"],
    ["reasoning", "Still thinking about 東京"],
    ["stop", "end_of_input"],
  ],
  // R1 on the package vocabulary: no <think> token, so the model's "<think>" is text.
  think_answer: [
    ["start", "assistant"],
    ["text", "<think>\nThe user greets me. I should greet back.\n</think>\n\nHello! 👋"],
    EOS,
  ],
  think_then_call: [
    ["start", "assistant"],
    ["text", "<think>\nI need the weather tool.\n</think>\n\n"],
    ...weatherCall,
    EOS,
  ],
  think_unclosed: [
    ["start", "assistant"],
    ["text", "<think>\nStill thinking about 東京"],
    ["stop", "end_of_input"],
  ],
};

for (const [family, derived] of [
  ["deepseek-v3", false],
  ["deepseek-r1", false],
  ["deepseek-r1", true],
] as const) {
  describe(`${family}${derived ? " (derived R1 vocabulary)" : ""}: golden generations decoded`, () => {
    const { spec: s } = spec(family, derived);
    const gens = golden(family).generations.filter((g) => (g.tokenizer === "derived-r1") === derived);
    it("has generations", () => expect(gens.length).toBeGreaterThanOrEqual(11));
    for (const g of gens) {
      it(g.name, () => {
        const want = EXPECTED[g.name] ?? EXPECTED[g.name.replace(/_derived$/, "")];
        expect(want, `no expectation for ${g.name}`).toBeDefined();
        const whole = decode(s, g.ids, false);
        expect(summary(whole)).toEqual(want);
        expect(decode(s, g.ids, true)).toEqual(whole);
        // Not streamed: the same events without the name / argument deltas.
        const plain = decode(s, g.ids, false, false);
        expect(plain).toEqual(
          whole.filter((e) => e.type !== "tool_call_name" && e.type !== "tool_call_arguments"),
        );
      });
    }
  });
}

describe("markers the templates write around a generation", () => {
  const { spec: s, ids } = spec("deepseek-v3", false);
  const enc = encoder("deepseek-v3");
  const t = (x: string) => enc.textModel.encode(x);
  it("after tool results the model answers right after <｜tool▁outputs▁end｜>: an assistant segment", () => {
    const ev = summary(decode(s, [ids.toolOutputsEnd as number, ...t("Sunny."), ids.eos as number], false));
    expect(ev.filter((x) => x[0] === "text")).toEqual([["text", "Sunny."]]);
    expect(ev[ev.length - 1]).toEqual(EOS);
    expect(ev.filter((x) => x[0] === "start").every((x) => x[1] === "assistant")).toBe(true);
  });
  it("tool results and BOS are never valid in a generation", () => {
    for (const k of ["bos", "toolOutputsBegin", "toolOutputBegin", "toolOutputEnd"]) {
      const ev = summary(decode(s, [...t("a"), ids[k] as number, ...t("b")], false));
      expect(ev, k).toContainEqual(["decoder-error", "unexpected-reserved-token"]);
    }
  });
  it("<｜tool▁sep｜> outside a call, <｜tool▁call▁end｜> without a call: errors, decoding goes on", () => {
    const ev = summary(
      decode(s, [...t("a"), ids.toolSep as number, ids.toolCallEnd as number, ...t("b"), 1], false),
    );
    expect(ev.filter((x) => x[0] === "decoder-error")).toHaveLength(2);
    expect(ev[ev.length - 1]).toEqual(EOS);
  });
  it('text between two calls other than the templates\' "\n" is an error; the calls still parse', () => {
    const tc = (name: string) => [
      ids.toolCallBegin as number,
      ...t("function"),
      ids.toolSep as number,
      ...t(`${name}\n\`\`\`json\n{}\n\`\`\``),
      ids.toolCallEnd as number,
    ];
    const gen = [
      ids.toolCallsBegin as number,
      ...tc("a"),
      ...t(" oops "),
      ...tc("b"),
      ids.toolCallsEnd as number,
      1,
    ];
    const ev = summary(decode(s, gen, false));
    expect(ev.filter((x) => x[0] === "call").map((x) => x[1])).toEqual(["a", "b"]);
    expect(ev).toContainEqual(["decoder-error", "text-outside-block"]);
  });
  it("an added token with no move (a placeholder, <|EOT|>) is a reserved token, not unknown", () => {
    for (const id of [128798, 128805, 2]) {
      const ev = summary(decode(s, [id], false));
      expect(ev, String(id)).toContainEqual(["decoder-error", "unexpected-reserved-token"]);
    }
  });
});

describe("encode -> decode: an assistant turn rendered by the encoder decodes to its request", () => {
  for (const [family, derived] of [
    ["deepseek-v3", false],
    ["deepseek-r1", true],
  ] as const) {
    it(`${family}: text, then parallel tool calls (R1), or tool calls alone (V3)`, () => {
      const enc = encoder(family, derived);
      const { spec: s, ids } = spec(family, derived);
      const calls = [
        { name: "get_weather", arguments: { city: "東京", days: [1, 2] } },
        { name: "get_time", arguments: '{"tz": "UTC"}' },
      ];
      const content = family === "deepseek-r1" ? "Checking 🌦️" : null;
      const e = enc.encodeChat({
        messages: [{ role: "user", content: "q" }, assistantCalls(calls, content)],
        add_generation_prompt: false,
      });
      // What the model generated: everything after the first <｜Assistant｜>.
      const gen = e.ids.slice(e.ids.indexOf(ids.assistant as number) + 1);
      const ev = summary(decode(s, gen, false));
      expect(ev).toEqual([
        ["start", "assistant"],
        ...(content === null ? [] : [["text", content] as Item]),
        ["action", "tool_call"],
        ["name", "get_weather"],
        ["args", '{"city": "東京", "days": [1, 2]}'],
        ["call", "get_weather", { city: "東京", days: [1, 2] }],
        ["action", "tool_call"],
        ["name", "get_time"],
        ["args", '{"tz": "UTC"}'],
        ["call", "get_time", { tz: "UTC" }],
        EOS,
      ]);
    });
  }
});

describe("properties and cost (fast-check, seeded; ratio, not time)", () => {
  const { spec: s, ids } = spec("deepseek-r1", true);
  const enc = encoder("deepseek-r1", true);
  const markerIds = Object.values(ids);
  const pieces = [
    "function",
    "get_weather\n",
    "```json\n",
    '{"a": ',
    "1}",
    "\n```",
    "\n",
    "東京",
    " ",
    "x",
  ].map((x) => enc.textModel.encode(x));
  const token = fc.oneof(
    fc.constantFrom(...markerIds).map((id) => [id]),
    fc.constantFrom(...pieces),
    fc.constantFrom([128798], [2], [128805], [0]),
  );
  it("any mix of markers and text: never throws, the same events one ID at a time, every action ends", () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (parts) => {
        const gen = parts.flat();
        const whole = decode(s, gen, false);
        expect(decode(s, gen, true)).toEqual(whole);
        const starts = whole.filter((e) => e.type === "action_start").length;
        expect(whole.filter((e) => e.type === "action_end").length).toBe(starts);
        expect(whole[whole.length - 1]?.type).toBe("stop");
      }),
      { seed: 8011, numRuns: 400 },
    );
  });

  it("a name line that never ends costs about what a call of the same length does", () => {
    const n = 100_000;
    const a = enc.textModel.encode("a")[0] as number;
    const open = [
      ids.toolCallsBegin as number,
      ids.toolCallBegin as number,
      ...enc.textModel.encode("function"),
    ];
    const hostile = [
      ...open,
      ids.toolSep as number,
      ...new Array<number>(n).fill(a),
      ids.toolCallEnd as number,
    ];
    const benign = [
      ...open,
      ids.toolSep as number,
      ...enc.textModel.encode('f\n```json\n{"k": "'),
      ...new Array<number>(n).fill(a),
      ...enc.textModel.encode('"}\n```'),
      ids.toolCallEnd as number,
    ];
    const run = (gen: number[]) => () => {
      const d = createDecoder(
        s,
        { onToolCallName() {}, onToolCallArguments() {} },
        {
          streamToolCalls: true,
        },
      );
      for (const id of gen) d.push(id);
      d.end();
    };
    expect(timeRatio(run(hostile), run(benign), 3)).toBeLessThan(5);
  });
});

describe("fast path = slow path (internal SLOW_PATH_ONLY), DeepSeek grammars", () => {
  const both = (s: DecoderSpec, ids: readonly number[], o: DecoderOptions) => {
    const go = (x: DecoderOptions) => {
      const c = eventCollector();
      const d = createDecoder(s, c, x);
      d.pushMany(ids);
      d.end();
      return c.events;
    };
    return { fast: go(o), slow: go({ ...o, [SLOW_PATH_ONLY]: true } as DecoderOptions) };
  };
  for (const [family, derived] of [
    ["deepseek-v3", false],
    ["deepseek-r1", true],
  ] as const) {
    const { spec: s, ids } = spec(family, derived);
    it(`${family}${derived ? " (derived)" : ""}: golden generations and rendered conversations`, () => {
      const g = golden(family);
      const seqs = [
        ...g.generations.filter((x) => (x.tokenizer === "derived-r1") === derived).map((x) => x.ids),
        ...g.chat.map((x) => x.ids ?? []),
      ];
      for (const seq of seqs)
        for (const o of [{}, { streamToolCalls: true }, { stopStrings: ["```"], maxTokens: 20 }]) {
          const r = both(s, seq, o);
          expect(r.slow).toEqual(r.fast);
        }
    });
    it(`${family}${derived ? " (derived)" : ""}: random marker / text / out-of-range streams (fast-check)`, () => {
      const enc = encoder(family, derived);
      const size = enc.textModel.decodeTable.size;
      const id = fc.oneof(
        { weight: 5, arbitrary: fc.integer({ min: 0, max: size - 1 }) },
        { weight: 3, arbitrary: fc.constantFrom(...Object.values(ids)) },
        { weight: 1, arbitrary: fc.constantFrom(-1, 128798, 128805, size + 10) },
      );
      fc.assert(
        fc.property(fc.array(id, { maxLength: 60 }), fc.boolean(), (seq, stream) => {
          const r = both(s, seq, { streamToolCalls: stream });
          expect(r.slow).toEqual(r.fast);
        }),
        { seed: 8012, numRuns: 300 },
      );
    });
  }
});
