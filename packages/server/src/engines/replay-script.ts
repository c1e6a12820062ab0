// The built-in scripted generation of `chatwire serve --engine replay`: what a model of the
// tokenizer's family would emit for a weather question, built from the format's reserved IDs
// and ordinary text encoded by chatwire (never a marker string through the text encoder).
//   qwen3      <think>reasoning</think> content, two parallel <tool_call>s, <|im_end|>
//   internlm2  content, one <|action_start|><|plugin|> call, <|action_end|>, <|im_end|>
//   chatglm3   metadata line "get_weather", ```python tool_call(...)```, <|observation|>
//   others     derived from the family's own renderer (replay-derive.ts): the assistant turn of a
//              rendered conversation after its generation prompt, cut at its first stop ID
import { CHATGLM3_IDS, type ChatTokenizer, INTERNLM2_IDS, QWEN3_IDS } from "@chatwire/tokenizer";
import { derivedReplayScript } from "./replay-derive.ts";

export function builtinReplayScript(tok: ChatTokenizer): number[] {
  const t = (s: string) => tok.encodeText(s).ids;
  switch (tok.format) {
    case "qwen3":
      return [
        QWEN3_IDS.think,
        ...t("\nThe user asks about the weather in two cities; I will call the tool twice.\n"),
        QWEN3_IDS.thinkEnd,
        ...t("\n\nLet me check the weather in Paris and Tokyo — one moment.\n"),
        QWEN3_IDS.toolCall,
        ...t('\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n'),
        QWEN3_IDS.toolCallEnd,
        ...t("\n"),
        QWEN3_IDS.toolCall,
        ...t('\n{"name": "get_weather", "arguments": {"city": "Tokyo", "unit": "celsius"}}\n'),
        QWEN3_IDS.toolCallEnd,
        QWEN3_IDS.imEnd,
      ];
    case "internlm2":
      return [
        ...t("Let me check the weather in Paris."),
        INTERNLM2_IDS.actionStart,
        INTERNLM2_IDS.plugin,
        ...t('\n{"name": "get_weather", "parameters": {"city": "Paris", "unit": "celsius"}}'),
        INTERNLM2_IDS.actionEnd,
        ...t("\n"),
        INTERNLM2_IDS.imEnd,
      ];
    case "chatglm3":
      return [
        ...t("get_weather\n ```python\ntool_call(city='Paris', unit='celsius')\n```"),
        CHATGLM3_IDS.observation,
      ];
    default:
      return derivedReplayScript(tok);
  }
}

/** A plain answer, no reasoning and no tool call: "Hello! How can I help you today?" + EOS. */
export function plainReplayScript(tok: ChatTokenizer): number[] {
  // Other families (data only, families/): their first EOS ID.
  const eos =
    tok.format === "qwen3"
      ? QWEN3_IDS.imEnd
      : tok.format === "internlm2"
        ? INTERNLM2_IDS.imEnd
        : tok.format === "chatglm3"
          ? CHATGLM3_IDS.user
          : tok.registry.eosIds[0];
  const lead = tok.format === "chatglm3" ? "\n " : "";
  return [
    ...tok.encodeText(`${lead}Hello! How can I help you today?`).ids,
    ...(eos === undefined ? [] : [eos]),
  ];
}
