// bench/src/load-cache.ts, one timed load in a fresh process: loadAnyTokenizer(DIR) with the
// table cache in CACHE_DIR (the one choice rule: native family, else the model's template).
// Module imports stay outside the interval; the load includes reading the files and, on a cold
// load, writing the table file (what a user's first load pays).
import { loadAnyTokenizer } from "@chatwire/tokenizer/node";

const [dir = "", cacheDir = ""] = process.argv.slice(2);
const t = performance.now();
const tok = await loadAnyTokenizer(dir, { cacheDir });
const ms = performance.now() - t;
console.log(JSON.stringify({ ms, format: tok.format, vocabSize: tok.textModel.vocabSize }));
