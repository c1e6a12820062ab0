// Timing and allocation helpers shared by every bench worker.
//
// Method (same for every library, so ratios compare like with like):
// - one worker process per compared library (JIT state, inline caches and heap of one
//   library never affect another); inside a process, candidates that must be compared
//   closely (our decoder vs the floor loop) run in ALTERNATING order, round by round
//   (round i starts with candidate i mod k), so drift on this noisy shared machine
//   (2 cores) hits both alike;
// - `warmup` unmeasured rounds first (JIT tiers up), then the MEDIAN of `rounds` rounds;
// - every round runs a whole sequence with FRESH state (new decoder / new window), pushing
//   one ID at a time, so per-token cost includes everything a streaming server pays;
// - every callback adds the length of the text it got to a global sink that is printed at
//   the end (no dead-code elimination of the decode work);
// - timer: process.hrtime.bigint() around the whole sequence, divided by its token count.
// - allocation: v8.GCProfiler (heap used before/after each GC) over >= 1M tokens; bytes
//   allocated = sum over GCs of (used before this GC - used after the previous one) + the
//   tail growth. GC count = number of GC events (scavenges + mark-compacts) in that run.
import v8 from "node:v8";

export const SINK = { v: 0 };

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export interface Candidate {
  readonly name: string;
  /** Runs one whole sequence with fresh state; returns how many tokens it processed. */
  run(): number | Promise<number>;
}

export interface Timing {
  ns_per_token: number;
  min_ns_per_token: number;
  rounds_ns_per_token: number[];
  tokens: number;
}

export async function alternate(
  cands: readonly Candidate[],
  opts: { warmup: number; rounds: number },
): Promise<Record<string, Timing>> {
  const res: Record<string, Timing> = {};
  for (const c of cands)
    res[c.name] = { ns_per_token: 0, min_ns_per_token: 0, rounds_ns_per_token: [], tokens: 0 };
  for (let r = 0; r < opts.warmup + opts.rounds; r++) {
    for (let j = 0; j < cands.length; j++) {
      const c = cands[(r + j) % cands.length] as Candidate;
      const t0 = process.hrtime.bigint();
      let tokens = c.run();
      if (typeof tokens !== "number") tokens = await tokens;
      const ns = Number(process.hrtime.bigint() - t0);
      if (r >= opts.warmup) {
        const t = res[c.name] as Timing;
        t.rounds_ns_per_token.push(ns / tokens);
        t.tokens = tokens;
      }
    }
  }
  for (const t of Object.values(res)) {
    t.ns_per_token = median(t.rounds_ns_per_token);
    t.min_ns_per_token = Math.min(...t.rounds_ns_per_token);
  }
  return res;
}

/**
 * Rounds in a row without a page fault that make a process settled, and the most rounds tried
 * (bench/README.md "Realistic replies": the first rounds of a process allocate on young-generation
 * pages that nothing touched before).
 */
const SETTLE_CLEAN = 20;
const SETTLE_MAX = 3000;

const pageFaults = (): number => process.resourceUsage().minorPageFault;

/** alternate(), and the page faults per round (every candidate once) over its rounds. */
export async function timedWithFaults(
  cands: readonly Candidate[],
  opts: { warmup: number; rounds: number },
): Promise<{ t: Record<string, Timing>; faults: number }> {
  const f0 = pageFaults();
  const t = await alternate(cands, opts);
  return { t, faults: (pageFaults() - f0) / (opts.warmup + opts.rounds) };
}

/**
 * Untimed rounds of every candidate until SETTLE_CLEAN in a row take no page fault: how many ran
 * (-1: no such stretch within SETTLE_MAX rounds).
 */
export async function settle(cands: readonly Candidate[]): Promise<number> {
  let clean = 0;
  let r = 0;
  for (; r < SETTLE_MAX && clean < SETTLE_CLEAN; r++) {
    const f0 = pageFaults();
    for (const c of cands) await c.run();
    clean = pageFaults() === f0 ? clean + 1 : 0;
  }
  return clean >= SETTLE_CLEAN ? r : -1;
}

export interface AllocStats {
  tokens: number;
  gc_events: number;
  gc_per_million_tokens: number;
  bytes_allocated: number;
  bytes_per_token: number;
  method: string;
}

/** Runs `run` repeatedly until at least `minTokens` tokens went through, under v8.GCProfiler. */
export function allocation(run: () => number, minTokens: number): AllocStats {
  (globalThis as { gc?: () => void }).gc?.();
  const profiler = new v8.GCProfiler();
  profiler.start();
  const h0 = v8.getHeapStatistics().used_heap_size;
  let tokens = 0;
  while (tokens < minTokens) tokens += run();
  const h1 = v8.getHeapStatistics().used_heap_size;
  const data = profiler.stop() as unknown as {
    statistics: {
      beforeGC: { heapStatistics: { usedHeapSize: number } };
      afterGC: { heapStatistics: { usedHeapSize: number } };
    }[];
  };
  let bytes = 0;
  let prev = h0;
  for (const s of data.statistics) {
    bytes += Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - prev);
    prev = s.afterGC.heapStatistics.usedHeapSize;
  }
  bytes += Math.max(0, h1 - prev);
  const gcs = data.statistics.length;
  return {
    tokens,
    gc_events: gcs,
    gc_per_million_tokens: (gcs * 1e6) / tokens,
    bytes_allocated: bytes,
    bytes_per_token: bytes / tokens,
    method: "v8.GCProfiler: GC events and heap-used deltas between GCs",
  };
}

/** Worker protocol: the request is the JSON string in argv[2]; the answer is ONE JSON line on stdout. */
export function request<T>(): T {
  const arg = process.argv[2];
  if (!arg) throw new Error("worker: missing request JSON argument");
  return JSON.parse(arg) as T;
}

export function reply(obj: unknown): void {
  process.stderr.write(`sink=${SINK.v}\n`);
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

export function heapUsedAfterGc(): number {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
  return process.memoryUsage().heapUsed;
}

/** Encoded once right after a cold load ("load + first encode": lazy tables are built then). */
export const FIRST_ENCODE_TEXT = "Hello, world! 你好，世界。 first encode after load";
