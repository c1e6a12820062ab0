// Server-sent events framing for the stream: one `data:` line per chunk (JSON never contains a
// raw newline), a blank line after each, and the terminal `data: [DONE]`.

export function sseData(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

export const SSE_DONE = "data: [DONE]\n\n";
