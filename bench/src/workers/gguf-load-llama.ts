// bench/src/gguf-load.ts, node-llama-cpp's side: one timed vocab-only load (+ one tokenize) in a
// fresh process; node-llama-cpp resolved from packages/server, where it is a devDependency.
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../../packages/server");
const entry = createRequire(resolve(serverDir, "package.json")).resolve("node-llama-cpp");
// The few members used here (the bench package does not depend on node-llama-cpp itself).
interface Llama {
  loadModel(o: { modelPath: string; vocabOnly: boolean }): Promise<{
    tokenize(text: string): readonly number[];
    dispose(): Promise<void>;
  }>;
  dispose(): Promise<void>;
}
const { getLlama } = (await import(pathToFileURL(entry).href)) as {
  getLlama(o: { gpu: false; build: "never" }): Promise<Llama>;
};
const file = process.argv[2] ?? "";
const llama = await getLlama({ gpu: false, build: "never" });
const t = performance.now();
const m = await llama.loadModel({ modelPath: file, vocabOnly: true });
m.tokenize("Hello, world!");
console.log(JSON.stringify({ ms: performance.now() - t }));
await m.dispose();
await llama.dispose();
