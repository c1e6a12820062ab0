// Cold start WITH the import, as a user's program pays it: each sample is a fresh plain `node`
// process running a program file (no tsx, no loader hooks, no "source" condition: Node resolves
// our packages to their published Node bundles, dist/bundle/) that starts the clock before its
// first import.
//   ours:          import @chatwire/tokenizer/node, @chatwire/stream-decoder, @chatwire/tokenizer
//                  | loadTokenizer("qwen3") (the data package's prebuilt table file, an empty
//                  cache directory) + the first encodeChat + the first decoded token
//                  (compileDecoderSpecFor, createDecoder, push until the first text callback)
//   gpt-tokenizer: import gpt-tokenizer/BytePairEncodingCore | its ranks loaded + the encoder
//                  constructed with Qwen3's ranks, split pattern and <|endoftext|> + the first
//                  encode + the decode of its first ID
// "|" is where the without-import interval starts. gpt-tokenizer's documentation loads an
// encoding by importing a module that holds its ranks as an array literal (bpeRanks/*.js); with
// Qwen3's ranks both that form (`ranks: "module"`, bench/out/qwen3.gpt-tokenizer.js, written in
// the same layout) and JSON.parse of the same array (`ranks: "json"`) are run, and the faster of
// the two is the peer's row. Every file either side reads is written before the first process.
// Processes run in rotated order (ours, module, json / module, json, ours / ...), so a burst of
// load on this shared machine lands on every side alike; wall and CPU time (process.cpuUsage,
// every thread) are reported, medians over the samples.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { benchDir, outDir } from "./fixtures.ts";
import { FIRST_ENCODE_TEXT, median } from "./measure.ts";
import { chatRequest } from "./ours.ts";
import {
  jsSplitRegex,
  preparePeerFiles,
  QWEN3_EOT,
  qwen3GptTokenizerFile,
  qwen3GptTokenizerModule,
  qwen3SplitPattern,
} from "./peers.ts";

const CLOCK = "const c0 = process.cpuUsage(); const t0 = performance.now();";
const SPLIT = "const t1 = performance.now(); const c1 = process.cpuUsage(c0);";
const END = `const t2 = performance.now(); const c2 = process.cpuUsage(c0);
const cpu = (c) => (c.user + c.system) / 1000;
console.log(JSON.stringify({ import_ms: t1 - t0, without_import_ms: t2 - t1, with_import_ms: t2 - t0,
  import_cpu_ms: cpu(c1), without_import_cpu_ms: cpu(c2) - cpu(c1), with_import_cpu_ms: cpu(c2), check }));`;

function oursProgram(): string {
  return `${CLOCK}
const { loadTokenizer } = await import("@chatwire/tokenizer/node");
const { compileDecoderSpecFor, createDecoder } = await import("@chatwire/stream-decoder");
await import("@chatwire/tokenizer");
${SPLIT}
const tok = await loadTokenizer("qwen3");
const chat = tok.encodeChat(${JSON.stringify(chatRequest([FIRST_ENCODE_TEXT]))});
let first = "";
const decoder = createDecoder(compileDecoderSpecFor(tok), { onText(text) { first ||= text; } });
const reply = tok.textModel.encode("Hello");
for (let i = 0; i < reply.length && first === ""; i++) decoder.push(reply[i]);
const check = chat.ids.length + ":" + first;
${END}`;
}

function gptTokenizerProgram(ranks: "module" | "json"): string {
  const load =
    ranks === "module"
      ? `const ranks = (await import(${JSON.stringify(`file://${qwen3GptTokenizerModule()}`)})).default;`
      : `const { readFileSync } = await import("node:fs");
const ranks = JSON.parse(readFileSync(${JSON.stringify(qwen3GptTokenizerFile())}, "utf8"));`;
  return `${CLOCK}
const { BytePairEncodingCore } = await import("gpt-tokenizer/BytePairEncodingCore");
${SPLIT}
${load}
const core = new BytePairEncodingCore({
  bytePairRankDecoder: ranks,
  specialTokensEncoder: new Map([${JSON.stringify(QWEN3_EOT)}]),
  tokenSplitRegex: new RegExp(${JSON.stringify(jsSplitRegex(qwen3SplitPattern()).source)}, "gu"),
});
const ids = core.encodeNative(${JSON.stringify(FIRST_ENCODE_TEXT)});
const check = ids.length + ":" + core.decodeNative([ids[0]]);
${END}`;
}

type Sample = Record<string, number | string>;

/** `code` written to out/cold-import-<side>.mjs; its path. */
function program(side: string, code: string): string {
  const file = resolve(outDir, `cold-import-${side}.mjs`);
  writeFileSync(file, code);
  return file;
}

/**
 * One fresh process running `file` (an .mjs program under out/, whose imports resolve from
 * bench/node_modules as a user's program resolves from its own). A file, not `node -e`: with
 * -e, Node sets up its ESM loader at the program's first import, inside the timed interval,
 * where a program run from a file has it set up before its first line runs.
 */
function sample(file: string, cacheDir: string): Sample | { error: string } {
  const p = spawnSync(process.execPath, [file], {
    cwd: benchDir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CHATWIRE_CACHE_DIR: cacheDir },
  });
  const last = p.stdout.trim().split("\n").at(-1) ?? "";
  if (p.status !== 0 || !last.startsWith("{"))
    return { error: `exited ${p.status}: ${p.stderr.trim().split("\n").slice(-3).join(" | ")}` };
  return JSON.parse(last) as Sample;
}

const SIDES = ["ours", "gpt_tokenizer_module", "gpt_tokenizer_json"] as const;
type Side = (typeof SIDES)[number];
const FIELDS = [
  "import_ms",
  "without_import_ms",
  "with_import_ms",
  "import_cpu_ms",
  "without_import_cpu_ms",
  "with_import_cpu_ms",
] as const;

/** `rounds` rotations of the three sides; per side the samples and their medians. */
export function coldImportRows(rounds: number): Record<string, unknown> {
  preparePeerFiles();
  qwen3GptTokenizerModule();
  const cacheDir = resolve(outDir, "table-cache-import");
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  const programs: Record<Side, string> = {
    ours: program("ours", oursProgram()),
    gpt_tokenizer_module: program("gpt_tokenizer_module", gptTokenizerProgram("module")),
    gpt_tokenizer_json: program("gpt_tokenizer_json", gptTokenizerProgram("json")),
  };
  const samples: Record<Side, Sample[]> = { ours: [], gpt_tokenizer_module: [], gpt_tokenizer_json: [] };
  const errors: string[] = [];
  for (let r = 0; r < rounds; r++)
    for (let j = 0; j < SIDES.length; j++) {
      const side = SIDES[(j + r) % SIDES.length] as Side;
      const s = sample(programs[side], cacheDir);
      if ("error" in s) errors.push(`${side}: ${s.error}`);
      else samples[side].push(s);
    }
  const out: Record<string, unknown> = { rounds, errors, samples };
  for (const side of SIDES) {
    const m: Record<string, number | string | null> = {};
    for (const f of FIELDS) {
      const xs = samples[side].map((s) => s[f]).filter((x): x is number => typeof x === "number");
      m[f] = xs.length > 0 ? median(xs) : null;
    }
    m.check = samples[side][0]?.check ?? null;
    out[side] = m;
  }
  out.ratios = roundRatios(samples, out);
  return out;
}

/**
 * Per round, the peer's time over ours (> 1: ours is faster) for each interval, wall and CPU: the
 * median and range over the rounds. The peer is its faster form by median (the summary's row).
 */
function roundRatios(
  samples: Record<Side, Sample[]>,
  medians: Record<string, unknown>,
): Record<string, unknown> {
  const withImport = (side: Side): number =>
    ((medians[side] as Record<string, number | null>).with_import_ms ?? Number.POSITIVE_INFINITY) as number;
  const peer: Side =
    withImport("gpt_tokenizer_json") < withImport("gpt_tokenizer_module")
      ? "gpt_tokenizer_json"
      : "gpt_tokenizer_module";
  const ours = samples.ours;
  const theirs = samples[peer];
  // Samples pair up by round only when no process of either side failed.
  if (ours.length !== theirs.length) return { peer, note: "a failed process: no per-round ratios" };
  const out: Record<string, unknown> = { peer, rounds: ours.length };
  for (const f of [
    "with_import_ms",
    "without_import_ms",
    "with_import_cpu_ms",
    "without_import_cpu_ms",
  ] as const) {
    const xs = ours.map((o, r) => (theirs[r]?.[f] as number) / (o[f] as number)).filter(Number.isFinite);
    if (xs.length === 0) continue;
    out[f.replace("_ms", "")] = { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
  }
  return out;
}
