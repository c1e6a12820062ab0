// DecoderOptions.streamToolCalls: where the body parsers (./syntax/) send tool_call_name /
// tool_call_arguments (OpenAI-style function name, then arguments text deltas). The caller's
// handler itself when it has both callbacks (calls go straight to it, `this` = the handler),
// else one small adapter with a no-op for the missing one. Which parser streams what is the
// grammar's body syntax of the block, never decided here. With the option off no sink exists
// and the parsers only parse at the block's close.
import type { DecoderHandler } from "./events.ts";
import type { ToolCallSink } from "./tool-call-scanner.ts";

function noop(): void {}

class ToolCallSinkAdapter implements ToolCallSink {
  private readonly target: DecoderHandler;
  private readonly name: (name: string) => void;
  private readonly args: (text: string) => void;

  constructor(handler: DecoderHandler) {
    this.target = handler;
    this.name = handler.onToolCallName ?? noop;
    this.args = handler.onToolCallArguments ?? noop;
  }

  onToolCallName(name: string): void {
    this.name.call(this.target, name);
  }

  onToolCallArguments(text: string): void {
    this.args.call(this.target, text);
  }
}

/** The tool-call events' sink over a handler (its callbacks were type-checked by coreHandler). */
export function toolCallSink(handler: DecoderHandler): ToolCallSink {
  if (typeof handler.onToolCallName === "function" && typeof handler.onToolCallArguments === "function")
    return handler as ToolCallSink;
  return new ToolCallSinkAdapter(handler);
}
