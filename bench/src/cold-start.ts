// Cold-start harness: N fresh processes per side, ALTERNATING ours / reference pair by pair,
// each side timed inside its own process exactly as the bench does (encode-ours.ts coldOnly:
// load + first encodeChat + first decoded token; spm.py op "cold": SentencePiece C++ load +
// first encode + first decode; Qwen3: encode-baseline.ts gpt-tokenizer, its fastest peer in the
// full bench: load = reading the rank file and constructing the encoder). Interpreter startup
// and module imports are outside the interval on both sides.
// Reports per-pair ratios (wall and CPU time of the interval), their median and range.
//
//   node --conditions=source --import tsx bench/src/cold-start.ts [internlm2|chatglm3|qwen3 ...] [--pairs=N]
//   node --import tsx bench/src/cold-start.ts --with-import [--pairs=N]
//     Qwen3 with the imports inside the clock, in plain node processes, ours vs gpt-tokenizer
//     (cold-import.ts; the summary's import_ms and cold_start.qwen3.*_with_import_ms).
//
// Our side reads the table file from bench/out/table-cache-cold (filled by one untimed process
// first), as a user's second and later loads do. Runs our packages' compiled dist/ (build first).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { coldImportRows } from "./cold-import.ts";
import { type ModelName, spmModelPath } from "./fixtures.ts";
import { median } from "./measure.ts";

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = resolve(benchDir, "out");
const cacheDir = resolve(outDir, "table-cache-cold");
const corpus = resolve(outDir, "cold-start-corpus.json");

type Result = Record<string, unknown>;

function run(cmd: string, args: string[], input?: string): Result {
  const p = spawnSync(cmd, args, {
    cwd: benchDir,
    encoding: "utf8",
    input,
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "inherit"],
    env: { ...process.env, CHATWIRE_CACHE_DIR: cacheDir },
  });
  const last = p.stdout.trim().split("\n").at(-1) ?? "";
  if (p.status !== 0 || !last.startsWith("{"))
    throw new Error(`${args.join(" ").slice(0, 120)} exited ${p.status}`);
  return JSON.parse(last) as Result;
}

function worker(script: string, req: unknown): Result {
  return run(process.execPath, [
    "--expose-gc",
    "--import",
    "tsx",
    resolve(benchDir, "src/workers", script),
    JSON.stringify(req),
  ]);
}

function ours(model: ModelName): Result {
  return worker("encode-ours.ts", { model, corpus, warmup: 0, rounds: 1, coldOnly: true });
}

function reference(model: ModelName): Result {
  if (model === "qwen3")
    return worker("encode-baseline.ts", { lib: "gpt-tokenizer", model, corpus, warmup: 0, rounds: 1 });
  return run(
    "/usr/bin/python3",
    [resolve(benchDir, "src/spm.py")],
    JSON.stringify({ op: "cold", model: spmModelPath(model) }),
  );
}

/** The prebuilt table file of @chatwire/tokenizer-qwen3, as at pack time. */
function buildQwen3Tables(): void {
  const script = resolve(benchDir, "../packages/tokenizer-qwen3/scripts/build-tables.js");
  if (spawnSync(process.execPath, [script], { stdio: "inherit" }).status !== 0)
    throw new Error(`${script} failed`);
}

const num = (r: Result, k: string): number => {
  const v = r[k];
  if (typeof v !== "number") throw new Error(`missing ${k}`);
  return v;
};

const args = process.argv.slice(2);
const pairs = Number(args.find((a) => a.startsWith("--pairs="))?.slice(8) ?? 7);
const models = args.filter((a) => !a.startsWith("--")) as ModelName[];
mkdirSync(outDir, { recursive: true });
if (args.includes("--with-import")) {
  buildQwen3Tables();
  const rows = coldImportRows(pairs);
  delete rows.samples;
  process.stdout.write(`${JSON.stringify(rows, null, 1)}\n`);
  process.exit(0);
}
writeFileSync(corpus, JSON.stringify([["Hello"], ["world"], ["again"]]));
rmSync(cacheDir, { recursive: true, force: true });
const summary: Record<string, unknown> = {};
for (const model of models.length > 0 ? models : (["internlm2", "chatglm3"] as ModelName[])) {
  // Untimed: the table file (InternLM2/ChatGLM3: the cache directory; Qwen3: the prebuilt file
  // of @chatwire/tokenizer-qwen3, as at pack time).
  if (model !== "qwen3") ours(model);
  else buildQwen3Tables();
  const wall: number[] = [];
  const cpu: number[] = [];
  const oursMs: number[] = [];
  const refMs: number[] = [];
  const parts: Result[] = [];
  for (let i = 0; i < pairs; i++) {
    const first = i % 2 === 0;
    const a = first ? ours(model) : reference(model);
    const b = first ? reference(model) : ours(model);
    const o = first ? a : b;
    const r = first ? b : a;
    oursMs.push(num(o, "cold_start_ms"));
    refMs.push(num(r, "cold_start_ms"));
    wall.push(num(o, "cold_start_ms") / num(r, "cold_start_ms"));
    if (typeof o.cold_start_cpu_ms === "number" && typeof r.cold_start_cpu_ms === "number")
      cpu.push(o.cold_start_cpu_ms / r.cold_start_cpu_ms);
    parts.push({
      load: num(o, "load_ms"),
      chat: num(o, "first_chat_encode_ms"),
      decode: num(o, "first_decode_ms"),
    });
  }
  const range = (xs: number[]): string =>
    `${median(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}, ${Math.max(...xs).toFixed(2)}]`;
  const line = {
    ours_ms: range(oursMs),
    reference_ms: range(refMs),
    wall_ratio: range(wall),
    cpu_ratio: cpu.length > 0 ? range(cpu) : null,
    ours_parts_median: {
      load: median(parts.map((p) => p.load as number)),
      chat: median(parts.map((p) => p.chat as number)),
      decode: median(parts.map((p) => p.decode as number)),
    },
  };
  summary[model] = line;
  process.stderr.write(`${model}: ${JSON.stringify(line)}\n`);
}
process.stdout.write(`${JSON.stringify(summary)}\n`);
