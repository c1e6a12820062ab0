// The replay engine: a scripted generation (no model). For the demo, the protocol tests and the
// load test: what it yields is known exactly, so a client's reassembled output can be compared
// with the decoder's reference on the same IDs. Sampling options are ignored (the script is the
// output); maxTokens and abort are honoured.
import type { Engine, GenerateRequest } from "../engine.ts";

export interface ReplayOptions {
  /** The IDs to generate for a prompt (e.g. always the same script). */
  readonly script: (promptIds: readonly number[]) => readonly number[];
  /** IDs per yielded batch. Default 1 (one ID per step, as a real engine streams). */
  readonly batch?: number;
  /** Pause between batches, ms (simulates generation speed). Default 0: a macrotask yield only. */
  readonly delayMs?: number;
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createReplayEngine(options: ReplayOptions): Engine {
  const batch = Math.max(1, options.batch ?? 1);
  const delay = options.delayMs ?? 0;
  return {
    name: "replay",
    async *generate(req: GenerateRequest): AsyncIterable<readonly number[]> {
      const ids = options.script(req.promptIds);
      const end = Math.min(ids.length, req.sampling.maxTokens ?? ids.length);
      for (let i = 0; i < end && !req.signal.aborted; i += batch) {
        // A macrotask between batches (setTimeout, even at 0 ms) lets sockets, aborts and other
        // streams run, as a real engine's own thread would.
        await pause(delay);
        if (req.signal.aborted) return;
        yield ids.slice(i, Math.min(end, i + batch));
      }
    },
    async close() {},
  };
}
