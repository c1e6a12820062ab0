// Bounded concurrency with a bounded FIFO queue. acquire() answers at once with a slot, a
// place in the queue (resolved when a slot frees), or a refusal: "queue-full" (HTTP 429) or
// "draining" (HTTP 503, shutdown). A queued waiter that gives up (client gone, timeout) calls
// its cancel: it leaves the queue at once (its place counts for nobody: --max-queue and /health's
// `queued` see only waiters still there) and never takes a slot. State: `active` slots in use,
// `queue` waiters in order from `head`.

export type Refusal = "queue-full" | "draining";

export interface Slot {
  /** Gives the slot back (idempotent). */
  release(): void;
}

export interface Waiter {
  readonly slot: Promise<Slot>;
  /** Leaves the queue if still waiting; a slot already granted is released. */
  cancel(): void;
}

interface Pending {
  resolve(slot: Slot): void;
  cancelled: boolean;
  granted: Slot | undefined;
}

export class Limiter {
  private active = 0;
  private readonly queue: Pending[] = [];
  private head = 0;
  private draining = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly maxActive: number,
    private readonly maxQueue: number,
  ) {
    if (!Number.isInteger(maxActive) || maxActive < 1)
      throw new TypeError("maxActive must be an integer >= 1");
    if (!Number.isInteger(maxQueue) || maxQueue < 0) throw new TypeError("maxQueue must be an integer >= 0");
  }

  get inUse(): number {
    return this.active;
  }

  get queued(): number {
    return this.queue.length - this.head;
  }

  acquire(): Waiter | Refusal {
    if (this.draining) return "draining";
    if (this.active < this.maxActive) {
      this.active++;
      const slot = this.slot();
      return { slot: Promise.resolve(slot), cancel: () => slot.release() };
    }
    if (this.queued >= this.maxQueue) return "queue-full";
    let pending: Pending | undefined;
    const slot = new Promise<Slot>((resolve) => {
      pending = { resolve, cancelled: false, granted: undefined };
    });
    const p = pending as Pending;
    this.queue.push(p);
    return {
      slot,
      cancel: () => {
        if (p.granted !== undefined) p.granted.release();
        else if (!p.cancelled) {
          p.cancelled = true;
          // At most maxQueue waiters are queued: finding this one is bounded.
          const i = this.queue.indexOf(p, this.head);
          if (i >= 0) this.queue.splice(i, 1);
        }
      },
    };
  }

  /** Refuse new requests from now on; resolves when no slot is in use (queued ones still run). */
  drain(): Promise<void> {
    this.draining = true;
    if (this.active === 0 && this.queued === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private slot(): Slot {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.active--;
        this.next();
      },
    };
  }

  private next(): void {
    while (this.active < this.maxActive && this.head < this.queue.length) {
      const p = this.queue[this.head] as Pending;
      this.head++;
      if (p.cancelled) continue;
      this.active++;
      p.granted = this.slot();
      p.resolve(p.granted);
    }
    // Compact the consumed prefix once it dominates (amortised O(1) per waiter).
    if (this.head > 64 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (this.active === 0 && this.queued === 0 && this.idleWaiters.length > 0) {
      const w = this.idleWaiters;
      this.idleWaiters = [];
      for (const r of w) r();
    }
  }
}
