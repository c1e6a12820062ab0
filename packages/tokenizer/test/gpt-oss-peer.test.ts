// gpt-oss against openai/harmony's own expected renderings (test-data of harmony v0.0.8, read
// from ../shared/peer-suites/harmony). Each case's INPUT is restated here from harmony's
// src/tests.rs / tests/test_harmony.py (our own code, not copied). Reference IDs: the expected
// text tokenized by HF's Rust `tokenizers` (npm) on the same tokenizer.json, whose added
// tokens (<|start|>, ...) it matches as specials — what harmony's tests do with
// encode(text, allowed_special=all).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { GPTOSS_MODEL_DIR, harmonyData, haveHarmonySuite } from "../../../test-support/harmony-suite.ts";
import { tokenIds } from "../../../test-support/token-ids.ts";
import { ChatBuilder } from "../src/chat/builder.ts";
import type { GptOssKey } from "../src/families/gpt-oss/definition.ts";
import { HARMONY_BROWSER, HARMONY_PYTHON } from "../src/families/gpt-oss/harmony-builtin-tools.ts";
import {
  HARMONY_CHANNELS,
  type HarmonyMessage,
  type HarmonySystem,
  type ReasoningEffort,
  renderHarmony,
} from "../src/families/gpt-oss/harmony-render.ts";
import type { HarmonyTool } from "../src/families/gpt-oss/harmony-tools.ts";
import { type ChatRequest, type ChatTokenizer, fromFiles } from "../src/index.ts";
import { type RustTokenizer, sharedRustTokenizer } from "./rust-tokenizers.ts";

/** The function tool of harmony's test_browser_and_function_tool.txt. */
const LOOKUP_WEATHER = {
  name: "lookup_weather",
  description:
    "Use this tool to lookup the weather in a given location. Call it with the parameter 'location', can be any textual description of a location.",
  parameters: {
    type: "object",
    properties: { location: { type: "string" } },
    required: ["location"],
  },
};

/** harmony's markers, as caller text. */
const MARKERS = ["<|start|>", "<|end|>", "<|message|>", "<|call|>", "<|return|>"];
/** Caller text spelling markers as a header or a call combines them, a recipient, plain text. */
const COMBINED = ["<|channel|>analysis<|message|>", "<|constrain|>json", " to=functions.x", "plain"];

const run = haveHarmonySuite();
const IDENTITY = "You are ChatGPT, a large language model trained by OpenAI.";

function sys(over: Partial<HarmonySystem> = {}): HarmonyMessage {
  const system: HarmonySystem = {
    modelIdentity: IDENTITY,
    knowledgeCutoff: "2024-06",
    reasoningEffort: "medium",
    validChannels: HARMONY_CHANNELS,
    channelRequired: true,
    ...over,
  };
  return { role: "system", index: null, content: { kind: "system", system } };
}
function msg(
  role: HarmonyMessage["role"],
  text: string,
  extra: Partial<HarmonyMessage> = {},
): HarmonyMessage {
  return { role, index: null, content: { kind: "text", text }, ...extra };
}
function dev(instructions: string | undefined, functionTools?: HarmonyTool[]): HarmonyMessage {
  return {
    role: "developer",
    index: null,
    content: { kind: "developer", developer: { instructions, functionTools } },
  };
}

const WEATHER_TOOLS: HarmonyTool[] = [
  { name: "get_location", description: "Gets the location of the user." },
  {
    name: "get_current_weather",
    description: "Gets the current weather in the provided location.",
    parameters: {
      type: "object",
      properties: {
        location: { type: "string", description: "The city and state, e.g. San Francisco, CA" },
        format: { type: "string", enum: ["celsius", "fahrenheit"], default: "celsius" },
      },
      required: ["location"],
    },
  },
  {
    name: "get_multiple_weathers",
    description: "Gets the current weather in the provided list of locations.",
    parameters: {
      type: "object",
      properties: {
        locations: {
          type: "array",
          items: { type: "string" },
          description: 'List of city and state, e.g. ["San Francisco, CA", "New York, NY"]',
        },
        format: { type: "string", enum: ["celsius", "fahrenheit"], default: "celsius" },
      },
      required: ["locations"],
    },
  },
  {
    name: "kitchensink",
    description: "A function with various complex schemas.",
    parameters: {
      description: "params object",
      type: "object",
      properties: {
        string: { type: "string", title: "STRING", description: "A string", examples: ["hello", "world"] },
        string_nullable: {
          type: "string",
          nullable: true,
          description: "A nullable string",
          default: "the default",
        },
        string_enum: { type: "string", enum: ["a", "b", "c"] },
        oneof_string_or_number: {
          oneOf: [
            { type: "string", default: "default_string_in_oneof" },
            { type: "number", description: "numbers can happen too" },
          ],
          description: "a oneof",
          default: 20,
        },
      },
    },
  },
];

interface Case {
  readonly file: string;
  readonly messages: HarmonyMessage[];
  readonly autoDropAnalysis?: boolean;
  readonly forCompletion?: boolean;
}

const CAPITAL = "What is the capital of the largest country in the world?";
const effortCases: Case[] = (["low", "medium", "high"] as ReasoningEffort[]).flatMap((e) => [
  {
    file: `test_simple_convo_${e}_effort.txt`,
    messages: [
      sys({ reasoningEffort: e }),
      dev("Answer the user's questions like a robot."),
      msg("user", CAPITAL),
    ],
  },
  {
    file: `test_simple_convo_${e}_effort_no_instruction.txt`,
    messages: [sys({ reasoningEffort: e }), msg("user", CAPITAL)],
  },
]);

const CASES: Case[] = [
  { file: "test_simple_convo.txt", messages: [sys(), msg("user", "What is 2 + 2?")] },
  ...effortCases,
  {
    file: "test_reasoning_system_message.txt",
    messages: [sys({ validChannels: ["analysis", "final"] }), msg("user", "What is 2 + 2?")],
  },
  {
    file: "test_reasoning_system_message_no_instruction.txt",
    messages: [
      sys({ reasoningEffort: "high", validChannels: ["analysis", "final"] }),
      msg("user", "What is the best place to eat candy in the world?"),
    ],
  },
  {
    file: "test_reasoning_system_message_with_dates.txt",
    messages: [
      sys({
        validChannels: ["analysis", "final"],
        conversationStartDate: "2021-01-01",
        knowledgeCutoff: "2021-01",
      }),
      msg("user", "What is 42 * pi?"),
    ],
  },
  {
    file: "test_render_functions_with_parameters.txt",
    messages: [
      sys({ reasoningEffort: "high", conversationStartDate: "2025-06-28" }),
      dev("Always respond in riddles", WEATHER_TOOLS),
      msg("user", "What is the weather like in SF?"),
    ],
  },
  { file: "test_no_tools.txt", messages: [sys({ conversationStartDate: "2025-06-28" })] },
  {
    file: "test_dropping_cot_by_default.txt",
    messages: [
      msg("user", "What is 2 + 2?"),
      msg("assistant", 'User asks: "What is 2 + 2?" Simple arithmetic. Provide answer.', {
        channel: "analysis",
      }),
      msg("assistant", "2 + 2 equals 4.", { channel: "final" }),
      msg("user", "What about 9 / 2?"),
    ],
  },
  {
    file: "test_does_not_drop_if_ongoing_analysis.txt",
    messages: [
      msg("user", "What is the weather in SF?"),
      msg("assistant", "User asks: “What is the weather in SF?” We need to use lookup_weather tool.", {
        channel: "analysis",
      }),
      msg("assistant", '{"location": "San Francisco"}', {
        channel: "commentary",
        recipient: "functions.lookup_weather",
        contentType: "<|constrain|>json",
      }),
      msg("tool", '{"temperature": 20, "description": "sunny"}', { name: "functions.lookup_weather" }),
    ],
  },
  {
    file: "test_preserve_cot.txt",
    autoDropAnalysis: false,
    messages: [
      msg("user", "What is 2 + 2?"),
      msg("assistant", 'User asks a simple question: "What is 2 + 2?" The answer: 4.', {
        channel: "analysis",
      }),
      msg("assistant", "2 + 2 equals 4.", { channel: "final" }),
      msg("user", "What about 9 / 2?"),
    ],
  },
  // Built-in tools (system-level namespaces; our re-implementation of harmony's browser/python text).
  {
    file: "test_browser_tool_only.txt",
    messages: [sys({ conversationStartDate: "2025-06-28", tools: [HARMONY_BROWSER] })],
  },
  {
    file: "test_browser_and_python_tool.txt",
    // Given python first: harmony orders namespaces by name (BTreeMap), so must we.
    messages: [sys({ conversationStartDate: "2025-06-28", tools: [HARMONY_PYTHON, HARMONY_BROWSER] })],
  },
  {
    file: "test_browser_and_function_tool.txt",
    messages: [
      sys({ conversationStartDate: "2025-06-28", tools: [HARMONY_BROWSER] }),
      dev(undefined, [LOOKUP_WEATHER]),
    ],
  },
  {
    file: "test_keep_analysis_between_finals.txt",
    forCompletion: false,
    messages: [
      msg("user", "What is 2 + 2?"),
      msg("assistant", "4", { channel: "final" }),
      msg("user", "What is 3 + 5?"),
      msg("assistant", "thinking 3+5", { channel: "analysis" }),
      msg("assistant", "8", { channel: "final" }),
    ],
  },
];

describe.runIf(run)("gpt-oss: openai/harmony expected renderings", () => {
  let tok: ChatTokenizer;
  let hf: RustTokenizer;
  beforeAll(() => {
    const read = (n: string) => readFileSync(resolve(GPTOSS_MODEL_DIR, n), "utf8");
    tok = fromFiles({
      "tokenizer.json": read("tokenizer.json"),
      "tokenizer_config.json": read("tokenizer_config.json"),
    });
    hf = sharedRustTokenizer(resolve(GPTOSS_MODEL_DIR, "tokenizer.json"));
  });

  it("detects the format from tokenizer_config.json", () => {
    expect(tok.format).toBe("gpt-oss");
  });

  for (const c of CASES) {
    it(`${c.file}: token-exact`, async () => {
      // harmony's load_test_data trim_end()s every file (test_no_tools.txt ends in "\n").
      const expected = harmonyData(c.file).trimEnd();
      const want = (await hf.encode(expected, null, { addSpecialTokens: false })).getIds();
      const b = new ChatBuilder(tok.textModel, tok.scanner, "neutralize");
      renderHarmony(
        c.messages,
        { autoDropAnalysis: c.autoDropAnalysis ?? true, forCompletion: c.forCompletion ?? true },
        b,
        tokenIds<GptOssKey>(() => tok),
      );
      const got = b.finish().ids;
      expect(tok.decode(got, { specialTokens: "show" })).toBe(expected);
      expect(got).toEqual(want);
    });
  }

  it("caller text never places a reserved ID: the reserved-ID sequence does not depend on it", () => {
    const needle = fc.constantFrom(...MARKERS, ...COMBINED);
    const slots = fc.array(
      fc.tuple(fc.string({ maxLength: 4 }), needle).map(([a, b]) => a + b),
      {
        minLength: 9,
        maxLength: 9,
      },
    );
    const request = (x: readonly string[]): ChatRequest => ({
      messages: [
        { role: "developer", content: x[0] as string },
        { role: "user", content: x[1] as string },
        {
          role: "assistant",
          reasoning_content: x[2] as string,
          content: x[3] as string,
          tool_calls: [{ type: "function", function: { name: "f", arguments: x[4] as string } }],
        },
        { role: "tool", content: x[5] as string },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "f",
            description: x[6] as string,
            parameters: { type: "object", properties: { [x[7] as string]: { type: "string" } } },
          },
        },
      ],
      chat_template_kwargs: { model_identity: x[8] as string, current_date: x[8] as string },
    });
    const reservedOf = (ids: readonly number[]) => ids.filter((id) => tok.registry.ids.has(id));
    const baseline = reservedOf(tok.encodeChat(request(new Array(9).fill("x"))).ids);
    fc.assert(
      fc.property(slots, (x) => {
        const enc = tok.encodeChat(request(x));
        expect(reservedOf(enc.ids)).toEqual(baseline);
        const planted = x.some((v) => /<\|[a-z]+\|>/.test(v));
        if (planted) expect(enc.audit.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });

  // The same cases through the chat request (the public encodeChat path, harmony's form).
  const viaRequest: Array<{ file: string; request: ChatRequest }> = [
    {
      file: "test_simple_convo.txt",
      request: {
        messages: [{ role: "user", content: "What is 2 + 2?" }],
        chat_template_kwargs: { harmony_library: true },
      },
    },
    {
      file: "test_simple_convo_high_effort.txt",
      request: {
        messages: [
          { role: "developer", content: "Answer the user's questions like a robot." },
          { role: "user", content: CAPITAL },
        ],
        chat_template_kwargs: { reasoning_effort: "high", harmony_library: true },
      },
    },
    {
      file: "test_render_functions_with_parameters.txt",
      request: {
        messages: [
          { role: "system", content: "Always respond in riddles" },
          { role: "user", content: "What is the weather like in SF?" },
        ],
        tools: WEATHER_TOOLS.map((t) => ({
          type: "function" as const,
          function: {
            name: t.name,
            description: t.description,
            ...(t.parameters ? { parameters: t.parameters } : {}),
          },
        })),
        chat_template_kwargs: { reasoning_effort: "high", current_date: "2025-06-28", harmony_library: true },
      },
    },
    {
      file: "test_browser_and_function_tool.txt",
      request: {
        messages: [],
        tools: [{ type: "function", function: LOOKUP_WEATHER }],
        chat_template_kwargs: {
          builtin_tools: ["browser"],
          current_date: "2025-06-28",
          harmony_library: true,
        },
      },
    },
    {
      file: "test_browser_and_python_tool.txt",
      request: {
        messages: [],
        chat_template_kwargs: {
          builtin_tools: ["python", "browser"],
          current_date: "2025-06-28",
          harmony_library: true,
        },
      },
    },
  ];
  for (const v of viaRequest) {
    it(`${v.file} via encodeChat(request): token-exact`, async () => {
      const expected = harmonyData(v.file).trimEnd();
      const want = (await hf.encode(expected, null, { addSpecialTokens: false })).getIds();
      expect(tok.encodeChat(v.request).ids).toEqual(want);
    });
  }
});
