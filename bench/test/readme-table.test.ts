// The README's performance table is generated from bench/RESULTS.md (bench/readme-table.js): the
// committed README must hold exactly what the script makes of the committed RESULTS.md.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { BEGIN, END, parseTargets, readmeTable, withTable } from "../readme-table.js";

const root = resolve(import.meta.dirname, "../..");
const results = readFileSync(resolve(root, "bench/RESULTS.md"), "utf8");
const readme = readFileSync(resolve(root, "README.md"), "utf8");

describe("README bench table", () => {
  it("equals the table generated from bench/RESULTS.md", () => {
    expect(withTable(readme, results)).toBe(readme);
    expect(readme).toContain(readmeTable(results));
  });

  it("has one row per target of RESULTS.md, met or missed as written there", () => {
    const targets = parseTargets(results);
    const table = readmeTable(results).split("\n").slice(2);
    expect(table).toHaveLength(targets.length);
    targets.forEach((t, i) => {
      expect(table[i]).toContain(`| ${t.value}`);
      expect(table[i]?.endsWith(t.met ? "| met |" : "| missed |")).toBe(true);
    });
  });

  it("parses MET and MISSED lines and ignores what follows the section", () => {
    const md = [
      "# x",
      "## Targets",
      "- MET    encode_qwen3_ge_hf_js: 20.22 (target >= 1)",
      "- MISSED some_new_target: 1.05 (target <= 1.05)",
      "## After",
      "- MET    not_a_target: 1 (target >= 1)",
    ].join("\n");
    expect(parseTargets(md)).toEqual([
      { key: "encode_qwen3_ge_hf_js", met: true, value: "20.22", target: ">= 1" },
      { key: "some_new_target", met: false, value: "1.05", target: "<= 1.05" },
    ]);
    expect(readmeTable(md)).toContain("| some new target | 1.05 | <= 1.05 | missed |");
  });

  it("refuses a RESULTS.md without targets and a README without markers", () => {
    expect(() => parseTargets("# nothing")).toThrow(/Targets/);
    expect(() => withTable("no markers", results)).toThrow(BEGIN);
    expect(END).toBe("<!-- bench:end -->");
  });
});
