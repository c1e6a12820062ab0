// What the decoder reports. On the hot path events go to a handler object (no event object
// per token); DecoderEvent is the union-of-objects form (the CLI's JSON, and ./stream).
import type { ActionCall } from "./action-parse.ts";

/** Why a stream stopped. "end_of_input": end() was called before any other stop. */
export type StopReason = "eos" | "stop_token" | "stop_string" | "max_tokens" | "end_of_input";

/** Protocol/limit problems; reported, never thrown; decoding goes on. */
export type DecoderErrorCode =
  | "unknown-token"
  | "unexpected-reserved-token"
  | "missing-action-kind"
  | "text-outside-message"
  /** Non-whitespace text inside a container block, between its child blocks. */
  | "text-outside-block"
  | "buffer-overflow"
  /** gpt-oss: a harmony header that does not parse (what did parse is still used). */
  | "invalid-header"
  /** gpt-oss: a channel other than analysis / commentary / final (its content is text). */
  | "unknown-channel";

/**
 * gpt-oss: the parsed harmony header of a message (`<|start|>ROLE[ to=R]<|channel|>C[ TYPE]<|message|>`).
 * Absent fields were not in the header. Other formats pass no header.
 */
export interface MessageHeader {
  readonly channel?: string;
  readonly recipient?: string;
  /** "<|constrain|>json" or a bare type such as "json" / "code". */
  readonly contentType?: string;
}

export interface ActionEnd {
  readonly kind: string;
  readonly raw: string;
  readonly call?: ActionCall;
  readonly error?: string;
}

export interface StopInfo {
  readonly reason: StopReason;
  readonly token?: number;
  readonly text?: string;
}

export interface DecoderError {
  readonly code: DecoderErrorCode;
  readonly token?: number;
  readonly message: string;
}

/**
 * Where the events go. Every callback is optional (a missing one is a no-op, decided once when
 * the decoder is created); they are called with the handler as `this` (./handler.ts).
 */
export interface DecoderHandler {
  /** `header`: gpt-oss only (structured harmony header fields). */
  onMessageStart?(role: string, metadata: string, header?: MessageHeader): void;
  onText?(text: string): void;
  onReasoning?(text: string): void;
  onActionStart?(kind: string): void;
  onActionText?(text: string): void;
  onActionEnd?(end: ActionEnd): void;
  onMessageEnd?(): void;
  /** Exactly once per stream, last. */
  onStop?(stop: StopInfo): void;
  onError?(error: DecoderError): void;
  /**
   * DecoderOptions.streamToolCalls only: the called function's name, as soon as it is known
   * (a JSON call: when its "name" string is complete; ChatGLM3: at action start).
   */
  onToolCallName?(name: string): void;
  /**
   * DecoderOptions.streamToolCalls only: the next piece of the call's arguments JSON text
   * (never empty; the pieces of one action concatenate to the raw arguments value).
   */
  onToolCallArguments?(text: string): void;
}

export type DecoderEvent =
  | ({ readonly type: "message_start"; readonly role: string; readonly metadata: string } & MessageHeader)
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "reasoning"; readonly text: string }
  | { readonly type: "action_start"; readonly kind: string }
  | { readonly type: "action_text"; readonly text: string }
  | ({ readonly type: "action_end" } & ActionEnd)
  | { readonly type: "tool_call_name"; readonly name: string }
  | { readonly type: "tool_call_arguments"; readonly text: string }
  | { readonly type: "message_end" }
  | ({ readonly type: "stop" } & StopInfo)
  | ({ readonly type: "error" } & DecoderError);

/** A handler that turns every callback into a DecoderEvent passed to `sink`. */
export function eventHandler(sink: (event: DecoderEvent) => void): DecoderHandler {
  return {
    onMessageStart: (role, metadata, header) =>
      sink(
        header === undefined
          ? { type: "message_start", role, metadata }
          : { type: "message_start", role, metadata, ...header },
      ),
    onText: (text) => sink({ type: "text", text }),
    onReasoning: (text) => sink({ type: "reasoning", text }),
    onActionStart: (kind) => sink({ type: "action_start", kind }),
    onActionText: (text) => sink({ type: "action_text", text }),
    onActionEnd: (end) => sink({ type: "action_end", ...end }),
    onMessageEnd: () => sink({ type: "message_end" }),
    onStop: (stop) => sink({ type: "stop", ...stop }),
    onError: (error) => sink({ type: "error", ...error }),
    onToolCallName: (name) => sink({ type: "tool_call_name", name }),
    onToolCallArguments: (text) => sink({ type: "tool_call_arguments", text }),
  };
}

/** A handler collecting DecoderEvents into `events`. */
export function eventCollector(): DecoderHandler & { readonly events: DecoderEvent[] } {
  const events: DecoderEvent[] = [];
  return { ...eventHandler((e) => events.push(e)), events };
}
