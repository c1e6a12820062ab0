import { describe, expect, it } from "vitest";
import { medianOfProcesses } from "../src/process-median.ts";

const run = (ours: number, floor: number) => ({
  qwen3: {
    rows: {
      "realistic-8192": { tokens: 8192, floor: { ns_per_token: floor }, ours: { ns_per_token: ours } },
    },
  },
});

describe("realistic rows over several processes", () => {
  it("takes each candidate's median ns/token and keeps every process's value", () => {
    const m = medianOfProcesses([run(9, 3), run(20, 5), run(10, 2)], "qwen3") as ReturnType<typeof run>;
    const row = m.qwen3.rows["realistic-8192"];
    expect(row.ours).toEqual({ ns_per_token: 10, ns_per_token_processes: [9, 20, 10] });
    expect(row.floor).toEqual({ ns_per_token: 3, ns_per_token_processes: [3, 5, 2] });
    expect(row.tokens).toBe(8192);
  });

  it("takes the median of the row's numbers (page faults per round, rounds to settle)", () => {
    const withFaults = (faults: number, settle: number) => {
      const r = run(9, 3);
      Object.assign(r.qwen3.rows["realistic-8192"], { page_faults_per_round: faults, settle_rounds: settle });
      return r;
    };
    const m = medianOfProcesses([withFaults(14, 90), withFaults(2, -1), withFaults(5, 120)], "qwen3");
    const row = (m as { qwen3: { rows: Record<string, Record<string, unknown>> } }).qwen3.rows[
      "realistic-8192"
    ];
    expect(row?.page_faults_per_round).toBe(5);
    expect(row?.settle_rounds).toBe(90);
    expect(row?.tokens).toBe(8192);
  });

  it("leaves out failed processes; one process is returned as it is", () => {
    const one = run(9, 3);
    expect(medianOfProcesses([{ error: "x exited 1" }, one], "qwen3")).toBe(one);
    expect(medianOfProcesses([{ error: "x exited 1" }], "qwen3")).toEqual({ error: "x exited 1" });
  });
});
