// The JSON shapes chatwire sends, as the OpenAI API documents them (chat.completion.chunk,
// chat.completion). Own types, so the package does not depend on the `openai` client; the
// tests check that the official client reassembles them.

/** Why a choice ended: see ./finish-reason.ts for the mapping from the decoder's stop. */
export type FinishReason = "stop" | "length" | "tool_calls";

export interface Usage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export interface ToolCallDelta {
  readonly index: number;
  readonly id?: string;
  readonly type?: "function";
  readonly function: { readonly name?: string; readonly arguments: string };
}

export interface ChunkDelta {
  readonly role?: "assistant";
  readonly content?: string;
  readonly reasoning_content?: string;
  readonly reasoning?: string;
  readonly tool_calls?: readonly ToolCallDelta[];
}

export interface ChunkChoice {
  readonly index: 0;
  readonly delta: ChunkDelta;
  readonly logprobs: null;
  readonly finish_reason: FinishReason | null;
}

export interface ChatCompletionChunk {
  readonly id: string;
  readonly object: "chat.completion.chunk";
  readonly created: number;
  readonly model: string;
  readonly choices: readonly ChunkChoice[];
  /** null on every chunk but the last when stream_options.include_usage; absent otherwise. */
  readonly usage?: Usage | null;
}

export interface ToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface ChatCompletionMessage {
  readonly role: "assistant";
  readonly content: string | null;
  readonly refusal: null;
  readonly reasoning_content?: string;
  readonly reasoning?: string;
  readonly tool_calls?: readonly ToolCall[];
}

export interface ChatCompletion {
  readonly id: string;
  readonly object: "chat.completion";
  readonly created: number;
  readonly model: string;
  readonly choices: readonly [
    {
      readonly index: 0;
      readonly message: ChatCompletionMessage;
      readonly logprobs: null;
      readonly finish_reason: FinishReason;
    },
  ];
  readonly usage: Usage;
}
