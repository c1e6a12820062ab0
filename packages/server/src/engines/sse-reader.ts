// Reads the `data:` payloads of an upstream server-sent-events body (vLLM, SGLang), one at a
// time. Lines are split as bytes arrive; a partial line is kept (joined once when its end
// comes, so chunk boundaries stay linear), bounded by maxLineBytes (an upstream that never ends
// a line is a protocol error, not unbounded memory). "[DONE]" ends the stream.
import { EngineError } from "../engine.ts";

export async function* sseDataLines(
  body: ReadableStream<Uint8Array>,
  maxLineBytes = 8 * 1024 * 1024,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending: string[] = [];
  let pendingLen = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let text = decoder.decode(value, { stream: true });
      for (;;) {
        const nl = text.indexOf("\n");
        if (nl === -1) {
          pending.push(text);
          pendingLen += text.length;
          if (pendingLen > maxLineBytes)
            throw new EngineError("engine-protocol", "upstream sent an over-long SSE line");
          break;
        }
        const line = (pending.length > 0 ? pending.join("") + text.slice(0, nl) : text.slice(0, nl)).replace(
          /\r$/,
          "",
        );
        pending = [];
        pendingLen = 0;
        text = text.slice(nl + 1);
        if (!line.startsWith("data:")) continue;
        const data = line.slice(5).trimStart();
        if (data === "[DONE]") return;
        yield data;
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => {});
  }
}
