// Waiting for a generation slot on behalf of one HTTP request: refused at once (429 queue
// full, 503 draining), or queued until a slot frees, the client leaves, or the deadline passes.
// Once the slot is granted the request's body bytes leave the pre-slot budget (http/budget.ts).
import type { IncomingMessage } from "node:http";
import type { Lease } from "./http/budget.ts";
import type { Limiter, Slot } from "./limiter.ts";

export type SlotResult =
  | { readonly slot: Slot }
  | { readonly refused: "queue-full" | "draining" | "gone" | "timeout" };

export async function waitForSlot(
  limiter: Limiter,
  req: IncomingMessage,
  deadline: AbortSignal,
  held: Lease,
): Promise<SlotResult> {
  const w = limiter.acquire();
  if (typeof w === "string") return { refused: w };
  let onGone: (() => void) | undefined;
  const gone = new Promise<"gone" | "timeout">((resolve) => {
    onGone = () => resolve(deadline.aborted ? "timeout" : "gone");
    req.socket.once("close", onGone);
    deadline.addEventListener("abort", onGone, { once: true });
  });
  const r = await Promise.race([w.slot, gone]);
  if (onGone !== undefined) {
    req.socket.off("close", onGone);
    deadline.removeEventListener("abort", onGone);
  }
  if (typeof r === "string") {
    w.cancel();
    return { refused: r };
  }
  held.release();
  return { slot: r };
}
