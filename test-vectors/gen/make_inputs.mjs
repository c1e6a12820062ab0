// Writes test-vectors/inputs.json and test-vectors/conversations.json (the shared INPUT tables).
// Run once by hand (`node test-vectors/gen/make_inputs.mjs && npx -y pnpm@10.34.9 exec biome format
// --write test-vectors/inputs.json test-vectors/conversations.json`); the outputs are committed and
// every generator reads them. Golden outputs never come from this file, only from the
// reference tools run by ../generate.js.
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { a, functionTool, objectSchema, s, u } from "./gen_common.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");

const QWEN3_ADDED = [
  "<|endoftext|>",
  "<|im_start|>",
  "<|im_end|>",
  "<|object_ref_start|>",
  "<|object_ref_end|>",
  "<|box_start|>",
  "<|box_end|>",
  "<|quad_start|>",
  "<|quad_end|>",
  "<|vision_start|>",
  "<|vision_end|>",
  "<|vision_pad|>",
  "<|image_pad|>",
  "<|video_pad|>",
  "<tool_call>",
  "</tool_call>",
  "<|fim_prefix|>",
  "<|fim_middle|>",
  "<|fim_suffix|>",
  "<|fim_pad|>",
  "<|repo_name|>",
  "<|file_sep|>",
  "<tool_response>",
  "</tool_response>",
  "<think>",
  "</think>",
];
const ILM_SPECIAL = [
  "<|im_start|>",
  "<|im_end|>",
  "<|action_start|>",
  "<|action_end|>",
  "<|plugin|>",
  "<|interpreter|>",
  "<s>",
  "</s>",
  "<unk>",
];
const ILM_UNUSED = [141, 142, 143, 144, 145, 146, 5, 0].map((n) => `[UNUSED_TOKEN_${n}]`);
const GLM_SPECIAL = [
  "[MASK]",
  "[gMASK]",
  "[sMASK]",
  "sop",
  "eop",
  "<|system|>",
  "<|user|>",
  "<|assistant|>",
  "<|observation|>",
];
const ALL_RESERVED = [...new Set([...ILM_SPECIAL, ...ILM_UNUSED, ...GLM_SPECIAL, ...QWEN3_ADDED])];

const inputs = [
  ["simple", "Hello world"],
  ["simple_punct", "Hello, world! How are you?"],
  ["leading_space", " Hello world"],
  ["trailing_space", "Hello world "],
  ["leading_trailing_spaces", "   leading and trailing   "],
  ["space_only", " "],
  ["spaces_run", "a    b     c"],
  ["only_spaces_run", "        "],
  ["tabs", "\tindented\t\ttabs\t"],
  ["newline_single", "\n"],
  ["newlines", "line one\nline two\n\nline four\n"],
  ["crlf", "windows\r\nline\r\nendings\r\n"],
  ["mixed_whitespace", " \t \n\r\n \u00a0\u3000 x \u2003\u2009y\u000b\u000c"],
  ["two_spaces_newline", "  two  spaces\n\nnewline"],
  ["chinese", "你好，世界"],
  [
    "chinese_long",
    "大语言模型的对话格式需要仔细处理特殊标记，以防止提示注入攻击。今天天气很好，我们去公园散步吧！",
  ],
  ["japanese", "こんにちは、世界。カタカナとひらがなと漢字を混ぜた文です。"],
  ["korean", "안녕하세요 세계! 한국어 문장입니다."],
  ["mixed_cjk_latin", "ChatGLM3是一个开源双语模型 (open bilingual), version 3.0。"],
  ["fullwidth", "ＡＢＣ ｚ Ｅ——……１２３"],
  ["emoji", "😀 emoji"],
  ["emoji_many", "🎉🔥👍 Great job! ❤️✨"],
  ["emoji_zwj", "👨‍👩‍👧‍👦 family, 👩‍💻 coder, 🏳️‍🌈 flag"],
  ["emoji_flags", "🇨🇳🇺🇸🇯🇵🇰🇷 flags"],
  ["emoji_skin_tones", "👋🏻👋🏼👋🏽👋🏾👋🏿"],
  ["byte_fallback_ext_b", "𠮷野家 𪚥 𰻞𰻞面 𠀀"],
  ["tibetan", "བཀྲ་ཤིས་བདེ་ལེགས།"],
  ["math_alnum", "𝐀𝐁𝐂 𝑥𝑦𝑧 𝔸𝔹ℂ 𝟘𝟙𝟚"],
  ["rare_scripts", "ᚠᛇᚻ ꦧꦱꦗꦮ 𓀀𓂀 ߒߞߏ"],
  ["digits", "0123456789"],
  ["long_number", "3.14159265358979323846264338327950288419716939937510 and 1,000,000,000"],
  ["numbers_mixed", "In 2024, 42% of 1.5e10 items cost $19.99 (≈ ¥143)."],
  ["control_chars", "a\u0000b\u0007c\u001bd\u007fe"],
  ["nul_only", "\u0000"],
  ["escape_sequence", "\u001b[31mred\u001b[0m"],
  ["combining_nfc", "caf\u00e9 na\u00efve \u00c5ngstr\u00f6m"],
  ["combining_nfd", "cafe\u0301 nai\u0308ve A\u030angstro\u0308m"],
  ["combining_stack", "Z\u0351\u036b\u0343a\u0310\u0306l\u0327g\u0335o"],
  ["hangul_nfd", "\u1112\u1161\u11ab\u1100\u1173\u11af"],
  ["rtl_arabic", "مرحبا بالعالم"],
  ["rtl_hebrew_mixed", "שלום world עולם 123"],
  ["bidi_controls", "abc\u202edef\u202c\u200e\u200f\u2066x\u2069"],
  ["zero_width", "zero\u200bwidth\u200cnon\u200djoiner\ufeffbom"],
  [
    "code_python",
    'def greet(name: str) -> str:\n    """Say hi."""\n    return f"Hello, {name}!"\n\nif __name__ == "__main__":\n    print(greet("世界"))\n',
  ],
  [
    "code_json",
    '{"name": "get_weather", "arguments": {"location": "Shanghai", "unit": "celsius", "days": [1, 2, 3], "ok": true, "x": null}}',
  ],
  ["code_tool_call", '```python\ntool_call(location="beijing", unit="celsius")\n```'],
  ["url_email", "See https://example.com/path?q=1&r=%E4%BD%A0 or mail a.b@example.org"],
  ["empty", ""],
  ["replacement_char", "bad \ufffd char"],
  ["private_use", "\ue000\uf8ff\u{f0000}"],
  ["noncharacters", "\ufdd0\ufffe\uffff"],
  ["max_codepoint", "\u{10ffff}"],
  // Strings that look like reserved tokens.
  ["special_ilm_all_adjacent", ILM_SPECIAL.join("")],
  ["special_ilm_chat_text", "<s><|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"],
  ["special_ilm_unused_chat", "[UNUSED_TOKEN_146]user\nhi[UNUSED_TOKEN_145]\n"],
  ["special_ilm_unused_all", ILM_UNUSED.join(" ")],
  ["special_ilm_action", 'Sure<|action_start|><|plugin|>\n{"name": "x"}<|action_end|>\n<|interpreter|>'],
  ["special_glm_all_adjacent", GLM_SPECIAL.join("")],
  [
    "special_glm_chat_text",
    "[gMASK]sop<|system|>\nYou are helpful.<|user|>\nhi<|assistant|>\nhello<|observation|>",
  ],
  ["special_glm_sop_words", "sop sops isop sop. eop eops"],
  ["special_qwen3_all_adjacent", QWEN3_ADDED.join("")],
  ["special_qwen3_all_spaced", QWEN3_ADDED.join(" ")],
  [
    "special_qwen3_chat_text",
    '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\nhmm\n</think>\n\n<tool_call>\n{"name": "f"}\n</tool_call><|im_end|>',
  ],
  ["special_qwen3_tool_response", '<tool_response>\n{"ok": true}\n</tool_response><|endoftext|>'],
  [
    "special_embedded_in_text",
    "Please ignore <|im_end|> and say <|im_start|>system hello</s> then [gMASK] or <think>.",
  ],
  ["special_with_spaces", " <|im_start|> user <|im_end|> \n <s> </s> <think> </think> "],
  [
    "special_partial",
    "<|im_st <|im_end <|im_start| <im_start|> <|action_start [UNUSED_TOKEN_14 <think </tool_call [gMAS <|user",
  ],
  ["special_nested", "<|im_<|im_end|>start|> <<|im_start|>|> [[UNUSED_TOKEN_145]]"],
  ["special_case_variants", "<|IM_START|> <|Im_End|> <THINK> [GMASK] SOP [unused_token_146]"],
  ["special_in_code", 'tok = "<|im_end|>"  # stop\nif s.endswith("</think>"): pass\n'],
  ["special_chinese_mix", "用户说：<|im_start|>你好<|im_end|>，然后<|assistant|>回答。"],
];
for (const tok of ALL_RESERVED) {
  const slug = tok
    .replace(/^<\//, "close_")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_|_$/g, "")
    .toLowerCase();
  inputs.push([`reserved_${slug}`, tok]);
}
// Make sure slugs are unique.
{
  const seen = new Set();
  for (const [name] of inputs) {
    if (seen.has(name)) throw new Error(`duplicate input name ${name}`);
    seen.add(name);
  }
}
// A long mixed input (~8k chars) built from the others in a fixed order.
{
  const parts = [];
  let i = 0;
  let len = 0;
  const base = inputs.filter(([n]) => !n.startsWith("reserved_") && n !== "empty");
  while (len < 8000) {
    const t = base[i % base.length][1];
    parts.push(t);
    len += t.length + 1;
    i += 7;
  }
  inputs.push(["long_mixed", parts.join(i % 2 === 0 ? " " : "\n")]);
}

const inputsJson = { inputs: inputs.map(([name, text]) => ({ name, text })) };
writeFileSync(resolve(root, "inputs.json"), `${JSON.stringify(inputsJson, null, 2)}\n`);
console.log(`inputs.json: ${inputs.length} inputs`);

// ---- conversations.json: benign chat requests in chatwire's native schema (cli-contract.md) ----
const weatherTool = functionTool(
  "get_weather",
  "Get the current weather for a city.",
  objectSchema(
    {
      location: { type: "string", description: "City name, e.g. Beijing" },
      unit: { type: "string", enum: ["celsius", "fahrenheit"] },
    },
    ["location"],
  ),
);
const timeTool = functionTool(
  "get_time",
  "Current time in a time zone.",
  objectSchema({ tz: { type: "string" } }, ["tz"]),
);
const glmWeatherTool = {
  name: "get_weather",
  description: "Get the current weather for `city_name`",
  parameters: {
    type: "object",
    properties: { location: { description: "The city name", type: "string" }, unit: { type: "string" } },
    required: ["location"],
  },
};
const ilmPluginSchema = JSON.stringify([
  {
    name: "get_current_weather",
    description: "Get the current weather in a given location",
    parameters: {
      type: "object",
      properties: { location: { type: "string", description: "The city, e.g. Shanghai" } },
      required: ["location"],
    },
  },
]);

const conv = (name, format, request) => ({ name, format, request });

const conversations = [
  // InternLM2
  conv("ilm_single_turn", "internlm2", { messages: [u("Hello")] }),
  conv("ilm_multi_turn", "internlm2", {
    messages: [u("What is 2+2?"), a("2+2 equals 4."), u("And times 3?")],
    add_generation_prompt: true,
  }),
  conv("ilm_system", "internlm2", {
    messages: [s("You are InternLM2-Chat, a helpful assistant."), u("Introduce yourself briefly.")],
  }),
  conv("ilm_non_ascii", "internlm2", {
    messages: [u("你好！请用中文介绍一下上海。😀"), a("上海是中国的经济中心之一。"), u("谢谢")],
  }),
  conv("ilm_no_generation_prompt", "internlm2", {
    messages: [u("Say hi"), a("Hi there!")],
    add_generation_prompt: false,
  }),
  conv("ilm_plugin_call", "internlm2", {
    messages: [
      s("You are a helpful assistant."),
      s(ilmPluginSchema, { name: "plugin" }),
      u("What's the weather in Shanghai?"),
      a("I need to use the get_current_weather tool.", {
        action: {
          kind: "plugin",
          text: '\n{"name": "get_current_weather", "parameters": {"location": "Shanghai"}}',
        },
      }),
      { role: "environment", content: '{"temperature": 22}', name: "plugin" },
      a("It is 22 degrees Celsius in Shanghai."),
    ],
    add_generation_prompt: false,
  }),
  conv("ilm_interpreter", "internlm2", {
    messages: [
      s("You can use a Jupyter code interpreter.", { name: "interpreter" }),
      u("Compute 12 factorial."),
      a("Let me compute it.", {
        action: { kind: "interpreter", text: "\n```python\nimport math\nprint(math.factorial(12))\n```" },
      }),
      { role: "environment", content: "479001600", name: "interpreter" },
    ],
    add_generation_prompt: true,
  }),
  conv("ilm_file_upload", "internlm2", {
    messages: [u('[{"path": "data.csv", "size": "10K"}]', { name: "file" }), u("Summarize the file.")],
  }),
  conv("ilm_multiple_system", "internlm2", {
    messages: [
      s("You are a helpful assistant."),
      s("Use the interpreter for math.", { name: "interpreter" }),
      s(ilmPluginSchema, { name: "plugin" }),
      u("Hi"),
    ],
  }),
  conv("ilm_whitespace", "internlm2", {
    messages: [u("  indented\n\ttab\r\nline  "), a("\nnew line first"), u("")],
  }),
  // ChatGLM3
  conv("glm_single_turn", "chatglm3", { messages: [u("Hello")] }),
  conv("glm_multi_turn", "chatglm3", {
    messages: [u("What is 2+2?"), a("2+2 equals 4."), u("And times 3?")],
    add_generation_prompt: true,
  }),
  conv("glm_system", "chatglm3", {
    messages: [
      s(
        "You are ChatGLM3, a large language model trained by Zhipu.AI. Follow the user's instructions carefully.",
      ),
      u("Introduce yourself briefly."),
    ],
  }),
  conv("glm_non_ascii", "chatglm3", {
    messages: [u("你好！请用中文介绍一下北京。😀"), a("北京是中国的首都。"), u("谢谢")],
  }),
  conv("glm_no_generation_prompt", "chatglm3", {
    messages: [u("Say hi"), a("Hi there!")],
    add_generation_prompt: false,
  }),
  conv("glm_tool_call", "chatglm3", {
    messages: [
      {
        role: "system",
        content: "Answer the following questions as best as you can. You have access to the following tools:",
        tools: [glmWeatherTool],
      },
      u("今天北京的天气怎么样？"),
      a('```python\ntool_call(location="beijing", unit="celsius")\n```', { metadata: "get_weather" }),
      { role: "observation", content: '{"temperature": 22, "description": "晴"}' },
      a("北京今天晴，气温 22 摄氏度。"),
    ],
    add_generation_prompt: false,
  }),
  conv("glm_tool_call_pending", "chatglm3", {
    messages: [
      {
        role: "system",
        content: "Answer the following questions as best as you can. You have access to the following tools:",
        tools: [glmWeatherTool],
      },
      u("What's the weather in Beijing?"),
      a("Let me check the weather for you."),
      a('```python\ntool_call(location="beijing", unit="celsius")\n```', { metadata: "get_weather" }),
      { role: "observation", content: '{"temperature": 22}' },
    ],
  }),
  conv("glm_interpreter", "chatglm3", {
    messages: [
      s("你是一位智能AI助手，你叫ChatGLM，你连接着一台电脑，但请注意不能联网。"),
      u("Compute 12 factorial."),
      a("```python\nimport math\nprint(math.factorial(12))\n```", { metadata: "interpreter" }),
      { role: "observation", content: "```result\n479001600\n```" },
      a("12! = 479001600."),
      u("Thanks"),
    ],
  }),
  conv("glm_file_upload", "chatglm3", {
    messages: [u("#File: /mnt/data/data.csv\n#Size: 1024\n#File uploaded\nPlease summarize it.")],
  }),
  conv("glm_whitespace", "chatglm3", {
    messages: [u("  indented\n\ttab\r\nline  "), a("\nnew line first", { metadata: "" }), u("")],
  }),
  // Qwen3
  conv("qwen3_single_turn", "qwen3", { messages: [u("Hello")], add_generation_prompt: true }),
  conv("qwen3_multi_turn", "qwen3", {
    messages: [u("What is 2+2?"), a("2+2 equals 4."), u("And times 3?")],
    add_generation_prompt: true,
  }),
  conv("qwen3_system", "qwen3", {
    messages: [s("You are Qwen, a helpful assistant."), u("Introduce yourself briefly.")],
    add_generation_prompt: true,
  }),
  conv("qwen3_non_ascii", "qwen3", {
    messages: [u("你好！请用中文介绍一下杭州。😀"), a("杭州以西湖闻名。"), u("ありがとう")],
    add_generation_prompt: true,
  }),
  conv("qwen3_no_generation_prompt", "qwen3", {
    messages: [u("Say hi"), a("Hi there!", { reasoning_content: "The user wants a greeting." })],
    add_generation_prompt: false,
  }),
  conv("qwen3_tools_with_system", "qwen3", {
    messages: [s("You are a weather bot."), u("Weather in Paris?")],
    tools: [weatherTool, timeTool],
    add_generation_prompt: true,
  }),
  conv("qwen3_tools_no_system", "qwen3", {
    messages: [u("What time is it in Tokyo?")],
    tools: [timeTool],
    add_generation_prompt: true,
  }),
  conv("qwen3_tool_call_roundtrip", "qwen3", {
    messages: [
      s("You are a weather bot."),
      u("Weather in Paris?"),
      a("", {
        reasoning_content: "I should call get_weather.",
        tool_calls: [
          {
            type: "function",
            function: { name: "get_weather", arguments: { location: "Paris", unit: "celsius" } },
          },
        ],
      }),
      { role: "tool", content: '{"temperature": 18, "sky": "cloudy"}' },
      a("It is 18 °C and cloudy in Paris.", { reasoning_content: "Report the result." }),
    ],
    tools: [weatherTool],
    add_generation_prompt: false,
  }),
  conv("qwen3_parallel_tool_calls", "qwen3", {
    messages: [
      u("Weather and time in Tokyo?"),
      a("Let me check both.", {
        tool_calls: [
          { type: "function", function: { name: "get_weather", arguments: { location: "Tokyo" } } },
          { type: "function", function: { name: "get_time", arguments: { tz: "Asia/Tokyo" } } },
        ],
      }),
      { role: "tool", content: '{"temperature": 25}' },
      { role: "tool", content: '{"time": "14:05"}' },
    ],
    tools: [weatherTool, timeTool],
    add_generation_prompt: true,
  }),
  conv("qwen3_reasoning_history", "qwen3", {
    messages: [
      u("Is 17 prime?"),
      a("Yes, 17 is prime.", { reasoning_content: "17 has no divisors other than 1 and itself." }),
      u("And 21?"),
      a("No, 21 = 3 × 7.", { reasoning_content: "21 is divisible by 3." }),
    ],
    add_generation_prompt: false,
  }),
  conv("qwen3_whitespace", "qwen3", {
    messages: [u("  indented\n\ttab\r\nline  "), a("\nnew line first"), u("")],
    add_generation_prompt: true,
  }),
];
writeFileSync(resolve(root, "conversations.json"), `${JSON.stringify({ conversations }, null, 2)}\n`);
console.log(`conversations.json: ${conversations.length} conversations`);
