#!/usr/bin/env node
// The README's performance table, generated from the "Targets" section of bench/RESULTS.md so that
// the README carries no number of its own: `node bench/readme-table.js` rewrites the block between
// the README's bench markers, `--check` exits 1 when the block differs from what RESULTS.md gives.
// bench/run.js (full run) calls it after writing RESULTS.md. Plain JavaScript: runs without a build.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const BEGIN = "<!-- bench:begin -->";
export const END = "<!-- bench:end -->";

/** Each target's label in the README's words under the unit its value reads in (a ratio, "x ..."). */
const LABELS_BY_UNIT = {
  "x the floor's time": {
    decoder_within_3x_honest_floor:
      "Stream decoder vs the floor (a string lookup per ID), each alone in its process",
    decoder_within_5x_floor: "Stream decoder vs the floor (looser target)",
    decoder_realistic_within_3x_floor:
      "Stream decoder vs the floor on a realistic Qwen3 reply (reasoning, code, CJK, emoji, a long tool call)",
    decoder_realistic_settled_within_3x_floor:
      "The same, in a process whose young generation has settled (no page fault per round)",
    tool_call_rows_within_4x_floor:
      "Stream decoder vs the floor on Llama 3.x and DeepSeek V3 tool-call generations, worst row",
    tool_call_rows_settled_within_4x_floor:
      "The same, in a process whose young generation has settled (no page fault per round)",
  },
  "x the UTF-8 floor's time": {
    byte_split_within_2x_utf8_floor:
      "Stream decoder on byte-split tokens (emoji, rare CJK) vs a floor that reassembles UTF-8, worst model",
  },
  "x the time": {
    stop_strings_within_1_5x_decoder: "Stream decoder with 2 stop strings vs without",
    chat_encode_within_10pct: "Safe chat encoding vs raw text encoding, worst model",
    chat_encode_within_5pct: "Safe chat encoding vs raw text encoding, worst model (stricter target)",
  },
  "x slower": {
    decoder_1000x_naive_4k: "Naive re-decode of a 4k-token output per token vs the stream decoder",
    decoder_ahead_of_js_alternatives_every_row:
      "Best JS alternative (windowed re-decode) vs the stream decoder, worst row",
  },
  "x faster": {
    burst8_at_least_1_2x_push: "pushMany with 8 IDs per call vs push per ID, realistic Qwen3 reply",
    encode_qwen3_ge_hf_js: "Qwen3 encoding vs @huggingface/tokenizers",
    encode_qwen3_ge_3x_tiktoken_wasm: "Qwen3 encoding vs tiktoken (WASM, same ranks), paired",
    encode_qwen3_cold_ge_1_8x_tiktoken_wasm: "Qwen3 encoding of cold text vs tiktoken (WASM), paired",
    encode_internlm2_ge_wasm: "InternLM2 encoding vs SentencePiece WASM",
    encode_internlm2_within_2x_cpp:
      "InternLM2 encoding vs Google's C++ SentencePiece (at least half its speed)",
    encode_internlm2_ge_3x_cpp: "InternLM2 encoding vs Google's C++ SentencePiece",
    encode_chatglm3_ge_wasm: "ChatGLM3 encoding vs SentencePiece WASM",
    encode_chatglm3_within_2x_cpp:
      "ChatGLM3 encoding vs Google's C++ SentencePiece (at least half its speed)",
    encode_chatglm3_ge_3x_cpp: "ChatGLM3 encoding vs Google's C++ SentencePiece",
    cold_start_qwen3_faster_than_every_peer:
      "Qwen3 cold start (load + first chat encode + first decoded token) vs the fastest peer",
    cold_start_qwen3_with_import_faster_than_gpt_tokenizer:
      "Qwen3 cold start with the imports (fresh plain node process) vs gpt-tokenizer",
  },
  "x its time": {
    cold_start_internlm2_within_1_5x_cpp: "InternLM2 cold start vs Google's C++ SentencePiece",
    cold_start_chatglm3_within_1_5x_cpp: "ChatGLM3 cold start vs Google's C++ SentencePiece",
    gguf_load_le_node_llama_cpp: "GGUF vocabulary load vs node-llama-cpp's vocab-only load, worst file",
  },
  " ms": {
    import_within_25ms: "Importing the three core entries (fresh plain node process)",
  },
};

/**
 * What each target of bench/src/report.ts measures: [label, unit]. A target missing here still
 * gets a row, named by its key, so a new one cannot vanish.
 */
const LABELS = Object.fromEntries(
  Object.entries(LABELS_BY_UNIT).flatMap(([unit, labels]) =>
    Object.entries(labels).map(([key, what]) => [key, [what, unit]]),
  ),
);

/** The targets of a RESULTS.md text: [{ key, met, value, target }], in file order. */
export function parseTargets(markdown) {
  const at = markdown.indexOf("\n## Targets\n");
  if (at < 0) throw new Error('bench/RESULTS.md has no "## Targets" section');
  const out = [];
  for (const line of markdown.slice(at + "\n## Targets\n".length).split("\n")) {
    if (line.startsWith("## ")) break;
    const m = /^- (MET|MISSED)\s+([a-z0-9_]+): (\S+) \(target (.*)\)$/.exec(line);
    if (m) out.push({ key: m[2], met: m[1] === "MET", value: m[3], target: m[4] });
  }
  if (out.length === 0) throw new Error('bench/RESULTS.md: no target line under "## Targets"');
  return out;
}

/** The README table (markdown lines, no markers) for a RESULTS.md text. */
export function readmeTable(markdown) {
  const rows = parseTargets(markdown).map((t) => {
    const [what, unit] = LABELS[t.key] ?? [t.key.replaceAll("_", " "), ""];
    const value = `${t.value}${unit}`;
    return `| ${what} | ${value} | ${t.target} | ${t.met ? "met" : "missed"} |`;
  });
  return [
    "| measure (ratios from one run; see bench/RESULTS.md) | result | target | |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** `readme` with the block between the markers replaced by the table of `results`. */
export function withTable(readme, results) {
  const b = readme.indexOf(BEGIN);
  const e = readme.indexOf(END);
  if (b < 0 || e < b) throw new Error(`README.md needs ${BEGIN} ... ${END}`);
  return `${readme.slice(0, b + BEGIN.length)}\n${readmeTable(results)}\n${readme.slice(e)}`;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Rewrites README.md from bench/RESULTS.md; with check, only reports a difference. True when equal or written. */
export function updateReadme({ check = false } = {}) {
  const readmePath = resolve(root, "README.md");
  const readme = readFileSync(readmePath, "utf8");
  const next = withTable(readme, readFileSync(resolve(root, "bench/RESULTS.md"), "utf8"));
  if (next === readme) return true;
  if (check) return false;
  writeFileSync(readmePath, next);
  return true;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const check = process.argv.includes("--check");
  if (!updateReadme({ check })) {
    process.stderr.write(
      "README.md's bench table differs from bench/RESULTS.md: run node bench/readme-table.js\n",
    );
    process.exit(1);
  }
}
