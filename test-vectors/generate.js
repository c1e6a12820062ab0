#!/usr/bin/env node
// Regenerates the golden vectors from the reference implementations.
//
//   node test-vectors/generate.js [--out DIR] [--only internlm2,chatglm3,tiny-ilm,tiny-glm,qwen3] [--train]
//
// --out    output directory (default: test-vectors/golden)
// --only   a subset of models (default: all whose reference tool and files are present)
// --train  first re-train the tiny SentencePiece models (gen/train_tiny.sh); normally not
//          wanted: the committed models are the fixtures, only encode/decode is re-run.
//
// Fixtures (real InternLM2/ChatGLM3 files): $CHATWIRE_FIXTURES, else ../shared/tokenizers
// relative to the repository root. Python: $CHATWIRE_PYTHON, else /usr/bin/python3 (needs the
// `sentencepiece` module). A model whose tool or files are missing is skipped with a message.
// Exit status: 0 when every selected model that could run succeeded, 1 otherwise.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "..");
export const SP_MODELS = ["internlm2", "chatglm3", "tiny-ilm", "tiny-glm"];
export const ALL_MODELS = [...SP_MODELS, "qwen3"];

function parseArgs(argv) {
  const opts = { out: resolve(here, "golden"), only: ALL_MODELS, train: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--out") opts.out = resolve(argv[++i] ?? "");
    else if (a === "--only") opts.only = (argv[++i] ?? "").split(",").filter(Boolean);
    else if (a === "--train") opts.train = true;
    else throw new TypeError(`generate.js: unknown argument ${a}`);
  }
  for (const m of opts.only) {
    if (!ALL_MODELS.includes(m))
      throw new TypeError(`generate.js: unknown model ${m} (known: ${ALL_MODELS.join(", ")})`);
  }
  return opts;
}

export function pythonPath() {
  return process.env.CHATWIRE_PYTHON ?? "/usr/bin/python3";
}

export function havePythonSentencepiece() {
  const r = spawnSync(pythonPath(), ["-c", "import sentencepiece"], { stdio: "ignore" });
  return r.status === 0;
}

export function fixturesDir() {
  return resolve(repoRoot, process.env.CHATWIRE_FIXTURES ?? "../shared/tokenizers");
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: "inherit", cwd: repoRoot });
  if (r.error) throw r.error;
  return r.status === 0;
}

/** Runs a Python generator of gen/ over the fixtures for `models`, writing into `out`. */
function runPythonGen(script, out, models) {
  return run(pythonPath(), [
    resolve(here, "gen", script),
    fixturesDir(),
    out,
    `--models=${models.join(",")}`,
  ]);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  let ok = true;
  if (opts.train) ok = run("sh", [resolve(here, "gen/train_tiny.sh")]) && ok;
  const sp = opts.only.filter((m) => SP_MODELS.includes(m));
  if (sp.length > 0) {
    if (havePythonSentencepiece()) {
      ok = runPythonGen("sentencepiece_vectors.py", opts.out, sp) && ok;
      // OpenAI-shaped requests (requests.json) -> {internlm2,chatglm3}.request.json
      const chat = sp.filter((m) => m === "internlm2" || m === "chatglm3");
      if (chat.length > 0) ok = runPythonGen("request_vectors.py", opts.out, chat) && ok;
    } else {
      console.error(`generate.js: skip ${sp.join(", ")}: ${pythonPath()} cannot import sentencepiece`);
    }
  }
  if (opts.only.includes("qwen3")) {
    ok = run(process.execPath, [resolve(here, "gen/qwen3_vectors.js"), opts.out]) && ok;
    ok = run(process.execPath, [resolve(here, "gen/qwen3_request_vectors.js"), opts.out]) && ok;
  }
  if (!existsSync(opts.out)) ok = false;
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
