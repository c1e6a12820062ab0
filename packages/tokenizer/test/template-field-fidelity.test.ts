// No field lost on the way to a template: for every real chat template in ../shared/templates and
// ../shared/templates-extra, a random tool-calling conversation as an OpenAI client sends it
// (assistant `content: null` + `tool_calls` with JSON-string arguments, then one `tool` result per
// call with `tool_call_id` and `name`) is rendered through renderChatTemplate, and the prompt
// must contain every call's name, every argument value and every tool result. A template that
// cannot render one of them is listed in CANNOT with the reason (read from the template), and
// the test requires that it indeed loses a field: the list cannot go stale.
// Values are lowercase words with a marker prefix, so a template's escaping (tojson, repr) keeps
// them findable as they are.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  type ChatRequest,
  compileTemplate,
  PStr,
  renderChatTemplate,
  TokenizerError,
  type Value,
} from "../src/index.ts";
import { repoRoot } from "./template-support.ts";

const dirs = [
  resolve(repoRoot, process.env.CHATWIRE_TEMPLATES ?? "../shared/templates"),
  resolve(repoRoot, process.env.CHATWIRE_TEMPLATES_EXTRA ?? "../shared/templates-extra"),
];
const manifest = JSON.parse(
  readFileSync(join(repoRoot, "test-vectors/templates-extra/manifest.json"), "utf8"),
) as { templates: { file: string; special: Record<string, string> }[] };
const SPECIAL = new Map(manifest.templates.map((t) => [t.file, t.special]));
const NOW = new Date(2024, 6, 26, 10);

const ROLE_CONTENT_ONLY = "writes role and content only: neither the tool calls nor the tool role";
const NO_CALLS =
  "writes every message's role and content: the tool result shows, the assistant's tool_calls do not";
const TOOLS_NOT_CALLS = "lists the tools (the name shows) but writes no tool call arguments";
const TOOLS_NOT_CALLS_NOR_RESULTS = "lists the tools but writes neither tool call arguments nor tool results";

/**
 * Templates that cannot render a tool call or a tool result as an OpenAI client sends them:
 * file -> why. Each was rendered with the same request by Python jinja2 (test-vectors/gen/
 * template_render.py), which loses or raises the same way.
 */
const CANNOT: Readonly<Record<string, string>> = {
  "gemma-3-it.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "llama-3-8b-instruct.jinja": NO_CALLS,
  "01-ai-Yi-1.5-34B-Chat.jinja": ROLE_CONTENT_ONLY,
  "CohereLabs-c4ai-command-r-v01--default.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "CohereLabs-c4ai-command-r-v01--rag.jinja": ROLE_CONTENT_ONLY,
  "CohereLabs-c4ai-command-r-v01--tool_use.jinja":
    "raises (jinja2 too): UndefinedError: 'dict object' has no attribute 'description'",
  "CohereLabs-c4ai-command-r7b-12-2024--default.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "Deci-DeciLM-7B-instruct.jinja": ROLE_CONTENT_ONLY,
  "HuggingFaceH4-zephyr-7b-gemma-sft-v0.1.jinja": NO_CALLS,
  "Intel-neural-chat-7b-v3-3.jinja":
    "raises (jinja2 too): TemplateError: After the optional system message, conversation roles must altern",
  "LGAI-EXAONE-EXAONE-3.5-2.4B-Instruct.jinja": NO_CALLS,
  "MediaTek-Research-Breeze-7B-Instruct-v1_0.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "OrionStarAI-Orion-14B-Chat.jinja": ROLE_CONTENT_ONLY,
  "Qwen-Qwen1.5-4B-Chat.jinja": NO_CALLS,
  "THUDM-chatglm3-6b.jinja": NO_CALLS,
  "THUDM-glm-4-9b-chat.jinja": NO_CALLS,
  "THUDM-glm-edge-4b-chat.jinja": ROLE_CONTENT_ONLY,
  "allenai-OLMo-7B-0724-Instruct-hf.jinja": ROLE_CONTENT_ONLY,
  "bigcode-starcoder2-15b-instruct-v0.1.jinja":
    "raises (jinja2 too): TemplateError: System messages are not allowed in this template.",
  "codellama-CodeLlama-70b-Instruct-hf.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "databricks-dbrx-instruct.jinja": NO_CALLS,
  "deepseek-ai-DeepSeek-V2-Lite-Chat.jinja": ROLE_CONTENT_ONLY,
  "google-gemma-2b-it.jinja": "raises (jinja2 too): TemplateError: System role not supported",
  "gorilla-llm-gorilla-openfunctions-v2.jinja": NO_CALLS,
  "hfjs-CohereLabs-command-a-reasoning-08-2025.jinja":
    "raises (jinja2 too): UndefinedError: str object has no element 0",
  "hfjs-HuggingFaceTB-SmolLM3-3B.jinja": TOOLS_NOT_CALLS,
  "hfjs-MadeAgents-Hammer2.1.jinja": TOOLS_NOT_CALLS,
  "hfjs-fireworks-ai-firefunction-v1.jinja":
    'raises (jinja2 too): TemplateError: Expected either "functions" or ["system", "functions"] as the fir',
  "hfjs-meta-llama-Llama-Guard-3-11B-Vision.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "ibm-granite-granite-3.0-1b-a400m-instruct.jinja": TOOLS_NOT_CALLS_NOR_RESULTS,
  "ibm-granite-granite-3.1-3b-a800m-instruct.jinja": TOOLS_NOT_CALLS,
  "ibm-granite-granite-3.2-2b-instruct.jinja": TOOLS_NOT_CALLS,
  "ibm-granite-granite-8b-code-instruct.jinja": ROLE_CONTENT_ONLY,
  "internlm-internlm2-chat-1_8b.jinja": NO_CALLS,
  "llamacpp-HuggingFaceTB-SmolLM3-3B.jinja": NO_CALLS,
  "llamacpp-Kimi-K2-Instruct.jinja":
    "raises (jinja2 too): SecurityError: access to attribute 'append' of 'list' object is unsafe.",
  "llamacpp-Kimi-K2-Thinking.jinja":
    "raises (jinja2 too): SecurityError: access to attribute 'append' of 'list' object is unsafe.",
  "llamacpp-LFM2-8B-A1B.jinja": TOOLS_NOT_CALLS,
  "llamacpp-LFM2.5-Instruct.jinja": TOOLS_NOT_CALLS,
  "llamacpp-fireworks-ai-llama-3-firefunction-v2.jinja":
    "raises (jinja2 too): UndefinedError: 'functions' is undefined",
  "llamacpp-ibm-granite-granite-3.3-2B-Instruct.jinja": TOOLS_NOT_CALLS,
  "llamacpp-llama-cpp-deepseek-r1.jinja":
    "raises (jinja2 too): TypeError: Object of type generator is not JSON serializable",
  "llamacpp-llama-cpp-rwkv-world.jinja": ROLE_CONTENT_ONLY,
  "meta-llama-Llama-2-70b-chat-hf.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "meta-llama-Meta-Llama-Guard-2-8B.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "microsoft-DialoGPT-large.jinja": NO_CALLS,
  "microsoft-Phi-3-medium-128k-instruct.jinja": ROLE_CONTENT_ONLY,
  "microsoft-Phi-3-mini-128k-instruct.jinja": ROLE_CONTENT_ONLY,
  "microsoft-Phi-3.5-mini-instruct.jinja": ROLE_CONTENT_ONLY,
  "microsoft-Phi-4-mini-instruct.jinja": NO_CALLS,
  "microsoft-Phi-4-reasoning.jinja": ROLE_CONTENT_ONLY,
  "microsoft-phi-4.jinja": ROLE_CONTENT_ONLY,
  "minja-Qwen-Qwen2-VL-7B-Instruct.jinja": NO_CALLS,
  "minja-bofenghuang-vigogne-2-70b-chat.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "mistralai-Mixtral-8x7B-Instruct-v0.1.jinja":
    "raises (jinja2 too): TemplateError: After the optional system message, conversation roles must altern",
  "mosaicml-mpt-30b-chat.jinja": NO_CALLS,
  "nvidia-Llama3-ChatQA-1.5-8B.jinja": NO_CALLS,
  "openchat-openchat-3.5-0106.jinja": NO_CALLS,
  "stabilityai-stablelm-zephyr-3b.jinja": ROLE_CONTENT_ONLY,
  "tiiuae-falcon-7b-instruct.jinja":
    "raises (jinja2 too): TemplateError: Conversation roles must alternate user/assistant/user/assistant/.",
  "upstage-SOLAR-10.7B-Instruct-v1.0.jinja": ROLE_CONTENT_ONLY,
};

/** Templates that write one tool call per assistant message (their own rule): tested with one call. */
const SINGLE_CALL: ReadonlySet<string> = new Set([
  "gpt-oss-120b.jinja",
  "llama-3.2-3b-instruct.jinja",
  "hfjs-meta-llama-Llama-3.2-11B-Vision-Instruct.jinja",
  "llamacpp-GigaChat3-10B-A1.8B.jinja",
  "llamacpp-GigaChat3.1-10B-A1.8B.jinja",
  "meta-llama-Llama-3.1-8B-Instruct.jinja",
]);

interface Conversation {
  readonly calls: { name: string; args: Record<string, string | number> }[];
  readonly results: string[];
}

const word = (prefix: string) => fc.stringMatching(/^[a-z]{3,8}$/).map((w) => `${prefix}${w}`);
// Built once: a stringMatching arbitrary costs far more to build than to draw from (the chain
// below would build one per drawn conversation), and an arbitrary draws the same values however
// often it is reused.
const FN_NAME = word("fn_");
const ARG_KEY = word("k_");
const ARG_VALUE = fc.oneof(word("val_"), fc.integer({ min: 1000, max: 999_999 }));
const RESULT = word("result_");

const conversationOf = (maxCalls: number): fc.Arbitrary<Conversation> =>
  fc
    .array(
      fc.record({
        name: FN_NAME,
        args: fc.dictionary(ARG_KEY, ARG_VALUE, {
          minKeys: 1,
          maxKeys: 3,
        }),
      }),
      { minLength: 1, maxLength: maxCalls },
    )
    .chain((calls) =>
      fc.record({
        calls: fc.constant(calls),
        results: fc.array(RESULT, { minLength: calls.length, maxLength: calls.length }),
      }),
    );
const ONE_CALL = conversationOf(1);
const UP_TO_TWO_CALLS = conversationOf(2);
const TWO_CALLS = UP_TO_TWO_CALLS.filter((c) => c.calls.length === 2);

function request(c: Conversation): ChatRequest {
  return {
    messages: [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "Please use the tools." },
      {
        role: "assistant",
        content: null,
        tool_calls: c.calls.map((call, j) => ({
          // Nine alphanumerics: the Mistral templates raise on any other call id.
          id: `c${j}abcdefg`,
          type: "function" as const,
          // The JSON text OpenAI clients send (templates that read a mapping get it parsed).
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        })),
      },
      ...c.calls.map((call, j) => ({
        role: "tool" as const,
        tool_call_id: `c${j}abcdefg`,
        name: call.name,
        content: c.results[j] as string,
      })),
    ],
    tools: c.calls.map((call) => ({
      type: "function" as const,
      function: {
        name: call.name,
        description: "A tool.",
        parameters: {
          type: "object",
          properties: Object.fromEntries(Object.keys(call.args).map((k) => [k, { type: "string" }])),
        },
      },
    })),
    add_generation_prompt: true,
  };
}

/** What the rendering lost (empty: nothing), or the error the template raised. */
function lost(
  program: ReturnType<typeof compileTemplate>,
  special: Map<string, Value>,
  c: Conversation,
): string[] {
  let text: string;
  try {
    text = renderChatTemplate(program, request(c), special, { now: () => NOW }).output.text;
  } catch (e) {
    if (TokenizerError.isInstance(e)) return [`raised ${e.type}: ${e.message.slice(0, 80)}`];
    throw e;
  }
  const out: string[] = [];
  for (const call of c.calls) {
    if (!text.includes(call.name)) out.push(`name ${call.name}`);
    for (const v of Object.values(call.args)) if (!text.includes(String(v))) out.push(`argument ${v}`);
  }
  for (const r of c.results) if (!text.includes(r)) out.push(`result ${r}`);
  return out;
}

const files = dirs.flatMap((d) =>
  existsSync(d)
    ? readdirSync(d)
        .filter((f) => f.endsWith(".jinja"))
        .map((f) => ({ file: f, path: join(d, f) }))
    : [],
);

describe.skipIf(files.length === 0)("every real template gets every tool call and tool result", () => {
  for (const { file, path } of files) {
    test(file, () => {
      const special = new Map<string, Value>(
        Object.entries(SPECIAL.get(file) ?? { bos_token: "<s>", eos_token: "</s>" }).map(([k, v]) => [
          k,
          PStr.of(v),
        ]),
      );
      const program = compileTemplate(readFileSync(path, "utf8"));
      const why = CANNOT[file];
      if (why === undefined) {
        const single = SINGLE_CALL.has(file);
        if (single) {
          // Listed: two calls in one message are indeed not all written.
          const two = fc.sample(TWO_CALLS, { numRuns: 3, seed: 36 });
          expect(two.some((c) => lost(program, special, c).length > 0)).toBe(true);
        }
        fc.assert(
          fc.property(single ? ONE_CALL : UP_TO_TWO_CALLS, (c) => {
            expect(lost(program, special, c)).toEqual([]);
          }),
          { numRuns: 15, seed: 36 },
        );
        return;
      }
      // A listed template must really lose a field (else it belongs out of the list).
      const sample = fc.sample(UP_TO_TWO_CALLS, { numRuns: 5, seed: 36 });
      expect(sample.some((c) => lost(program, special, c).length > 0)).toBe(true);
    });
  }
});
