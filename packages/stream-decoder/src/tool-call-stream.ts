// DecoderOptions.streamToolCalls: a handler between the decoder and the caller's handler that
// adds tool_call_name / tool_call_arguments (OpenAI-style function name, then arguments text
// deltas). The decoder itself is unchanged by the option (with it off this class is never
// made, so the per-token path is exactly the plain one); with it on, every callback goes
// through one more (monomorphic, inlinable) call and action text through the scanner.
//
// Per action, chosen once at action start from the format and the kind:
//   Qwen3 "tool_call", InternLM2 "plugin": JSON -> ToolCallScanner, fed every action_text
//     chunk right after it is forwarded (so a chunk's action_text comes before its events)
//   ChatGLM3 tool (metadata = tool name): name at action start; ONE arguments delta,
//     JSON.stringify(call.arguments), at action end when the Python call parsed
//   interpreter / missing kind: nothing
import type { ActionEnd, DecoderError, DecoderHandler, StopInfo } from "./events.ts";
import { type CoreHandler, coreHandler } from "./handler.ts";
import type { DecoderFormat } from "./spec.ts";
import { ToolCallScanner, type ToolCallSink } from "./tool-call-scanner.ts";

const M_NONE = 0;
const M_JSON = 1;
const M_GLM = 2;

export class ToolCallStreamHandler implements Required<DecoderHandler>, ToolCallSink {
  private readonly h: CoreHandler;
  private readonly format: DecoderFormat;
  private readonly scanner: ToolCallScanner;
  private mode = M_NONE;

  constructor(handler: DecoderHandler, format: DecoderFormat, maxBufferedChars = 1_000_000) {
    this.h = coreHandler(handler);
    this.format = format;
    this.scanner = new ToolCallScanner(this, maxBufferedChars);
  }

  onToolCallName(name: string): void {
    this.h.onToolCallName?.(name);
  }

  onToolCallArguments(text: string): void {
    this.h.onToolCallArguments?.(text);
  }

  onMessageStart(role: string, metadata: string): void {
    this.h.onMessageStart(role, metadata);
  }

  onText(text: string): void {
    this.h.onText(text);
  }

  onReasoning(text: string): void {
    this.h.onReasoning(text);
  }

  onActionStart(kind: string): void {
    this.h.onActionStart(kind);
    switch (this.format) {
      case "qwen3":
      case "template":
        this.mode = kind === "tool_call" ? M_JSON : M_NONE;
        break;
      case "internlm2":
        this.mode = kind === "plugin" ? M_JSON : M_NONE;
        break;
      case "chatglm3":
        this.mode = kind === "interpreter" ? M_NONE : M_GLM;
        break;
    }
    if (this.mode === M_JSON) this.scanner.reset();
    else if (this.mode === M_GLM) this.onToolCallName(kind);
  }

  onActionText(text: string): void {
    this.h.onActionText(text);
    if (this.mode === M_JSON) this.scanner.feed(text);
  }

  onActionEnd(end: ActionEnd): void {
    // A parsed call nests at most MAX_NESTING_DEPTH deep (./limits.ts): this recursive
    // stringify cannot overflow the stack (deeper calls are action_end errors, no call).
    if (this.mode === M_GLM && end.call !== undefined)
      this.onToolCallArguments(JSON.stringify(end.call.arguments));
    this.mode = M_NONE;
    this.h.onActionEnd(end);
  }

  onMessageEnd(): void {
    this.h.onMessageEnd();
  }

  onStop(stop: StopInfo): void {
    this.h.onStop(stop);
  }

  onError(error: DecoderError): void {
    this.h.onError(error);
  }
}
