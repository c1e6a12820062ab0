// An SSE response with backpressure: write() returns false when the socket's buffer is full,
// and `ready()` then resolves on 'drain' (or on close), so the generation loop stops pulling
// IDs from the engine until the client has read. Nothing is buffered here beyond what node's
// stream holds (its highWaterMark plus one chunk).
import type { ServerResponse } from "node:http";

export class SseWriter {
  private blocked = false;
  private closed = false;
  private waiters: Array<() => void> = [];

  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.flushHeaders();
    res.on("drain", () => this.wake());
    res.on("close", () => {
      this.closed = true;
      this.wake();
    });
  }

  get isClosed(): boolean {
    return this.closed || this.res.destroyed;
  }

  write(text: string): void {
    if (this.isClosed) return;
    if (!this.res.write(text)) this.blocked = true;
  }

  /** Resolves at once unless the last write filled the buffer; then on 'drain' or close. */
  ready(): Promise<void> | undefined {
    if (!this.blocked || this.isClosed) return undefined;
    return new Promise((r) => this.waiters.push(r));
  }

  end(): void {
    if (!this.isClosed) this.res.end();
  }

  private wake(): void {
    this.blocked = false;
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }
}
