// The generation loop shared by every endpoint: pull ID batches from the engine, push them into
// the decoder (whose handler writes the response), stop the engine as soon as the decoder has
// stopped (EOS, stop string, max tokens) or the writer wants no more (parallel_tool_calls=false),
// wait on the response's backpressure between batches (until the engine is stopped), and always
// end the decoder (flushing held text) unless the client is gone. A time limit that passes before
// the engine's first ID is an engine failure (`engine-timeout`), not an empty answer.

import type { SamplingOptions } from "@chatwire/openai";
import type { Decoder } from "@chatwire/stream-decoder";
import { type Engine, EngineError, type EngineErrorType } from "./engine.ts";

export interface RunOptions {
  readonly engine: Engine;
  readonly promptIds: readonly number[];
  readonly sampling: SamplingOptions;
  readonly decoder: Decoder;
  /** Aborted when the client disconnects or the request's time limit passes. */
  readonly signal: AbortSignal;
  /** Aborted when the request's time limit passes: the engine is stopped, the response ends normally. */
  readonly deadline?: AbortSignal;
  readonly shouldStop?: () => boolean;
  /** Backpressure: a promise to await before the next batch, or undefined to go on. */
  readonly ready?: () => Promise<void> | undefined;
  /** Called once, when the engine's first ID arrives. */
  readonly onFirstId?: () => void;
  /** Called as each batch arrives, before its IDs are decoded. */
  readonly onBatch?: () => void;
}

export type RunOutcome = "done" | "aborted" | "timeout" | "engine-error";

export interface RunResult {
  readonly outcome: RunOutcome;
  /** IDs the decoder consumed (up to and including the one that stopped it). */
  readonly completionTokens: number;
  /** outcome "engine-error": the log's detail, and the kind the client is told. */
  readonly error?: string;
  readonly errorType?: EngineErrorType;
}

export async function runGeneration(o: RunOptions): Promise<RunResult> {
  const stopEngine = new AbortController();
  const onAbort = () => stopEngine.abort();
  if (o.signal.aborted) return { outcome: "aborted", completionTokens: 0 };
  o.signal.addEventListener("abort", onAbort, { once: true });
  o.deadline?.addEventListener("abort", onAbort, { once: true });
  let consumed = 0;
  let first = true;
  let outcome: RunOutcome = "done";
  let error: string | undefined;
  let errorType: EngineErrorType = "engine-failed";
  const stopped = new Promise<void>((r) =>
    stopEngine.signal.addEventListener("abort", () => r(), { once: true }),
  );
  try {
    outer: for await (const batch of o.engine.generate({
      promptIds: o.promptIds,
      sampling: o.sampling,
      signal: stopEngine.signal,
    })) {
      if (first) {
        first = false;
        o.onFirstId?.();
      }
      if (stopEngine.signal.aborted) break;
      o.onBatch?.();
      for (const id of batch) {
        consumed++;
        o.decoder.push(id);
        if (o.decoder.stopped || o.shouldStop?.() === true) break outer;
      }
      const wait = o.ready?.();
      // A client that stops reading holds its slot only until the engine is stopped (deadline).
      if (wait !== undefined) await Promise.race([wait, stopped]);
    }
  } catch (e) {
    if (!stopEngine.signal.aborted) {
      outcome = "engine-error";
      error = e instanceof Error ? e.message : String(e);
      if (EngineError.isInstance(e)) errorType = e.type;
    }
  } finally {
    stopEngine.abort();
    o.signal.removeEventListener("abort", onAbort);
    o.deadline?.removeEventListener("abort", onAbort);
  }
  if (o.signal.aborted) outcome = "aborted";
  else if (o.deadline?.aborted === true && outcome === "done") {
    if (consumed > 0) outcome = "timeout";
    else {
      outcome = "engine-error";
      errorType = "engine-timeout";
      error = "no token from the engine within the request time limit";
    }
  }
  if (outcome !== "aborted") o.decoder.end();
  return error === undefined
    ? { outcome, completionTokens: consumed }
    : { outcome, completionTokens: consumed, error, errorType };
}
