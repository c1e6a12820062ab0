// finish_reason from the decoder's stop cause (docs/openai.md "finish_reason"):
//   max_tokens                                         -> "length"
//   a tool call was sent in this response, any other stop -> "tool_calls"
//     (Qwen3 <|im_end|> after </tool_call>, InternLM2 <|action_end|> / ChatGLM3 <|observation|>
//      given as stop tokens, parallel_tool_calls=false cutting after the first call)
//   eos, stop_token, stop_string, end_of_input (the engine ended) -> "stop"
import type { StopReason } from "@chatwire/stream-decoder";
import type { FinishReason } from "./wire.ts";

export function finishReason(stop: StopReason | undefined, toolCalls: number): FinishReason {
  if (stop === "max_tokens") return "length";
  if (toolCalls > 0) return "tool_calls";
  return "stop";
}
