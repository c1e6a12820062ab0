// bench/src/gguf-load.ts, our side: one timed GGUF load (+ one encodeText) in a fresh process.
import { loadGgufFile } from "@chatwire/tokenizer/node";

const file = process.argv[2] ?? "";
// "vocab": the vocabulary alone (template path with an empty template), for files without a
// chat template or family; otherwise the one choice rule.
const vocabOnly = process.argv[3] === "vocab";
const t = performance.now();
const g = await loadGgufFile(file, vocabOnly ? { format: "template", chatTemplate: "" } : {});
g.tokenizer.encodeText("Hello, world!");
console.log(JSON.stringify({ ms: performance.now() - t, format: g.tokenizer.format }));
