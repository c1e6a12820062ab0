// The one chat request every format accepts (docs/formats.md "The chat request"): the OpenAI /
// Hugging Face message shapes, plus each family's native fields. These types describe what a
// caller may send; the runtime validator (./normalize.ts) still takes `unknown` (untrusted JSON)
// and answers every deviation with TokenizerError("invalid-conversation") naming the field.
//
// The types are written so that the `openai` package's own `ChatCompletionMessageParam[]` and
// `ChatCompletionTool[]` are assignable without glue (interfaces without index signatures, role
// and part `type` unions wide enough for every OpenAI member). Shapes a family cannot express
// (image parts, custom tool calls, the deprecated `function` role) type-check and are typed
// errors at run time.

/** A JSON value as a caller sends it (depth limited at run time: MAX_JSON_DEPTH). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue | undefined;
}

/** `{type: "text", text}`: the only part type the three families render. */
export interface TextContentPart {
  readonly type: "text";
  readonly text: string;
}
/** Any other OpenAI part (image_url, input_audio, file, refusal): an `invalid-conversation` error. */
export interface OtherContentPart {
  readonly type: string;
}
export type ChatContentPart = TextContentPart | OtherContentPart;
/** null renders as ""; text parts are joined with "\n" (what vLLM does before any template). */
export type ChatContent = string | null | readonly ChatContentPart[];

export interface ToolCallFunction {
  readonly name: string;
  /** An object (rendered per family) or the JSON text OpenAI clients send. */
  readonly arguments: string | JsonObject;
  /** The openai SDK's parse helpers: accepted and ignored (any JSON). */
  readonly parsed_arguments?: unknown;
}
export interface ToolCall {
  /** Accepted; rendered only by the templates that write call ids. */
  readonly id?: string;
  /** The openai SDK's stream snapshots: accepted and ignored (an integer). */
  readonly index?: number;
  /** "function"; "custom" (an OpenAI custom tool call) is an `invalid-conversation` error. */
  readonly type?: "function" | "custom";
  readonly function?: ToolCallFunction;
}

export interface FunctionDefinition {
  readonly name: string;
  readonly description?: string;
  /** A JSON Schema object (any keys; depth limited). */
  readonly parameters?: { readonly [key: string]: unknown };
  readonly strict?: boolean | null;
}
export interface ToolDefinition {
  readonly type?: "function" | "custom";
  readonly function?: FunctionDefinition;
}

/** InternLM2 native: an action written verbatim after the content (the decoder's `raw`). */
export interface InternLM2Action {
  readonly kind: "plugin" | "interpreter";
  readonly text: string;
}

/**
 * Roles: `system`, `developer` (rendered as the family's system role: none of the three has a
 * developer role of its own), `user`, `assistant`, `tool`, and the native `environment`
 * (InternLM2) / `observation` (ChatGLM3). `function` (OpenAI's deprecated role) is an error.
 */
export type ChatRole =
  | "system"
  | "developer"
  | "user"
  | "assistant"
  | "tool"
  | "environment"
  | "observation"
  | "function";

export interface ChatMessage {
  readonly role: ChatRole;
  /** Required except on an assistant message (absent = null). */
  readonly content?: ChatContent;
  /** OpenAI participant name / tool name. InternLM2 renders it in the header; others ignore it. */
  readonly name?: string;
  readonly tool_calls?: readonly ToolCall[] | null;
  /** Assistant reasoning (Qwen3 renders it; InternLM2/ChatGLM3 ignore it). */
  readonly reasoning_content?: string | null;
  /** vLLM's newer name for reasoning_content (when several reasoning fields are given they must agree). */
  readonly reasoning?: string | null;
  /** gpt-oss's template name for the reasoning (the same rule). */
  readonly thinking?: string | null;
  /** Tool result: the call it answers (accepted and ignored by all three templates). */
  readonly tool_call_id?: string;
  /**
   * Fields of the assistant messages the openai SDK returns, accepted and ignored so that a
   * returned message can be appended as is (no template renders them). `function_call` must be
   * null.
   */
  readonly refusal?: string | null;
  readonly audio?: { readonly id: string } | null;
  readonly function_call?: { readonly name: string; readonly arguments: string } | null;
  readonly annotations?: readonly unknown[] | null;
  readonly parsed?: unknown;
  /** InternLM2 native (assistant). */
  readonly action?: InternLM2Action;
  /** ChatGLM3 native: the header metadata line (tool name / "interpreter"). */
  readonly metadata?: string;
  /** ChatGLM3 native: tools on the system message (rendered as json.dumps(tools, indent=4)). */
  readonly tools?: readonly JsonValue[];
}

/** Template variables (transformers' **kwargs): Qwen3 reads `enable_thinking`; others are ignored. */
export interface ChatTemplateKwargs {
  readonly enable_thinking?: boolean;
  readonly [key: string]: JsonValue | undefined;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolDefinition[] | null;
  /** Default true (unless continue_final_message). */
  readonly add_generation_prompt?: boolean;
  /** Prefill: leave the final message open after its content, as transformers does. */
  readonly continue_final_message?: boolean;
  readonly chat_template_kwargs?: ChatTemplateKwargs;
  /** Qwen3: the same as chat_template_kwargs.enable_thinking (kept for earlier callers). */
  readonly enable_thinking?: boolean;
  /**
   * The clock the template reads (strftime_now), pinned: a local date and time
   * "YYYY-MM-DDTHH:MM[:SS]" (default: the current local time). Native families that write a
   * date read it too (docs/formats.md "The clock").
   */
  readonly now?: string;
}

/** Deepest JSON nesting accepted anywhere in a request (arguments, tool schemas, kwargs). */
export const MAX_JSON_DEPTH = 64;
