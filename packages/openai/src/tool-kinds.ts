// Which decoder actions are OpenAI function calls, per format. Decided once per action start.
//   qwen3      <tool_call> (kind "tool_call")
//   internlm2  <|action_start|><|plugin|> (kind "plugin"); <|interpreter|> is code, not a call
//   chatglm3   metadata line = the tool name; "interpreter" is code, not a call
//   gpt-oss    a header with recipient functions.NAME (kind "tool_call"); other recipients
//              (built-in tools such as browser.search, python) are not function calls
import type { FormatName } from "@chatwire/tokenizer";

export function isToolCallKind(format: FormatName, kind: string): boolean {
  switch (format) {
    case "qwen3":
      return kind === "tool_call";
    case "internlm2":
      return kind === "plugin";
    case "chatglm3":
      return kind !== "interpreter" && kind !== "";
    case "gpt-oss":
      return kind === "tool_call";
    default:
      return false;
  }
}
