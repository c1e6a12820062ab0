// The response_templates transformers' server falls back to for models whose tokenizer ships
// none, by config.json `model_type` (transformers src/transformers/cli/serving/utils.py,
// `_RESPONSE_TEMPLATE_FALLBACKS`, the start_anchor generation of the parser read at
// 0d7e95d96b4e187c651e2b2406ed98ed40d74963), as data. chatwire does not apply them on its own:
// the template-derived format is its fallback; a caller may put one into a tokenizer_config.json.

/** Qwen2 / Qwen2-MoE / Qwen2-VL / Qwen2.5-VL / Qwen3 / Qwen3-MoE / Qwen3-Next / Qwen3-VL(-MoE). */
export const QWEN_RESPONSE_TEMPLATE = {
  defaults: { role: "assistant" },
  start_anchor: "<|im_start|>assistant\n",
  fields: {
    thinking: { open: "<think>", close: "</think>", content: "text" },
    tool_calls: {
      open: "<tool_call>",
      close: "</tool_call>",
      repeats: true,
      content: "json",
      transform: { type: "function", function: "{content}" },
    },
    content: { close: ["<|im_end|>", "<|endoftext|>", "<|eot_id|>"], content: "text" },
  },
} as const;

/** Gemma 4. */
export const GEMMA4_RESPONSE_TEMPLATE = {
  defaults: { role: "assistant" },
  start_anchor: ["<|turn>model\n", "<tool_response|>"],
  fields: {
    thinking: { open: "<|channel>thought\n", close: "<channel|>", content: "text" },
    tool_calls: {
      open_pattern: "<\\|tool_call>call:(?P<name>\\w+)",
      close: "<tool_call|>",
      repeats: true,
      content: "json",
      content_args: { unquoted_keys: true, string_delims: [['<|"|>', '<|"|>']] },
      transform: { type: "function", function: { name: "{name}", arguments: "{content}" } },
    },
    content: { close: ["<turn|>", "<|tool_response>", "<eos>"], content: "text" },
  },
} as const;

/** model_type -> fallback, as transformers' server matches them. */
export const RESPONSE_TEMPLATE_FALLBACKS: Readonly<Record<string, object>> = {
  qwen2: QWEN_RESPONSE_TEMPLATE,
  qwen2_moe: QWEN_RESPONSE_TEMPLATE,
  qwen2_vl: QWEN_RESPONSE_TEMPLATE,
  qwen2_5_vl: QWEN_RESPONSE_TEMPLATE,
  qwen3: QWEN_RESPONSE_TEMPLATE,
  qwen3_moe: QWEN_RESPONSE_TEMPLATE,
  qwen3_next: QWEN_RESPONSE_TEMPLATE,
  qwen3_vl: QWEN_RESPONSE_TEMPLATE,
  qwen3_vl_moe: QWEN_RESPONSE_TEMPLATE,
  gemma4: GEMMA4_RESPONSE_TEMPLATE,
};
