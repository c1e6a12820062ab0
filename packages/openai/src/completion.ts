// The non-streaming chat.completion, assembled from the very chunks a stream would carry (one
// code path for both modes: a ChunkSink). Content and reasoning pieces are joined once at the
// end (linear); tool calls are keyed by index.
import type { ChunkSink } from "./chunk-writer.ts";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessage,
  FinishReason,
  ToolCall,
  Usage,
} from "./wire.ts";

interface CallParts {
  id: string;
  name: string;
  args: string[];
}

export class CompletionBuilder implements ChunkSink {
  private id = "";
  private created = 0;
  private model = "";
  private readonly content: string[] = [];
  private readonly reasoning: string[] = [];
  private reasoningField: "reasoning_content" | "reasoning" = "reasoning_content";
  private readonly calls: CallParts[] = [];
  private finish: FinishReason | undefined;
  private usage: Usage | undefined;

  chunk(c: ChatCompletionChunk): void {
    this.id = c.id;
    this.created = c.created;
    this.model = c.model;
    if (c.usage) this.usage = c.usage;
    for (const choice of c.choices) {
      const d = choice.delta;
      if (d.content !== undefined && d.content !== "") this.content.push(d.content);
      if (d.reasoning_content !== undefined) this.reasoning.push(d.reasoning_content);
      if (d.reasoning !== undefined) {
        this.reasoningField = "reasoning";
        this.reasoning.push(d.reasoning);
      }
      for (const t of d.tool_calls ?? []) {
        if (t.id !== undefined) this.calls[t.index] = { id: t.id, name: t.function.name ?? "", args: [] };
        else this.calls[t.index]?.args.push(t.function.arguments);
      }
      if (choice.finish_reason !== null) this.finish = choice.finish_reason;
    }
  }

  /** The completion; `usage` is required here (the server always knows the counts). */
  result(usage: Usage): ChatCompletion {
    const toolCalls: ToolCall[] = this.calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.args.join("") },
    }));
    const text = this.content.join("");
    const message: ChatCompletionMessage = {
      role: "assistant",
      content: text === "" && toolCalls.length > 0 ? null : text,
      refusal: null,
      ...(this.reasoning.length > 0 ? { [this.reasoningField]: this.reasoning.join("") } : {}),
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    };
    return {
      id: this.id,
      object: "chat.completion",
      created: this.created,
      model: this.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: this.finish ?? "stop" }],
      usage: this.usage ?? usage,
    };
  }
}
