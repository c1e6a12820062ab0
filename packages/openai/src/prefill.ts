// tool_choice "required" / named honoured by PREFILL, without constrained decoding: the
// assistant turn starts with the format's tool-call opening, appended to the prompt IDs, and
// the same IDs are fed to the decoder before the engine's (docs/openai.md "tool_choice").
// Structural tokens come from format code (the reserved ID constants), the name and the JSON
// around it through the ordinary encoder (encodeText never yields a reserved ID, so a tool
// named "<|im_end|>" stays text).
//
//   qwen3      required  <tool_call> "\n"
//              named     <tool_call> "\n{"name": NAME, "arguments":"
//   internlm2  required  <|action_start|> <|plugin|>
//              named     <|action_start|> <|plugin|> "\n{"name": NAME, "parameters":"
//   chatglm3   named     "NAME\n" (the metadata line after the prompt's <|assistant|>);
//              required  only with exactly one tool (= named); else a 400: the opening of a
//                        ChatGLM3 call IS the tool's name, and choosing among several needs
//                        constrained decoding.
// NAME is JSON.stringify(name) (what the renderers write for tool names). The text stops
// before the space that follows ":": in the BPE/SentencePiece pre-tokenisation that space
// belongs to the next token (" {"), so the model continues on a natural token boundary.
import { type ChatRequest, type ChatTokenizer, INTERNLM2_IDS, QWEN3_IDS } from "@chatwire/tokenizer";
import { RequestError } from "./errors.ts";
import type { ToolChoice } from "./tool-choice.ts";

export interface Prefill {
  /** Append to the prompt IDs; push into the decoder before the engine's IDs. */
  readonly ids: readonly number[];
  /** The prefill's text pieces (for the stop-string check). */
  readonly text: string;
}

const NONE: Prefill = { ids: [], text: "" };

const unsupported = (message: string) =>
  new RequestError("unsupported-parameter", `tool_choice: ${message}`, "tool_choice");

export function toolChoicePrefill(
  tok: ChatTokenizer,
  chat: ChatRequest,
  choice: ToolChoice,
  toolCount: number,
): Prefill | RequestError {
  if (choice.type === "auto" || choice.type === "none") return NONE;
  if (chat.add_generation_prompt === false || chat.continue_final_message === true)
    return unsupported(
      "required / named need an open assistant turn (add_generation_prompt, no continue_final_message)",
    );
  const enc = (s: string) => tok.encodeText(s).ids;
  const named = choice.type === "function" ? choice.name : undefined;
  switch (tok.format) {
    case "qwen3": {
      const text = named === undefined ? "\n" : `\n{"name": ${JSON.stringify(named)}, "arguments":`;
      return { ids: [QWEN3_IDS.toolCall, ...enc(text)], text };
    }
    case "internlm2": {
      if (named === undefined) return { ids: [INTERNLM2_IDS.actionStart, INTERNLM2_IDS.plugin], text: "" };
      const text = `\n{"name": ${JSON.stringify(named)}, "parameters":`;
      return { ids: [INTERNLM2_IDS.actionStart, INTERNLM2_IDS.plugin, ...enc(text)], text };
    }
    case "chatglm3": {
      if (named === undefined && toolCount !== 1)
        return unsupported(
          '"required" with several tools is not supported for ChatGLM3: its call opens with the tool\'s name, choosing one needs constrained decoding; name the function instead',
        );
      const name = named ?? onlyToolName(chat);
      if (name === undefined || name === "" || name === "interpreter" || /[\r\n]/.test(name))
        return unsupported('this tool name cannot open a ChatGLM3 call (empty, multi-line or "interpreter")');
      const text = `${name}\n`;
      return { ids: enc(text), text };
    }
    default:
      return unsupported(`required / named are not supported for the ${tok.format} format`);
  }
}

function onlyToolName(chat: ChatRequest): string | undefined {
  const t = chat.tools?.[0] as { function?: { name?: unknown } } | undefined;
  const n = t?.function?.name;
  return typeof n === "string" ? n : undefined;
}
