// GGUF tokenizer load: chatwire (loadGgufFile of @chatwire/tokenizer/node: read the metadata
// head, build the text model, family or template, plus one encodeText so lazy tables count)
// against node-llama-cpp's vocab-only load of the same file (loadModel({vocabOnly: true}) plus one
// tokenize). N fresh processes per side, ALTERNATING pair by pair; each side times itself inside
// its process (runtime startup and module imports outside the interval on both sides). Reports
// each side's median and the per-pair ratio ours / theirs (median, range).
//
//   node --import tsx bench/src/gguf-load.ts FILE.gguf [--pairs=N] [--vocab-only]
// --vocab-only: our side loads the vocabulary alone (files with neither a family nor a template).
//
// Runs our compiled dist/ (build first); node-llama-cpp is resolved from packages/server (its
// devDependency), the prebuilt CPU binary only.
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./measure.ts";

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function run(worker: string, file: string, mode: string): number {
  const p = spawnSync(
    process.execPath,
    ["--import", "tsx", resolve(benchDir, "src/workers", worker), file, mode],
    {
      cwd: benchDir,
      encoding: "utf8",
    },
  );
  const last = p.stdout.trim().split("\n").at(-1) ?? "";
  if (p.status !== 0 || !last.startsWith("{"))
    throw new Error(`${worker} exited ${p.status}: ${p.stderr.slice(0, 300)}`);
  return (JSON.parse(last) as { ms: number }).ms;
}

const file = process.argv.slice(2).find((a) => !a.startsWith("--"));
const pairs = Number(process.argv.find((a) => a.startsWith("--pairs="))?.slice(8) ?? 5);
if (file === undefined) {
  process.stderr.write("usage: node --import tsx bench/src/gguf-load.ts FILE.gguf [--pairs=N]\n");
  process.exit(2);
}
const mode = process.argv.includes("--vocab-only") ? "vocab" : "auto";
const ours: number[] = [];
const theirs: number[] = [];
for (let i = 0; i < pairs; i++) {
  ours.push(run("gguf-load-ours.ts", resolve(file), mode));
  theirs.push(run("gguf-load-llama.ts", resolve(file), mode));
}
const ratios = ours.map((o, i) => o / (theirs[i] as number));
console.log(
  JSON.stringify({
    file,
    pairs,
    oursMs: Math.round(median(ours)),
    nodeLlamaCppMs: Math.round(median(theirs)),
    ratio: Number(median(ratios).toFixed(3)),
    ratioRange: [Number(Math.min(...ratios).toFixed(3)), Number(Math.max(...ratios).toFixed(3))],
  }),
);
