// The realistic rows of several worker processes as one result (orchestrate.ts).
import type { WorkerResult } from "./orchestrate.ts";

/** The middle value (of an even count, the upper of the two middle ones). */
const middle = (xs: readonly number[]): number => xs.slice().sort((a, b) => a - b)[xs.length >> 1] as number;

/**
 * decode-realistic.ts results of several processes as one: per row and candidate, the median
 * ns/token; a number of the row (page faults per round, rounds to settle, token counts) is its
 * median over the processes too.
 */
export function medianOfProcesses(runs: WorkerResult[], model: string): WorkerResult {
  const ok = runs.filter((r) => r.error === undefined);
  const first = ok[0];
  if (first === undefined) return runs[0] ?? { error: "no run" };
  if (ok.length === 1) return first;
  const merged = JSON.parse(JSON.stringify(first)) as WorkerResult;
  type Rows = Record<string, Record<string, { ns_per_token?: number } | number | string>>;
  const rowsOf = (r: WorkerResult): Rows | undefined => (r[model] as { rows?: Rows } | undefined)?.rows;
  const rows = rowsOf(merged);
  if (rows === undefined) return merged;
  for (const [key, row] of Object.entries(rows)) {
    for (const [cand, v] of Object.entries(row)) {
      if (typeof v === "number") {
        const xs = ok.map((r) => rowsOf(r)?.[key]?.[cand]);
        if (xs.every((x) => typeof x === "number")) row[cand] = middle(xs as number[]);
        continue;
      }
      if (typeof v !== "object" || v === null || typeof v.ns_per_token !== "number") continue;
      const xs = ok.map((r) => {
        const x = rowsOf(r)?.[key]?.[cand];
        return typeof x === "object" && x !== null ? x.ns_per_token : undefined;
      });
      if (xs.some((x) => typeof x !== "number")) continue;
      Object.assign(v, {
        ns_per_token: middle(xs as number[]),
        ns_per_token_processes: xs,
      });
    }
  }
  return merged;
}
