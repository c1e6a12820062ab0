// Decoder events -> plain text, for /v1/completions: content, reasoning and action text all
// go out as text (a raw completion has no chat structure to report); markers are never text.
import type { ActionEnd, DecoderError, DecoderHandler, StopInfo } from "@chatwire/stream-decoder";

export class TextSink implements DecoderHandler {
  stop: StopInfo | undefined;
  errors = 0;
  constructor(private readonly out: (text: string) => void) {}
  onMessageStart(_role: string, _metadata: string): void {}
  onText(text: string): void {
    this.out(text);
  }
  onReasoning(text: string): void {
    this.out(text);
  }
  onActionStart(_kind: string): void {}
  onActionText(text: string): void {
    this.out(text);
  }
  onActionEnd(_end: ActionEnd): void {}
  onMessageEnd(): void {}
  onStop(stop: StopInfo): void {
    this.stop = stop;
  }
  onError(_error: DecoderError): void {
    this.errors++;
  }
}
