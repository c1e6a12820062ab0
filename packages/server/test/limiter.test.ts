// The request limiter (src/limiter.ts): a bounded number of slots, then a bounded FIFO queue,
// then "queue-full". A queued waiter that gives up leaves the queue at once: it takes no slot
// and no place (docs/serve.md: "a client that leaves while queued never takes a slot").
import { describe, expect, it } from "vitest";
import { Limiter, type Slot, type Waiter } from "../src/limiter.ts";

const waiter = (w: Waiter | string): Waiter => {
  if (typeof w === "string") throw new Error(`refused: ${w}`);
  return w;
};

describe("Limiter", () => {
  it("slots, then a FIFO queue of maxQueue, then queue-full", async () => {
    const l = new Limiter(1, 2);
    const first = await waiter(l.acquire()).slot;
    const a = waiter(l.acquire());
    const b = waiter(l.acquire());
    expect(l.acquire()).toBe("queue-full");
    expect([l.inUse, l.queued]).toEqual([1, 2]);
    const order: string[] = [];
    void a.slot.then((s) => {
      order.push("a");
      s.release();
    });
    void b.slot.then((s) => {
      order.push("b");
      s.release();
    });
    first.release();
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(["a", "b"]);
    expect([l.inUse, l.queued]).toEqual([0, 0]);
  });

  it("waiters that leave free their places at once: no queue-full for nobody, and they never get a slot", async () => {
    const l = new Limiter(1, 2);
    const running = await waiter(l.acquire()).slot;
    const gone = [waiter(l.acquire()), waiter(l.acquire())];
    for (const w of gone) w.cancel();
    expect(l.queued).toBe(0);
    // The places are free again while the slot is still in use.
    const next = waiter(l.acquire());
    const after = waiter(l.acquire());
    expect(l.acquire()).toBe("queue-full");
    expect(l.queued).toBe(2);
    let granted: Slot | undefined;
    void next.slot.then((s) => {
      granted = s;
    });
    let cancelledGot = false;
    for (const w of gone)
      void w.slot.then(() => {
        cancelledGot = true;
      });
    running.release();
    await new Promise((r) => setTimeout(r, 0));
    expect(granted).toBeDefined();
    expect(cancelledGot).toBe(false);
    expect([l.inUse, l.queued]).toEqual([1, 1]);
    after.cancel();
    (granted as Slot).release();
    await new Promise((r) => setTimeout(r, 0));
    expect([l.inUse, l.queued]).toEqual([0, 0]);
  });

  it("many waiters that come and leave while a slot is held keep the queue bounded", () => {
    const l = new Limiter(1, 4);
    waiter(l.acquire());
    for (let i = 0; i < 10_000; i++) waiter(l.acquire()).cancel();
    expect(l.queued).toBe(0);
    expect((l as unknown as { queue: unknown[] }).queue.length).toBe(0);
  });

  it("cancel is idempotent, and a drain waits for the slots in use only", async () => {
    const l = new Limiter(1, 1);
    const s = await waiter(l.acquire()).slot;
    const w = waiter(l.acquire());
    w.cancel();
    w.cancel();
    expect(l.queued).toBe(0);
    let drained = false;
    void l.drain().then(() => {
      drained = true;
    });
    expect(l.acquire()).toBe("draining");
    await new Promise((r) => setTimeout(r, 0));
    expect(drained).toBe(false);
    s.release();
    await new Promise((r) => setTimeout(r, 0));
    expect(drained).toBe(true);
  });
});
