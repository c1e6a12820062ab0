// GGUF vocabulary load, chatwire against node-llama-cpp, in ONE process, alternating file by file
// and round by round (round i starts with ours when i is even, theirs when odd), so drift on the
// shared machine hits both alike.
//   ours:  loadGgufFile(path, vocabulary alone: the template path with an empty template) of
//          @chatwire/tokenizer/node (reads the metadata head, builds the text model) + one
//          encodeText, so tables built on first use count.
//   theirs: node-llama-cpp's llama.loadModel({ modelPath, vocabOnly: true }) + one tokenize
//          (getLlama once, before any timing: the runtime's startup is outside both intervals).
// Per file: each side's median and first (coldest) load, and the median of the per-round
// ratios ours / theirs. Request (argv[2], JSON): { files: string[], rounds: number }.
// node-llama-cpp is resolved from packages/server (its devDependency), the prebuilt CPU binary.
import { createRequire } from "node:module";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadGgufFile } from "@chatwire/tokenizer/node";
import { median } from "../measure.ts";

interface Model {
  tokenize(text: string): readonly number[];
  dispose(): Promise<void>;
}
interface Llama {
  loadModel(o: { modelPath: string; vocabOnly: boolean }): Promise<Model>;
  dispose(): Promise<void>;
}

const req = JSON.parse(process.argv[2] ?? "{}") as { files?: string[]; rounds?: number };
const files = req.files ?? [];
const rounds = req.rounds ?? 5;

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../../packages/server");
const entry = createRequire(resolve(serverDir, "package.json")).resolve("node-llama-cpp");
const { getLlama } = (await import(pathToFileURL(entry).href)) as {
  getLlama(o: { gpu: false; build: "never"; logLevel: "error" }): Promise<Llama>;
};
const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" });

let sink = 0;
async function ours(path: string): Promise<number> {
  const t = performance.now();
  const g = await loadGgufFile(path, { format: "template", chatTemplate: "" });
  sink += g.tokenizer.encodeText("Hello, world!").ids.length;
  return performance.now() - t;
}
async function theirs(path: string): Promise<number> {
  const t = performance.now();
  const m = await llama.loadModel({ modelPath: path, vocabOnly: true });
  sink += m.tokenize("Hello, world!").length;
  const ms = performance.now() - t;
  await m.dispose();
  return ms;
}

const times = new Map<string, { ours: number[]; theirs: number[] }>();
for (const f of files) times.set(f, { ours: [], theirs: [] });
for (let r = 0; r < rounds; r++) {
  for (const f of files) {
    const t = times.get(f) as { ours: number[]; theirs: number[] };
    if (r % 2 === 0) {
      t.ours.push(await ours(f));
      t.theirs.push(await theirs(f));
    } else {
      t.theirs.push(await theirs(f));
      t.ours.push(await ours(f));
    }
  }
}
await llama.dispose();

const round1 = (x: number): number => Math.round(x * 10) / 10;
const out: Record<string, unknown> = {};
let maxRatio = 0;
let maxFirst = 0;
for (const [f, t] of times) {
  const ratios = t.ours.map((o, i) => o / (t.theirs[i] as number));
  const ratio = median(ratios);
  maxRatio = Math.max(maxRatio, ratio);
  maxFirst = Math.max(maxFirst, (t.ours[0] as number) / (t.theirs[0] as number));
  out[basename(f, ".gguf")] = {
    ours_ms: round1(median(t.ours)),
    node_llama_cpp_ms: round1(median(t.theirs)),
    ratio: Math.round(ratio * 1000) / 1000,
    ratio_range: [Math.min(...ratios), Math.max(...ratios)].map((x) => Math.round(x * 1000) / 1000),
    ours_first_ms: round1(t.ours[0] as number),
    node_llama_cpp_first_ms: round1(t.theirs[0] as number),
  };
}
console.log(
  JSON.stringify({
    rounds,
    files: out,
    max_ratio_vs_node_llama_cpp: Math.round(maxRatio * 1000) / 1000,
    max_first_load_ratio_vs_node_llama_cpp: Math.round(maxFirst * 1000) / 1000,
    sink,
  }),
);
