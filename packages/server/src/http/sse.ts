// An SSE response with backpressure: write() returns false when the socket's buffer is full,
// and `ready()` then resolves on 'drain' (or on close), so the generation loop stops pulling
// IDs from the engine until the client has read. Nothing is buffered here beyond what node's
// stream holds (its highWaterMark plus one chunk), except before `open()`.
//
// The status line and headers wait for `open()` (the engine's first ID, or its end), so a
// failure before any token can still be answered with a 5xx JSON error. What is written before
// that (the role chunk, a tool_choice prefill's events) is held and sent on open; it is bounded
// by the prefill, never by engine output.
import type { ServerResponse } from "node:http";

export class SseWriter {
  private blocked = false;
  private closed = false;
  private opened = false;
  private held: string[] = [];
  private waiters: Array<() => void> = [];

  constructor(private readonly res: ServerResponse) {
    res.on("drain", () => this.wake());
    res.on("close", () => {
      this.closed = true;
      this.held = [];
      this.wake();
    });
  }

  get isClosed(): boolean {
    return this.closed || this.res.destroyed;
  }

  /** Whether the 200 and the event-stream headers have gone out. */
  get isOpen(): boolean {
    return this.opened;
  }

  /** Sends the 200, the headers and what was written so far; once. */
  open(): void {
    if (this.opened || this.isClosed || this.res.headersSent) return;
    this.opened = true;
    this.res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    this.res.flushHeaders();
    const held = this.held;
    this.held = [];
    for (const text of held) this.write(text);
  }

  write(text: string): void {
    if (this.isClosed) return;
    if (!this.opened) {
      this.held.push(text);
      return;
    }
    if (!this.res.write(text)) this.blocked = true;
  }

  /** Resolves at once unless the last write filled the buffer; then on 'drain' or close. */
  ready(): Promise<void> | undefined {
    if (!this.blocked || this.isClosed) return undefined;
    return new Promise((r) => this.waiters.push(r));
  }

  /** Opens the stream if it is not yet (an answer with no token), then ends it. */
  end(): void {
    this.open();
    if (!this.isClosed) this.res.end();
  }

  private wake(): void {
    this.blocked = false;
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }
}
