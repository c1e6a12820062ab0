// The GGUF load rows (gguf-load.ts) in the bench summary and its text tables:
//   gguf_load.<file>.ours_ms, .node_llama_cpp_ms, .ratio (median of per-round ratios), .ratio_range,
//   .ours_first_ms, .node_llama_cpp_first_ms; gguf_load.max_ratio_vs_node_llama_cpp (the worst
//   file), .max_first_load_ratio_vs_node_llama_cpp (the worst first load); .rounds and .method.
type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const METHOD =
  "one process, alternating file by file and round by round: ours = loadGgufFile (vocabulary alone) + one encodeText; node-llama-cpp = loadModel({ vocabOnly: true }) + one tokenize; medians of wall time";

/** The summary object, or null when the rows were not run (or failed: then `error`). */
export function ggufLoadSummary(r: unknown): Obj | null {
  if (!isObj(r)) return null;
  if (typeof r.error === "string") return { error: r.error };
  const out: Obj = {};
  if (isObj(r.files)) for (const [file, row] of Object.entries(r.files)) out[file] = row;
  out.max_ratio_vs_node_llama_cpp = r.max_ratio_vs_node_llama_cpp ?? null;
  // The first (coldest) load of each side in the process, file by file: ours pays its JIT there.
  out.max_first_load_ratio_vs_node_llama_cpp = r.max_first_load_ratio_vs_node_llama_cpp ?? null;
  out.rounds = r.rounds ?? null;
  out.method = METHOD;
  return out;
}

/** The target: every file loads in no more time than node-llama-cpp's vocab-only load. */
export function ggufLoadTarget(r: unknown): { value: number | null; target: string; met: boolean } {
  const v =
    isObj(r) && typeof r.max_ratio_vs_node_llama_cpp === "number" ? r.max_ratio_vs_node_llama_cpp : null;
  return { value: v, target: "<= 1 on every file", met: v !== null && v <= 1 };
}

/** Text lines: a table of the files, or why there is none. */
export function ggufLoadLines(r: unknown): string[] {
  if (!isObj(r)) return ["(not run)"];
  if (typeof r.error === "string") return [`(not run: ${r.error})`];
  const rows = isObj(r.files) ? Object.entries(r.files) : [];
  const cell = (v: unknown): string => (typeof v === "number" ? String(v) : "—");
  return [
    "| file | ours ms | node-llama-cpp ms | ours / theirs (median of rounds) | range | first load: ours / theirs ms |",
    "|---|---|---|---|---|---|",
    ...rows.map(([file, row]) => {
      const o = isObj(row) ? row : {};
      const range = Array.isArray(o.ratio_range) ? o.ratio_range.join("-") : "—";
      return `| ${file} | ${cell(o.ours_ms)} | ${cell(o.node_llama_cpp_ms)} | ${cell(o.ratio)} | ${range} | ${cell(o.ours_first_ms)} / ${cell(o.node_llama_cpp_first_ms)} |`;
    }),
    "",
    `Method: ${METHOD} (${cell(r.rounds)} rounds).`,
  ];
}
