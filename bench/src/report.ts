// Turns the workers' answers into: the summary JSON (the contract fields), text tables,
// bench/RESULTS.md and an SVG plot of per-token cost against sequence length.
import type { Kind, ModelName } from "./fixtures.ts";
import { ggufLoadLines, ggufLoadSummary, ggufLoadTarget } from "./gguf-load-report.ts";
import type { Settings, WorkerResult } from "./orchestrate.ts";

type Obj = Record<string, unknown>;
type Num = number | null;

function get(o: unknown, ...path: string[]): unknown {
  let cur = o;
  for (const k of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Obj)[k];
  }
  return cur;
}
function num(o: unknown, ...path: string[]): Num {
  const v = get(o, ...path);
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}
const ratio = (a: Num, b: Num): Num => (a === null || b === null || b === 0 ? null : a / b);

function fmtNs(v: Num): string {
  if (v === null) return "—";
  if (v >= 1e6) return `${(v / 1e6).toFixed(2)} ms`;
  if (v >= 1e4) return `${(v / 1e3).toFixed(1)} µs`;
  if (v >= 100) return `${v.toFixed(0)} ns`;
  return `${v.toFixed(1)} ns`;
}
const fmtX = (v: Num, d = 1): string => (v === null ? "—" : `${v >= 100 ? v.toFixed(0) : v.toFixed(d)}x`);
const fmtRate = (v: Num): string => (v === null ? "—" : `${(v / 1e6).toFixed(2)} M`);
const fmtMB = (v: Num): string => (v === null ? "—" : `${(v / 1048576).toFixed(1)} MB`);

function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

interface Input {
  results: Record<string, WorkerResult | Record<string, WorkerResult>>;
  plan: Record<string, { kind: Kind; n: number }[]>;
  models: readonly ModelName[];
  /** The decoder table's models: `models` plus the families as data (llama31, deepseek-v3). */
  decoderModels?: readonly string[];
  notes: string[];
  settings: Settings;
  elapsed: number;
  stopStrings: string[];
}

export function buildReport(inp: Input): { summary: Obj; tables: string; markdown: string; svg: string } {
  const R = inp.results;
  const ours = (m: string, key: string, which: "floor" | "ours" | "ours_stop" | "ours_reset") =>
    num(R.decode_ours, m, "rows", key, which, "ns_per_token");
  const alt = (m: string, key: string): { hfjs: Num; hfrust: Num; wasm: Num } => ({
    hfjs: m === "qwen3" ? num(R.decode_hf_js, "window", key, "ns_per_token") : null,
    hfrust: m === "qwen3" ? num(R.decode_hf_rust, "window", key, "ns_per_token") : null,
    wasm: m === "qwen3" ? null : num(R.decode_spm_wasm, m, "window", key, "ns_per_token"),
  });

  // Decoder table.
  const decRows: string[][] = [];
  let aheadEverywhere = true;
  let worstVsAlt: Num = null;
  for (const m of inp.decoderModels ?? inp.models) {
    for (const { kind, n } of inp.plan[m] ?? []) {
      const key = `${kind}-${n}`;
      const f = ours(m, key, "floor");
      const o = ours(m, key, "ours");
      const s = ours(m, key, "ours_stop");
      const a = alt(m, key);
      const alts = [a.hfjs, a.hfrust, a.wasm].filter((x): x is number => x !== null);
      const best = alts.length ? Math.min(...alts) : null;
      const adv = ratio(best, o);
      if (adv !== null) {
        if (adv <= 1) aheadEverywhere = false;
        worstVsAlt = worstVsAlt === null ? adv : Math.min(worstVsAlt, adv);
      }
      decRows.push([
        m,
        `${kind} ${n / 1024}k`,
        fmtNs(f),
        fmtNs(o),
        fmtNs(s),
        fmtX(ratio(o, f)),
        `${fmtNs(ours(m, key, "ours_reset"))} (${fmtX(ratio(ours(m, key, "ours_reset"), f))})`,
        fmtNs(a.hfjs),
        fmtNs(a.hfrust),
        fmtNs(a.wasm),
        fmtX(adv, 0),
      ]);
    }
  }
  const decTable = table(
    [
      "model",
      "generation",
      "floor",
      "ours",
      "ours + 2 stop strings",
      "ours/floor",
      "ours, reused decoder (/floor)",
      "HF JS window",
      "HF Rust window",
      "SPM WASM window",
      "best alt / ours",
    ],
    decRows,
  );

  // Naive re-decode by position.
  const headOurs = num(R.decode_solo, "noop", "b_ns_per_token") ?? ours("qwen3", "mixed-8192", "ours");
  const naiveRows: string[][] = [];
  for (const [lib, m, src] of [
    ["@huggingface/tokenizers", "qwen3", get(R.decode_hf_js, "naive")],
    ["sentencepiece-js", "internlm2", get(R.decode_spm_wasm, "internlm2", "naive")],
    ["sentencepiece-js", "chatglm3", get(R.decode_spm_wasm, "chatglm3", "naive")],
  ] as const) {
    if (!src || typeof src !== "object") continue;
    const o = ours(m, "mixed-8192", "ours");
    for (const [at, v] of Object.entries(src as Obj)) {
      const ns = num(v, "ns_per_token");
      const pos = get(v, "positions") as number[] | undefined;
      naiveRows.push([
        lib,
        m,
        `${Number(at) / 1024}k`,
        pos ? `${pos[0]}..${pos[1]}` : "",
        fmtNs(ns),
        fmtX(ratio(ns, o), 0),
      ]);
    }
  }
  const naiveTable = table(
    ["library", "model", "output length", "positions sampled", "naive re-decode", "naive / ours"],
    naiveRows,
  );

  // Async Rust.
  const asyncRows: string[][] = [];
  for (const [k, v] of Object.entries((get(R.decode_hf_rust, "window_async") as Obj | undefined) ?? {})) {
    asyncRows.push([
      `qwen3 ${k}`,
      fmtNs(num(v, "ns_per_token")),
      fmtX(ratio(num(v, "ns_per_token"), ours("qwen3", k, "ours")), 0),
    ]);
  }
  const asyncTable = table(
    ["generation", "Rust tokenizers await decode() x2 per token (TGI window)", "that / ours"],
    asyncRows,
  );

  // Allocation.
  const allocRows: string[][] = [];
  for (const c of ["floor", "ours", "ours_stop"]) {
    const a = get(R.decode_ours, "alloc", c);
    if (!a) continue;
    allocRows.push([
      c,
      String(num(a, "tokens")),
      (num(a, "bytes_per_token") ?? 0).toFixed(2),
      (num(a, "gc_per_million_tokens") ?? 0).toFixed(1),
    ]);
  }
  const allocTable = table(
    ["candidate (qwen3 mixed 8k)", "tokens run", "bytes allocated / token", "GC events / 1M tokens"],
    allocRows,
  );

  // Encode.
  const encRows: string[][] = [];
  /** First encodeChat / first raw encode on fresh instances (CPU medians), and with each one's load added. */
  const firstCall = (alone: Num, withLoad: Num): string =>
    alone === null ? "—" : `${alone.toFixed(2)} (${withLoad?.toFixed(3) ?? "—"})`;
  const coldRows: string[][] = [];
  const loadRows: string[][] = [];
  const E = (m: string, lib: string, k: string) => num(R.encode, m, lib, k);
  /** Median over the passes of one of our table-file rows (orchestrate.ts cold_tables). */
  const tableMs = (m: string, row: string, k: string): Num => {
    const rs = get(R.cold_tables, m, row);
    if (!Array.isArray(rs)) return null;
    const xs = rs
      .map((r) => num(r, k))
      .filter((x): x is number => x !== null)
      .sort((a, b) => a - b);
    if (xs.length === 0) return null;
    const h = xs.length >> 1;
    return xs.length % 2 ? (xs[h] as number) : ((xs[h - 1] as number) + (xs[h] as number)) / 2;
  };
  for (const m of inp.models) {
    const o = E(m, "ours", "chars_per_s");
    const alts =
      m === "qwen3"
        ? [E(m, "hf_js", "chars_per_s"), E(m, "hf_rust", "chars_per_s"), E(m, "tiktoken_wasm", "chars_per_s")]
        : [E(m, "spm_wasm", "chars_per_s"), E(m, "spm_cpp", "chars_per_s")];
    encRows.push([
      m,
      fmtRate(o),
      fmtRate(E(m, "ours", "raw_chars_per_s")),
      fmtRate(E(m, "ours", "chat_chars_per_s")),
      E(m, "ours", "chat_overhead_ratio")?.toFixed(2) ?? "—",
      fmtRate(E(m, "hf_js", "chars_per_s")),
      fmtRate(E(m, "hf_rust", "chars_per_s")),
      fmtRate(E(m, "hf_rust", "batch_chars_per_s")),
      fmtRate(E(m, "spm_wasm", "chars_per_s")),
      fmtRate(E(m, "spm_cpp", "chars_per_s")),
      fmtRate(E(m, "tiktoken_wasm", "chars_per_s")),
      alts.map((a) => fmtX(ratio(o, a), 2)).join(" / "),
      fmtX(E(m, "ours", "over_tiktoken_ratio"), 2),
      E(m, "ours", "encode_text_overhead_ratio")?.toFixed(3) ?? "—",
      firstCall(
        E(m, "ours", "first_chat_over_first_raw"),
        E(m, "ours", "first_chat_over_first_raw_with_load"),
      ),
    ]);
    const coldPeer =
      m === "qwen3" ? E(m, "tiktoken_wasm", "cold_chars_per_s") : E(m, "spm_cpp", "cold_chars_per_s");
    coldRows.push([
      m,
      fmtRate(E(m, "ours", "cold_chars_per_s")),
      m === "qwen3" ? "tiktoken WASM" : "SPM C++",
      fmtRate(coldPeer),
      fmtX(ratio(E(m, "ours", "cold_chars_per_s"), coldPeer), 2),
      fmtX(E(m, "ours", "cold_over_tiktoken_ratio"), 2),
    ]);
    for (const lib of [
      "ours",
      "hf_js",
      "hf_rust",
      "tiktoken_wasm",
      "js_tiktoken",
      "gpt_tokenizer",
      "spm_wasm",
      "spm_cpp",
    ]) {
      const r = get(R.encode, m, lib);
      if (!r) continue;
      if (lib === "ours") {
        // Our rows without table files and on the very first load (the one that writes them).
        for (const [row, label] of [
          ["no_tables", "ours, no table files"],
          ["first_load", "ours, first load (builds + writes tables)"],
        ] as const) {
          const ms = tableMs(m, row, "cold_start_ms");
          if (ms === null) continue;
          loadRows.push([
            m,
            label,
            tableMs(m, row, "load_ms")?.toFixed(0) ?? "—",
            "—",
            ms.toFixed(0),
            "—",
            "—",
          ]);
        }
      }
      const rss = lib === "spm_cpp" ? (num(r, "load_rss_kb") ?? 0) * 1024 : num(r, "load_rss_bytes");
      loadRows.push([
        m,
        lib,
        num(r, "load_ms")?.toFixed(0) ?? "—",
        (() => {
          const l = num(r, "load_ms");
          const f = num(r, "first_encode_ms");
          return l === null || f === null ? "—" : (l + f).toFixed(0);
        })(),
        num(r, "cold_start_ms")?.toFixed(0) ?? "—",
        lib === "spm_cpp" ? "n/a" : fmtMB(num(r, "load_heap_bytes")),
        fmtMB(rss),
      ]);
    }
  }
  const encTable = table(
    [
      "model",
      "ours encodeText",
      "ours raw encode",
      "ours encodeChat",
      "chat/raw time",
      "HF JS",
      "HF Rust (1 doc/await)",
      "HF Rust batch (2 cores)",
      "SPM WASM",
      "SPM C++",
      "tiktoken WASM",
      "ours / alternatives (own processes)",
      "ours / tiktoken, paired in one process",
      "encodeText/raw (paired)",
      "first call chat/raw (with load)",
    ],
    encRows,
  );
  const coldTable = table(
    [
      "model",
      "ours encodeText, cold text",
      "peer",
      "peer, cold text (own process)",
      "ours / peer (own processes)",
      "ours / peer, paired in one process",
    ],
    coldRows,
  );
  const loadTable = table(
    [
      "model",
      "library",
      "cold load ms",
      "load + first encode ms",
      "cold start ms (load + first chat encode + first decoded token)",
      "JS heap growth",
      "RSS growth",
    ],
    loadRows,
  );

  // The rank-based peers (Qwen3 ranks): own-process rates, the check against the reference,
  // and the long-word rows.
  const PEERS = [
    ["tiktoken_wasm", "tiktoken", "tiktoken (WASM)"],
    ["js_tiktoken", "js_tiktoken", "js-tiktoken (pure JS)"],
    ["gpt_tokenizer", "gpt_tokenizer", "gpt-tokenizer BytePairEncodingCore"],
  ] as const;
  const checkChars = num(R.peer_check, "chars");
  const peerRows: string[][] = PEERS.map(([lib, check, label]) => {
    const identical = get(R.peer_check, check, "identical");
    const rate = E("qwen3", lib, "chars_per_s");
    const cold = E("qwen3", lib, "cold_chars_per_s");
    return [
      label,
      identical === true
        ? `identical (${((checkChars ?? 0) / 1e6).toFixed(2)} M chars)`
        : identical === false
          ? "DIFFER: refused"
          : "—",
      fmtRate(rate),
      fmtX(ratio(E("qwen3", "ours", "chars_per_s"), rate), 2),
      fmtRate(cold),
      fmtX(ratio(E("qwen3", "ours", "cold_chars_per_s"), cold), 2),
      E("qwen3", lib, "cold_start_ms")?.toFixed(0) ?? "—",
    ];
  });
  const peerTable = table(
    [
      "peer (Qwen3 ranks)",
      "IDs vs HF Rust on the corpus",
      "mixed (own process)",
      "ours encodeText / peer",
      "cold text (own process)",
      "ours / peer, cold",
      "cold start ms",
    ],
    peerRows,
  );
  const LW_LIBS = [
    ["ours", "ours encodeText"],
    ["tiktoken", "tiktoken (WASM)"],
    ["js_tiktoken", "js-tiktoken"],
    ["gpt_tokenizer", "gpt-tokenizer"],
  ] as const;
  const lwSizes = (get(R.long_word, "sizes") as number[] | undefined) ?? [];
  const lwCell = (v: unknown): string =>
    typeof v === "number"
      ? v >= 1000
        ? `${(v / 1000).toFixed(2)} s`
        : `${v.toFixed(1)} ms`
      : typeof v === "string"
        ? v
        : "—";
  const lwRows: string[][] = [];
  for (const kind of ["cjk", "ascii"] as const)
    for (const [lib, label] of LW_LIBS) {
      const row = get(R.long_word, kind, lib) as unknown[] | undefined;
      if (row === undefined) continue;
      lwRows.push([
        kind === "cjk" ? "one CJK run" : "one ASCII word",
        label,
        ...lwSizes.map((_, i) => lwCell(row[i])),
      ]);
    }
  const lwTable = table(["input", "library", ...lwSizes.map((n) => `${n / 1024}k chars`)], lwRows);
  const longWordSummary: Obj = { sizes: lwSizes, cap_s: num(R.long_word, "cap_s") };
  for (const kind of ["cjk", "ascii"] as const) {
    const k: Obj = {};
    for (const [lib] of LW_LIBS) {
      const row = get(R.long_word, kind, lib) as unknown[] | undefined;
      if (row !== undefined) k[`${lib}_ms`] = row.map((v) => (typeof v === "number" ? v : null));
    }
    longWordSummary[kind] = k;
  }

  // Summary (the contract). The headline decoder numbers come from the solo processes
  // (decode-solo.ts: floor and ours measured the same way), the in-process ones are kept too.
  const solo = (k: string, f: string) => num(R.decode_solo, k, f);
  const inProcFloor = ours("qwen3", "mixed-8192", "floor");
  const inProcOurs = ours("qwen3", "mixed-8192", "ours");
  const floor = solo("noop", "a_ns_per_token") ?? inProcFloor;
  const soloOurs = solo("noop", "b_ns_per_token");
  const withStop = ours("qwen3", "mixed-8192", "ours_stop");
  const naive4k = num(R.decode_hf_js, "naive", "4096", "ns_per_token");
  const hfjs = num(R.decode_hf_js, "window", "mixed-8192", "ns_per_token");
  const hfrust = num(R.decode_hf_rust, "window", "mixed-8192", "ns_per_token");
  const chatRatios = inp.models
    .map((m) => E(m, "ours", "chat_overhead_ratio"))
    .filter((x): x is number => x !== null);
  const encodeSummary: Obj = {};
  for (const m of inp.models) {
    encodeSummary[m] = {
      ours_chars_per_s: E(m, "ours", "chars_per_s"),
      ours_raw_chars_per_s: E(m, "ours", "raw_chars_per_s"),
      chat_overhead_ratio: E(m, "ours", "chat_overhead_ratio"),
      encode_text_overhead_ratio: E(m, "ours", "encode_text_overhead_ratio"),
      first_chat_over_first_raw: E(m, "ours", "first_chat_over_first_raw"),
      first_chat_over_first_raw_with_load: E(m, "ours", "first_chat_over_first_raw_with_load"),
      cold_ours_chars_per_s: E(m, "ours", "cold_chars_per_s"),
      ...(m === "qwen3"
        ? {
            hf_js_chars_per_s: E(m, "hf_js", "chars_per_s"),
            hf_rust_chars_per_s: E(m, "hf_rust", "chars_per_s"),
            hf_rust_batch_chars_per_s: E(m, "hf_rust", "batch_chars_per_s"),
            tiktoken_wasm_chars_per_s: E(m, "tiktoken_wasm", "chars_per_s"),
            cold_tiktoken_wasm_chars_per_s: E(m, "tiktoken_wasm", "cold_chars_per_s"),
            js_tiktoken_chars_per_s: E(m, "js_tiktoken", "chars_per_s"),
            cold_js_tiktoken_chars_per_s: E(m, "js_tiktoken", "cold_chars_per_s"),
            gpt_tokenizer_chars_per_s: E(m, "gpt_tokenizer", "chars_per_s"),
            cold_gpt_tokenizer_chars_per_s: E(m, "gpt_tokenizer", "cold_chars_per_s"),
            peer_check: {
              chars: checkChars,
              tiktoken_wasm_identical:
                (get(R.peer_check, "tiktoken", "identical") as boolean | undefined) ?? null,
              js_tiktoken_identical:
                (get(R.peer_check, "js_tiktoken", "identical") as boolean | undefined) ?? null,
              gpt_tokenizer_identical:
                (get(R.peer_check, "gpt_tokenizer", "identical") as boolean | undefined) ?? null,
            },
            ours_over_tiktoken_wasm_paired: E(m, "ours", "over_tiktoken_ratio"),
            cold_ours_over_tiktoken_wasm_paired: E(m, "ours", "cold_over_tiktoken_ratio"),
          }
        : {
            sentencepiece_cpp_chars_per_s: E(m, "spm_cpp", "chars_per_s"),
            sentencepiece_wasm_chars_per_s: E(m, "spm_wasm", "chars_per_s"),
            cold_sentencepiece_cpp_chars_per_s: E(m, "spm_cpp", "cold_chars_per_s"),
          }),
    };
  }
  encodeSummary.chat_overhead_ratio = chatRatios.length ? Math.max(...chatRatios) : null;
  encodeSummary.chat_overhead_ratio_is =
    "the worst (largest) encodeChat/raw-encode time ratio over the models";

  const encTargets: Obj = {};
  for (const m of inp.models) {
    const o = E(m, "ours", "chars_per_s");
    if (m === "qwen3") {
      encTargets[`encode_${m}_ge_hf_js`] = {
        value: ratio(o, E(m, "hf_js", "chars_per_s")),
        target: ">= 1",
        met: (ratio(o, E(m, "hf_js", "chars_per_s")) ?? 0) >= 1,
      };
    } else {
      const w = ratio(o, E(m, "spm_wasm", "chars_per_s"));
      const c = ratio(o, E(m, "spm_cpp", "chars_per_s"));
      encTargets[`encode_${m}_ge_wasm`] = { value: w, target: ">= 1", met: (w ?? 0) >= 1 };
      encTargets[`encode_${m}_within_2x_cpp`] = { value: c, target: ">= 0.5", met: (c ?? 0) >= 0.5 };
    }
  }
  // cold-import.ts: plain node processes, the clock before the first import; gpt-tokenizer's row
  // is the faster of its two rank forms (module / JSON).
  const ci = (side: string, k: string): Num => num(R.cold_import, side, k);
  const gptForm =
    (ci("gpt_tokenizer_json", "with_import_ms") ?? Infinity) <
    (ci("gpt_tokenizer_module", "with_import_ms") ?? Infinity)
      ? "gpt_tokenizer_json"
      : "gpt_tokenizer_module";
  const coldImport = {
    ours_with_import_ms: ci("ours", "with_import_ms"),
    ours_without_import_ms: ci("ours", "without_import_ms"),
    ours_import_only_ms: ci("ours", "import_ms"),
    gpt_tokenizer_with_import_ms: ci(gptForm, "with_import_ms"),
    gpt_tokenizer_without_import_ms: ci(gptForm, "without_import_ms"),
    gpt_tokenizer_ranks: gptForm === "gpt_tokenizer_json" ? "json" : "module",
    ours_with_import_cpu_ms: ci("ours", "with_import_cpu_ms"),
    gpt_tokenizer_with_import_cpu_ms: ci(gptForm, "with_import_cpu_ms"),
  };
  const importMs = coldImport.ours_import_only_ms;
  const coldStart: Obj = {};
  for (const m of inp.models) {
    const o = E(m, "ours", "cold_start_ms");
    if (m === "qwen3") {
      const peers = (["hf_js", "hf_rust", "tiktoken_wasm", "js_tiktoken", "gpt_tokenizer"] as const)
        .map((lib) => ({ lib, ms: E(m, lib, "cold_start_ms") }))
        .filter((p): p is { lib: (typeof p)["lib"]; ms: number } => p.ms !== null)
        .sort((a, b) => a.ms - b.ms);
      coldStart[m] = {
        ours_ms: o,
        ours_no_tables_ms: tableMs(m, "no_tables", "cold_start_ms"),
        ours_import_ms: E(m, "ours", "import_ms"),
        fastest_peer_ms: peers[0]?.ms ?? null,
        fastest_peer: peers[0]?.lib ?? null,
        peers_ms: Object.fromEntries(peers.map((p) => [p.lib, p.ms])),
        ...coldImport,
      };
      encTargets.cold_start_qwen3_with_import_faster_than_gpt_tokenizer = {
        value: ratio(coldImport.gpt_tokenizer_with_import_ms, coldImport.ours_with_import_ms),
        target: "> 1 (gpt-tokenizer ms / ours ms, plain node, imports included)",
        met: (ratio(coldImport.gpt_tokenizer_with_import_ms, coldImport.ours_with_import_ms) ?? 0) > 1,
      };
      encTargets.cold_start_qwen3_faster_than_every_peer = {
        value: ratio(peers[0]?.ms ?? null, o),
        target: "> 1 (fastest peer ms / ours ms)",
        met: (ratio(peers[0]?.ms ?? null, o) ?? 0) > 1,
      };
      // Paired in one process (encode-ours.ts runs tiktoken alternating on the same parts);
      // the separate-process rates are only the fallback.
      const tk =
        E(m, "ours", "over_tiktoken_ratio") ??
        ratio(E(m, "ours", "chars_per_s"), E(m, "tiktoken_wasm", "chars_per_s"));
      const tkc =
        E(m, "ours", "cold_over_tiktoken_ratio") ??
        ratio(E(m, "ours", "cold_chars_per_s"), E(m, "tiktoken_wasm", "cold_chars_per_s"));
      encTargets.encode_qwen3_ge_3x_tiktoken_wasm = {
        value: tk,
        target: ">= 3 (paired in one process)",
        met: (tk ?? 0) >= 3,
      };
      encTargets.encode_qwen3_cold_ge_1_8x_tiktoken_wasm = {
        value: tkc,
        target: ">= 1.8 (paired in one process)",
        met: (tkc ?? 0) >= 1.8,
      };
    } else {
      const cpp = E(m, "spm_cpp", "cold_start_ms");
      coldStart[m] = {
        ours_ms: o,
        sentencepiece_cpp_ms: cpp,
        ours_no_tables_ms: tableMs(m, "no_tables", "cold_start_ms"),
        ours_first_load_ms: tableMs(m, "first_load", "cold_start_ms"),
        ours_import_ms: E(m, "ours", "import_ms"),
      };
      encTargets[`cold_start_${m}_within_1_5x_cpp`] = {
        value: ratio(o, cpp),
        target: "<= 1.5 (ours ms / C++ ms)",
        met: (ratio(o, cpp) ?? Infinity) <= 1.5,
      };
      const c = ratio(E(m, "ours", "chars_per_s"), E(m, "spm_cpp", "chars_per_s"));
      encTargets[`encode_${m}_ge_3x_cpp`] = { value: c, target: ">= 3", met: (c ?? 0) >= 3 };
    }
  }
  const vsFloor = num(R.decode_solo, "noop", "ratio") ?? ratio(headOurs, floor);
  const stopOverOurs = ratio(withStop, inProcOurs);
  const naiveOver = ratio(naive4k, headOurs);
  const chatMax = encodeSummary.chat_overhead_ratio as Num;
  // Realistic replies and byte-split fixtures (decode-realistic.ts, realistic-fixture.ts): per
  // model, every candidate alternating in one process, timed in its first rounds and settled.
  const realNs = (m: string, key: string, which: string): Num =>
    num(R.decode_realistic, m, m, "rows", key, which, "ns_per_token");
  const realisticRatio = ratio(
    realNs("qwen3", "realistic-8192", "ours"),
    realNs("qwen3", "realistic-8192", "floor"),
  );
  const realisticSettledRatio = ratio(
    realNs("qwen3", "realistic-8192", "settled_ours"),
    realNs("qwen3", "realistic-8192", "settled_floor"),
  );
  const targets: Obj = {
    decoder_within_5x_floor: {
      value: vsFloor,
      target: "<= 5 (goal 3)",
      met: vsFloor !== null && vsFloor <= 5,
    },
    decoder_1000x_naive_4k: {
      value: naiveOver,
      target: ">= 1000",
      met: naiveOver !== null && naiveOver >= 1000,
    },
    decoder_ahead_of_js_alternatives_every_row: {
      value: worstVsAlt,
      target: "> 1 on every row",
      met: aheadEverywhere && worstVsAlt !== null,
    },
    ...encTargets,
    chat_encode_within_10pct: { value: chatMax, target: "<= 1.10", met: chatMax !== null && chatMax <= 1.1 },
    decoder_within_3x_honest_floor: {
      value: vsFloor,
      target: "<= 3",
      met: vsFloor !== null && vsFloor <= 3,
    },
    decoder_realistic_within_3x_floor: {
      value: realisticRatio,
      target: "<= 3 (first rounds of a process, in-process, alternating)",
      met: realisticRatio !== null && realisticRatio <= 3,
    },
    decoder_realistic_settled_within_3x_floor: {
      value: realisticSettledRatio,
      target: "<= 3 (settled process: no page fault per round)",
      met: realisticSettledRatio !== null && realisticSettledRatio <= 3,
    },
    stop_strings_within_1_5x_decoder: {
      value: stopOverOurs,
      target: "<= 1.5 (in-process, alternating)",
      met: stopOverOurs !== null && stopOverOurs <= 1.5,
    },
    chat_encode_within_5pct: { value: chatMax, target: "<= 1.05", met: chatMax !== null && chatMax <= 1.05 },
    gguf_load_le_node_llama_cpp: ggufLoadTarget(R.gguf_load),
    import_within_25ms: {
      value: importMs,
      target: "<= 25 ms (the three core entries, fresh plain node process)",
      met: importMs !== null && importMs <= 25,
    },
  };

  // Families as data (Llama 3.x, DeepSeek V3): their decoder rows (in-process, alternating) and
  // the solo floor / ours pairs on their tools 8k generation, as for Qwen3's headline.
  const families: Obj = {};
  const familyRows: string[][] = [];
  for (const m of (inp.decoderModels ?? []).filter((x) => !(inp.models as readonly string[]).includes(x))) {
    const rows: Obj = {};
    for (const { kind, n } of inp.plan[m] ?? []) {
      const key = `${kind}-${n}`;
      const f = ours(m, key, "floor");
      const o = ours(m, key, "ours");
      rows[key] = {
        ns_per_token: o,
        floor_ns_per_token: f,
        ratio_vs_floor: ratio(o, f),
        with_stop_strings_ns_per_token: ours(m, key, "ours_stop"),
      };
    }
    const sf = num(R.decode_solo_families, m, "a_ns_per_token");
    const so = num(R.decode_solo_families, m, "b_ns_per_token");
    const sr = num(R.decode_solo_families, m, "ratio");
    families[m] = {
      rows,
      solo_tools_8k: { ns_per_token: so, floor_ns_per_token: sf, ratio_vs_floor: sr },
      checks: get(R.decode_ours, m, "checks") ?? null,
    };
    familyRows.push([m, "tools 8k", fmtNs(sf), fmtNs(so), fmtX(sr)]);
  }
  const familyTable = table(
    ["model", "generation", "floor, solo", "ours, solo", "ours/floor (median of pairs)"],
    familyRows,
  );

  /** The headers of realTiming's cells. */
  const realTimingHeaders = [
    "floor",
    "UTF-8 floor",
    "ours",
    "ours/floor",
    "ours/UTF-8 floor",
    "ours, pushMany(8)",
    "push / pushMany(8)",
  ];
  /**
   * One timing of a realistic row (`prefix` "": its first rounds; "settled_": once settled): the
   * summary fields, each named with `prefix`, and the table cells from the floor column on.
   */
  const realTiming = (m: string, key: string, prefix: string): { fields: Obj; cells: string[] } => {
    const f = realNs(m, key, `${prefix}floor`);
    const fu = realNs(m, key, `${prefix}floor_utf8`);
    const us = realNs(m, key, `${prefix}ours`);
    const b8 = realNs(m, key, `${prefix}ours_burst8`);
    return {
      fields: {
        [`${prefix}ns_per_token`]: us,
        [`${prefix}floor_ns_per_token`]: f,
        [`${prefix}floor_utf8_ns_per_token`]: fu,
        [`${prefix}ratio_vs_floor`]: ratio(us, f),
        [`${prefix}ratio_vs_utf8_floor`]: ratio(us, fu),
        [`${prefix}burst8_ns_per_token`]: b8,
        [`${prefix}burst8_speedup_vs_push`]: ratio(us, b8),
      },
      cells: [
        fmtNs(f),
        fmtNs(fu),
        fmtNs(us),
        fmtX(ratio(us, f)),
        fmtX(ratio(us, fu)),
        fmtNs(b8),
        fmtX(ratio(us, b8), 2),
      ],
    };
  };
  /** The columns a settled table has after model and generation (see settleCells). */
  const settleHeaders = [
    "rounds to settle",
    "page faults / round, first rounds",
    "page faults / round, settled",
  ];
  /** A settled row's rounds to settle (-1: not settled) and its page faults per round, first and settled. */
  const settleCells = (rounds: Num, faults: Num, settledFaults: Num): string[] => [
    rounds === null ? "—" : rounds < 0 ? "not settled" : String(rounds),
    ...[faults, settledFaults].map((f) => (f === null ? "—" : f.toFixed(1))),
  ];
  const realistic: Obj = {};
  const realisticRows: string[][] = [];
  const settledRows: string[][] = [];
  for (const m of Object.keys((R.decode_realistic as Obj | undefined) ?? {})) {
    const o: Obj = {};
    for (const key of ["realistic-8192", "bytesplit-8192"]) {
      const first = realTiming(m, key, "");
      const settled = realTiming(m, key, "settled_");
      const split = num(R.decode_realistic, m, m, "rows", key, "byte_split_tokens");
      const calls = num(R.decode_realistic, m, m, "rows", key, "tool_call_tokens");
      const faults = num(R.decode_realistic, m, m, "rows", key, "page_faults_per_round");
      const sFaults = num(R.decode_realistic, m, m, "rows", key, "settled_page_faults_per_round");
      const settleRounds = num(R.decode_realistic, m, m, "rows", key, "settle_rounds");
      o[key] = {
        ...first.fields,
        byte_split_tokens: split,
        tool_call_tokens: calls,
        page_faults_per_round: faults,
        settle_rounds: settleRounds,
        ...settled.fields,
        settled_page_faults_per_round: sFaults,
      };
      settledRows.push([
        m,
        key.replace("-8192", " 8k"),
        ...settleCells(settleRounds, faults, sFaults),
        ...settled.cells,
      ]);
      realisticRows.push([
        m,
        key.replace("-8192", " 8k"),
        String(split ?? "—"),
        String(calls ?? "—"),
        ...first.cells,
      ]);
    }
    realistic[m] = o;
  }
  const realisticTable = table(
    ["model", "generation", "byte-split tokens", "tool-call tokens", ...realTimingHeaders],
    realisticRows,
  );
  const settledTable = table(["model", "generation", ...settleHeaders, ...realTimingHeaders], settledRows);
  /** The largest of the values that are known (null: none is). */
  const largest = (values: readonly Num[]): Num => {
    let max: Num = null;
    for (const v of values) if (v !== null && (max === null || v > max)) max = v;
    return max;
  };
  // The decoder table's tools rows (every model): ours / floor in one process, first rounds and
  // timed again once their process settled (decode-ours.ts).
  const toolsRows = (inp.decoderModels ?? inp.models).flatMap((m) =>
    (inp.plan[m] ?? [])
      .filter(({ kind }) => kind === "tools")
      .map(({ kind, n }) => {
        const key = `${kind}-${n}`;
        const row = (...path: string[]): Num => num(R.decode_ours, m, "rows", key, ...path);
        const floor = row("settled_floor", "ns_per_token");
        const us = row("settled_ours", "ns_per_token");
        return {
          m,
          ratio: ratio(ours(m, key, "ours"), ours(m, key, "floor")),
          settledRatio: ratio(us, floor),
          settledCells: [
            m,
            `${kind} ${n / 1024}k`,
            ...settleCells(
              row("settle_rounds"),
              row("page_faults_per_round"),
              row("settled_page_faults_per_round"),
            ),
            fmtNs(floor),
            fmtNs(us),
            fmtX(ratio(us, floor)),
          ],
        };
      }),
  );
  const toolsMax = largest(toolsRows.map((r) => r.ratio));
  const toolsSettledMax = largest(toolsRows.map((r) => r.settledRatio));
  const toolsSettledTable = table(
    ["model", "generation", ...settleHeaders, "floor, settled", "ours, settled", "ours / floor"],
    toolsRows.map((r) => r.settledCells),
  );
  // The decoder targets of the realistic rows and the tools rows (read after those tables).
  const splitMax = largest(
    Object.keys((R.decode_realistic as Obj | undefined) ?? {}).map((m) =>
      ratio(realNs(m, "bytesplit-8192", "ours"), realNs(m, "bytesplit-8192", "floor_utf8")),
    ),
  );
  const burst8 = ratio(
    realNs("qwen3", "realistic-8192", "ours"),
    realNs("qwen3", "realistic-8192", "ours_burst8"),
  );
  targets.byte_split_within_2x_utf8_floor = {
    value: splitMax,
    target: "<= 2 (every model's byte-split fixture, first rounds, in-process, alternating)",
    met: splitMax !== null && splitMax <= 2,
  };
  targets.burst8_at_least_1_2x_push = {
    value: burst8,
    target: ">= 1.2 (push ns / pushMany(8) ns per ID, qwen3 realistic 8k, first rounds)",
    met: burst8 !== null && burst8 >= 1.2,
  };
  // The families as data that write tool calls in their own syntaxes (Llama 3.x, DeepSeek V3).
  const familyTools = toolsRows.filter((r) => r.m === "llama31" || r.m === "deepseek-v3");
  const familyToolsMax = largest(familyTools.map((r) => r.ratio));
  targets.tool_call_rows_within_4x_floor = {
    value: familyToolsMax,
    target: "<= 4 (the Llama 3.x and DeepSeek V3 tools rows, in-process, alternating)",
    met: familyToolsMax !== null && familyToolsMax <= 4,
  };
  const familyToolsSettledMax = largest(familyTools.map((r) => r.settledRatio));
  targets.tool_call_rows_settled_within_4x_floor = {
    value: familyToolsSettledMax,
    target: "<= 4 (the same rows, settled process: no page fault per round)",
    met: familyToolsSettledMax !== null && familyToolsSettledMax <= 4,
  };

  // The template path row (bench/src/template-bench.ts): CPU-time ratios (best rounds; per-round pairs).
  const tr = R.template as WorkerResult | undefined;
  const templateLines =
    tr === undefined || tr.error !== undefined
      ? [`(not run${tr?.error === undefined ? "" : `: ${tr.error}`})`]
      : [
          `per request: ${tr.templateUsPerRequest} vs ${tr.nativeUsPerRequest} µs CPU, ${tr.per_request_ratio}x (per-round pairs: median ${tr.per_request_ratio_median}x, ${(tr.per_request_ratio_range as number[]).join("-")}x; same IDs ${tr.sameIds}/${tr.requests}; target <= 2x)`,
          `100 messages: render + encode ${(tr.conversation100 as Obj).renderEncodeMs} vs ${(tr.conversation100 as Obj).nativeMs} ms CPU, ${tr.render_encode_100_ratio}x (per-round pairs: median ${tr.render_encode_100_ratio_median}x, ${(tr.render_encode_100_ratio_range as number[]).join("-")}x; target <= 2x)`,
        ];

  // Load cost through the table cache (bench/src/load-cache.ts): cold and cached, one process per load.
  const lc = R.load_cache as WorkerResult | undefined;
  const lcOk = lc !== undefined && lc.error === undefined;
  const tl = lcOk ? ((lc.template_load as Obj).gemma3 as Obj) : undefined;
  const tk = lcOk ? (lc.tekken_load as Obj) : undefined;
  const loadCacheLines =
    tl === undefined || tk === undefined
      ? [`(not run${lc?.error === undefined ? "" : `: ${lc.error}`})`]
      : [
          `Gemma 3 (template-only, 262,145 IDs): cold ${tl.cold_ms} ms, cached ${tl.cached_ms} ms; native ${tl.native_same_size}: cold ${tl.native_same_size_cold_ms} ms, cached ${tl.native_same_size_cached_ms} ms; Gemma 3 / native per round: cold ${tl.cold_ratio}x (${(tl.cold_ratio_range as number[]).join("-")}x; target <= 2x), cached ${tl.cached_ratio}x (${(tl.cached_ratio_range as number[]).join("-")}x)`,
          `tekken (Mistral NeMo 240718, 131,072 IDs): cold ${tk.cold_ms} ms, cached ${tk.cached_ms} ms`,
        ];

  const summary: Obj = {
    bench: "chatwire",
    quick: inp.settings.quick,
    elapsed_s: Math.round(inp.elapsed * 10) / 10,
    decoder: {
      fixture:
        "qwen3 mixed 8192 tokens (think + text with CJK/emoji/code + tool_call + im_end), push() per ID, no-op consumer",
      ns_per_token: headOurs,
      floor_ns_per_token: floor,
      floor_minimal_ns_per_token: solo("noop", "a_ns_per_token"),
      realistic_consumer_ns_per_token: solo("append", "b_ns_per_token"),
      realistic_floor_ns_per_token: solo("append", "a_ns_per_token"),
      realistic_ratio_vs_floor: solo("append", "ratio"),
      in_process_ns_per_token: inProcOurs,
      in_process_floor_ns_per_token: inProcFloor,
      in_process_ratio_vs_floor: ratio(inProcOurs, inProcFloor),
      solo_ours_ns_per_token: soloOurs,
      stop_strings_over_ours: stopOverOurs,
      method:
        "ns_per_token / floor_ns_per_token / ratio_vs_floor: floor and ours each alone in its own process (same layout and loop), alternating pairs, median of paired ratios; in_process_*: all candidates alternating in one process",
      naive_redecode_ns_per_token_4k: naive4k,
      hf_js_window_ns_per_token: hfjs,
      hf_rust_ns_per_token: hfrust,
      hf_rust_async_ns_per_token: num(R.decode_hf_rust, "window_async", "mixed-8192", "ns_per_token"),
      with_stop_strings_ns_per_token: withStop,
      stop_strings: inp.stopStrings,
      gc_per_million_tokens: num(R.decode_ours, "alloc", "ours", "gc_per_million_tokens"),
      bytes_allocated_per_token: num(R.decode_ours, "alloc", "ours", "bytes_per_token"),
      gc_method: get(R.decode_ours, "alloc", "ours", "method") ?? null,
      ratio_vs_floor: vsFloor,
      naive_4k_over_ours: naiveOver,
      hf_js_window_over_ours: ratio(hfjs, headOurs),
      hf_rust_over_ours: ratio(hfrust, headOurs),
      per_stream_bytes: num(R.decode_ours, "streams", "bytes_per_stream_midstream"),
      per_stream_bytes_fresh: num(R.decode_ours, "streams", "bytes_per_stream_fresh"),
      create_decoder_ns: num(R.decode_ours, "create", "ns"),
      create_decoder_with_stop_strings_ns: num(R.decode_ours, "create", "ns_with_stop_strings"),
      reused_decoder_ns_per_token: ours("qwen3", "mixed-8192", "ours_reset"),
      families,
      // Qwen3's realistic 8k reply and byte-split fixture (decode-realistic.ts); every model in `realistic`.
      realistic_fixture_ns_per_token: realNs("qwen3", "realistic-8192", "ours"),
      realistic_fixture_floor_ns_per_token: realNs("qwen3", "realistic-8192", "floor"),
      realistic_fixture_ratio_vs_floor: realisticRatio,
      byte_split_ns_per_token: realNs("qwen3", "bytesplit-8192", "ours"),
      byte_split_floor_ns_per_token: realNs("qwen3", "bytesplit-8192", "floor_utf8"),
      burst8_ns_per_token: realNs("qwen3", "realistic-8192", "ours_burst8"),
      burst8_speedup_vs_push: ratio(
        realNs("qwen3", "realistic-8192", "ours"),
        realNs("qwen3", "realistic-8192", "ours_burst8"),
      ),
      // The same in a settled process (no page fault per round: see decode-realistic.ts).
      realistic_fixture_page_faults_per_round: num(
        R.decode_realistic,
        "qwen3",
        "qwen3",
        "rows",
        "realistic-8192",
        "page_faults_per_round",
      ),
      realistic_fixture_settled_ns_per_token: realNs("qwen3", "realistic-8192", "settled_ours"),
      realistic_fixture_settled_floor_ns_per_token: realNs("qwen3", "realistic-8192", "settled_floor"),
      realistic_fixture_settled_ratio_vs_floor: realisticSettledRatio,
      burst8_settled_speedup_vs_push: ratio(
        realNs("qwen3", "realistic-8192", "settled_ours"),
        realNs("qwen3", "realistic-8192", "settled_ours_burst8"),
      ),
      tools_rows_max_ratio_vs_floor: toolsMax,
      tools_rows_max_settled_ratio_vs_floor: toolsSettledMax,
      realistic,
    },
    encode: encodeSummary,
    // Importing @chatwire/tokenizer, @chatwire/tokenizer/node and @chatwire/stream-decoder in a
    // fresh plain node process (their Node bundles), median ms.
    import_ms: importMs,
    cold_start: coldStart,
    long_word: longWordSummary,
    load: {
      qwen3_ours_ms: E("qwen3", "ours", "load_ms"),
      qwen3_hf_js_ms: E("qwen3", "hf_js", "load_ms"),
      qwen3_hf_rust_ms: E("qwen3", "hf_rust", "load_ms"),
      internlm2_ours_ms: E("internlm2", "ours", "load_ms"),
      internlm2_cpp_ms: E("internlm2", "spm_cpp", "load_ms"),
      chatglm3_ours_ms: E("chatglm3", "ours", "load_ms"),
      chatglm3_cpp_ms: E("chatglm3", "spm_cpp", "load_ms"),
      // The first encode right after load (our SentencePiece encoder is built on first use).
      qwen3_ours_first_encode_ms: E("qwen3", "ours", "first_encode_ms"),
      internlm2_ours_first_encode_ms: E("internlm2", "ours", "first_encode_ms"),
      internlm2_cpp_first_encode_ms: E("internlm2", "spm_cpp", "first_encode_ms"),
      chatglm3_ours_first_encode_ms: E("chatglm3", "ours", "first_encode_ms"),
      chatglm3_cpp_first_encode_ms: E("chatglm3", "spm_cpp", "first_encode_ms"),
    },
    // The template path vs the native qwen3 encoder: per_request_ratio, render_encode_100_ratio
    // (+ _range over rounds) and the µs/ms rows, as bench/src/template-bench.ts measured them.
    template: tr === undefined || tr.error !== undefined ? null : tr,
    // GGUF vocabulary load vs node-llama-cpp's vocab-only load (gguf-load-report.ts).
    gguf_load: ggufLoadSummary(R.gguf_load),
    // Loads through the table cache (bench/src/load-cache.ts): template_load.gemma3.{cold_ms,
    // cached_ms, native_same_size_cold_ms, native_same_size_cached_ms, cold_ratio, cached_ratio},
    // tekken_load.{cold_ms, cached_ms}.
    template_load: lcOk ? (lc.template_load as Obj) : null,
    tekken_load: lcOk ? (lc.tekken_load as Obj) : null,
    targets,
    notes: inp.notes,
  };

  const createLine = `Per-stream creation: createDecoder() ${fmtNs(num(R.decode_ours, "create", "ns"))}, with 2 stop strings ${fmtNs(num(R.decode_ours, "create", "ns_with_stop_strings"))} (median of batches of 1,000).`;
  const streamsLine = `Per-stream decoder memory (10,000 live Qwen3 decoders, JS heap): ${(num(R.decode_ours, "streams", "bytes_per_stream_fresh") ?? NaN).toFixed(0)} B fresh, ${(num(R.decode_ours, "streams", "bytes_per_stream_midstream") ?? NaN).toFixed(0)} B after 64 IDs each.`;
  const targetLines = Object.entries(targets).map(([k, v]) => {
    const t = v as { value: Num; target: string; met: boolean };
    return `- ${t.met ? "MET   " : "MISSED"} ${k}: ${t.value === null ? "—" : t.value.toFixed(t.value >= 100 ? 0 : 2)} (target ${t.target})`;
  });
  const soloRows: string[][] = [];
  for (const [k, label] of [
    ["noop", "no-op consumer (callbacks add lengths to a sink)"],
    ["append", "realistic consumer (text appended to per-channel strings)"],
  ] as const) {
    const rs = get(R.decode_solo, k, "ratios") as number[] | undefined;
    soloRows.push([
      label,
      fmtNs(solo(k, "a_ns_per_token")),
      fmtNs(solo(k, "b_ns_per_token")),
      fmtX(solo(k, "ratio"), 2),
      rs ? `${fmtX(Math.min(...rs), 2)}..${fmtX(Math.max(...rs), 2)}` : "—",
    ]);
  }
  const soloTable = table(
    [
      "qwen3 mixed 8k, each candidate alone in its own process",
      "floor",
      "ours",
      "ours/floor (median of pairs)",
      "range",
    ],
    soloRows,
  );
  // gpt-oss (harmony) row: workers/decode-harmony.ts.
  const hNs = (k: string) => num(R.decode_harmony, k, "ns_per_token");
  const harmonyTable = table(
    [
      "gpt-oss harmony 8k (analysis + call, analysis + final)",
      "floor",
      "ours",
      "ours/floor",
      "ours + streamToolCalls",
      "reference approach: re-encode per token",
      "re-encode / ours",
    ],
    R.decode_harmony && !get(R.decode_harmony, "error")
      ? [
          [
            "o200k_harmony",
            fmtNs(hNs("floor")),
            fmtNs(hNs("ours")),
            fmtX(ratio(hNs("ours"), hNs("floor"))),
            fmtNs(hNs("ours_tools")),
            fmtNs(hNs("reencode")),
            fmtX(ratio(hNs("reencode"), hNs("ours"))),
          ],
        ]
      : [],
  );
  const tables = [
    `## Decoder: ns per token (median; fresh decoder per sequence; push() per ID)`,
    decTable,
    "",
    harmonyTable,
    "",
    "The table above runs every candidate in ONE process, alternating; the honest floor below runs",
    "the floor and ours each alone in its own process (same layout and loop), in alternating pairs.",
    "",
    soloTable,
    "",
    "The families as data (Llama 3.x `llama31`, DeepSeek V3), solo pairs the same way:",
    "",
    familyTable,
    "",
    "Realistic 8k replies (our own encoder: reasoning, markdown, code, CJK with rare characters, emoji with ZWJ",
    "sequences, a long tool call) and byte-split fixtures (emoji and rare CJK only), one process per model, alternating:",
    "",
    realisticTable,
    "",
    "The rounds above are the first of each process, while V8 grows its young generation: what a round",
    "allocates lands on fresh pages, and a page fault costs about 10 µs on this VM. Below, the same",
    "processes after untimed rounds of every candidate until 20 rounds in a row took no page fault",
    "(a serving process that has decoded for a while is in this state, though not for good: a later",
    "scavenge can start a new stretch of rounds that fault, as the page faults / round, settled column shows):",
    "",
    settledTable,
    "",
    "The tools rows of the decoder table, timed again the same way once their process settled (floor and ours):",
    "",
    toolsSettledTable,
    "",
    `## Naive re-decode of the whole output per token (sampled window of positions)`,
    naiveTable,
    "",
    `## HF Rust through its async Node API`,
    asyncTable,
    "",
    `## Allocation (v8.GCProfiler)`,
    allocTable,
    "",
    streamsLine,
    createLine,
    "",
    `## Encode throughput (UTF-16 chars/s, median; a fresh corpus part each round)`,
    encTable,
    "",
    `## Encode throughput on cold text (random words: cache misses)`,
    coldTable,
    "",
    `## Rank-based peers with Qwen3's ranks (IDs checked against HF Rust before timing)`,
    peerTable,
    "",
    `## One long pre-token (quadratic merges): CPU time of one encode call`,
    lwTable,
    "",
    `## Tokenizer load (cold, own process)`,
    loadTable,
    "",
    `## GGUF vocabulary load vs node-llama-cpp's vocab-only load`,
    ...ggufLoadLines(R.gguf_load),
    "",
    `## Template path vs native qwen3 encoder (CPU time, paired per round)`,
    ...templateLines,
    "",
    `## Load through the table cache (one process per load, cold = empty cache directory)`,
    ...loadCacheLines,
    "",
    `## Targets`,
    ...targetLines,
    ...(inp.notes.length ? ["", "## Notes", ...inp.notes.map((n) => `- ${n}`)] : []),
  ].join("\n");

  const svg = plot(inp, R);
  const markdown = [
    "# chatwire bench results",
    "",
    `Generated by \`node bench/run.js\` (full run, ${Math.round(inp.elapsed)} s) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.arch}; 2 shared cores, so read the RATIOS (each measured in one process or back to back), not absolute numbers. Method: bench/README.md.`,
    "",
    "![per-token cost against sequence length](results-plot.svg)",
    "",
    tables,
    "",
  ].join("\n");
  return { summary, tables, markdown, svg };
}

function plot(inp: Input, R: Input["results"]): string {
  const W = 720;
  const H = 420;
  const L = 70;
  const B = 50;
  const T = 30;
  const Rm = 190;
  const xs = [1024, 4096, 8192, 32768];
  const series: { name: string; color: string; pts: [number, number][] }[] = [];
  const add = (name: string, color: string, pts: [number, Num][]) => {
    const ok = pts.filter((p): p is [number, number] => p[1] !== null);
    if (ok.length) series.push({ name, color, pts: ok });
  };
  const lens = [1024, 8192, 32768];
  add(
    "floor",
    "#999",
    lens.map((n) => [n, num(R.decode_ours, "qwen3", "rows", `mixed-${n}`, "floor", "ns_per_token")]),
  );
  add(
    "ours",
    "#d62728",
    lens.map((n) => [n, num(R.decode_ours, "qwen3", "rows", `mixed-${n}`, "ours", "ns_per_token")]),
  );
  add(
    "ours + 2 stops",
    "#ff7f0e",
    lens.map((n) => [n, num(R.decode_ours, "qwen3", "rows", `mixed-${n}`, "ours_stop", "ns_per_token")]),
  );
  add(
    "HF JS window",
    "#1f77b4",
    lens.map((n) => [n, num(R.decode_hf_js, "window", `mixed-${n}`, "ns_per_token")]),
  );
  add(
    "HF Rust window",
    "#2ca02c",
    lens.map((n) => [n, num(R.decode_hf_rust, "window", `mixed-${n}`, "ns_per_token")]),
  );
  add(
    "naive re-decode (HF JS)",
    "#9467bd",
    xs.map((n) => [n, num(R.decode_hf_js, "naive", String(n), "ns_per_token")]),
  );
  const all = series.flatMap((s) => s.pts.map((p) => p[1]));
  const lo = Math.floor(Math.log10(Math.max(0.1, Math.min(...all, 1))));
  const hi = Math.ceil(Math.log10(Math.max(...all, 10)));
  const px = (n: number) => L + ((Math.log2(n) - 10) / 5) * (W - L - Rm);
  const py = (v: number) => T + ((hi - Math.log10(v)) / (hi - lo)) * (H - T - B);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    "<title>chatwire decoder: ns per token against output length, ours vs alternatives</title>",
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${L}" y="18" font-size="14">Qwen3 mixed generation: ns per token vs output length (log-log)</text>`,
  ];
  for (let e = lo; e <= hi; e++) {
    const y = py(10 ** e);
    parts.push(`<line x1="${L}" x2="${W - Rm}" y1="${y}" y2="${y}" stroke="#eee"/>`);
    parts.push(`<text x="${L - 6}" y="${y + 4}" text-anchor="end">${fmtNs(10 ** e)}</text>`);
  }
  for (const n of xs) {
    parts.push(`<line x1="${px(n)}" x2="${px(n)}" y1="${T}" y2="${H - B}" stroke="#eee"/>`);
    parts.push(`<text x="${px(n)}" y="${H - B + 16}" text-anchor="middle">${n / 1024}k</text>`);
  }
  parts.push(`<text x="${(L + W - Rm) / 2}" y="${H - 12}" text-anchor="middle">tokens generated</text>`);
  series.forEach((s, i) => {
    const d = s.pts.map((p, j) => `${j ? "L" : "M"}${px(p[0]).toFixed(1)},${py(p[1]).toFixed(1)}`).join(" ");
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    for (const p of s.pts)
      parts.push(`<circle cx="${px(p[0]).toFixed(1)}" cy="${py(p[1]).toFixed(1)}" r="3" fill="${s.color}"/>`);
    parts.push(`<rect x="${W - Rm + 15}" y="${T + 10 + i * 20}" width="14" height="3" fill="${s.color}"/>`);
    parts.push(`<text x="${W - Rm + 35}" y="${T + 15 + i * 20}">${s.name}</text>`);
  });
  parts.push("</svg>");
  void inp;
  return `${parts.join("\n")}\n`;
}
