// Reads the `data:` payloads of an upstream server-sent-events body (vLLM, SGLang), one at a
// time. Lines are split as bytes arrive; a partial line is kept (joined once when its end
// comes, so chunk boundaries stay linear), bounded by maxLineChars (an upstream that never ends
// a line is a protocol error, not unbounded memory). Lines end with LF or CRLF, as both servers
// write them; a bare CR inside a line is a protocol error (a CR-only stream would otherwise be
// one endless line). "[DONE]" ends the stream; a body that ends before it was cut short.
import { EngineError } from "../engine.ts";

export interface SseReadOptions {
  /** Longest line kept, in UTF-16 code units. Default 4 Mi. */
  readonly maxLineChars?: number;
  /** Told true just before each wait for upstream bytes and false when they arrive. */
  readonly onWait?: (waiting: boolean) => void;
}

export async function* sseDataLines(
  body: ReadableStream<Uint8Array>,
  o: SseReadOptions = {},
): AsyncGenerator<string> {
  const maxLine = o.maxLineChars ?? 4 * 1024 * 1024;
  const decoder = new TextDecoder();
  let pending: string[] = [];
  let pendingLen = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      o.onWait?.(true);
      const { value, done } = await reader.read();
      o.onWait?.(false);
      if (done) break;
      let text = decoder.decode(value, { stream: true });
      for (;;) {
        const nl = text.indexOf("\n");
        if (nl === -1) {
          pending.push(text);
          pendingLen += text.length;
          if (pendingLen > maxLine)
            throw new EngineError("engine-protocol", "upstream sent an over-long SSE line");
          break;
        }
        let line = pending.length > 0 ? pending.join("") + text.slice(0, nl) : text.slice(0, nl);
        if (line.endsWith("\r")) line = line.slice(0, -1);
        pending = [];
        pendingLen = 0;
        text = text.slice(nl + 1);
        if (line.includes("\r"))
          throw new EngineError("engine-protocol", "upstream SSE line contains a bare CR");
        if (!line.startsWith("data:")) continue;
        const data = line.slice(5).trimStart();
        if (data === "[DONE]") return;
        yield data;
      }
    }
    throw new EngineError("engine-protocol", "upstream event stream ended without data: [DONE]");
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}
