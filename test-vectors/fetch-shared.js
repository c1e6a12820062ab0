#!/usr/bin/env node
// Fetches the test data the suites read from ../shared, from its public origins, for anyone
// outside the setup that provides ../shared. The manifest is test-vectors/SOURCES.md itself:
// every row of its tables names a file, its origin (a GitHub repository or an npm package), the
// revision, the path there, how the file is cut out of that source, its SHA-256 and licence.
// Nothing is written unless its SHA-256 equals the manifest's.
//
//   node test-vectors/fetch-shared.js [DEST] [--only PREFIX] [--dry-run]
//     DEST      where ../shared is (default: ../shared beside the repository)
//     --only    only the files whose manifest name starts with PREFIX (e.g. templates/)
//     --dry-run print what would be fetched, fetch nothing
//
// Extraction kinds (column "extract"):
//   file          the file's bytes (a Git LFS pointer is followed to GitHub's media host)
//   json:FIELD    the string FIELD of a JSON file (a tokenizer_config.json's chat_template)
//   openvino:KEY  openvino.genai's tests/python_tests/data/tokenizer_configs.py: the dict literal
//                 its function returns, read with Python's ast.literal_eval (needs python3; no
//                 code of the file runs); KEY = model id, or "model chat_template.NAME"
//   hfjs:ID       huggingface.js packages/jinja/test/e2e.test.js: TEST_CUSTOM_TEMPLATES[ID]'s
//                 chat_template, a JavaScript template literal, evaluated in an empty vm context
//                 (the file's constant declarations only)
// Requires Node 20+ (global fetch). Plain JavaScript: runs without installing the workspace.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runInNewContext } from "node:vm";
import { gunzipSync } from "node:zlib";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const SOURCES_PATH = resolve(repoRoot, "test-vectors/SOURCES.md");

/** The manifest's columns, in order. */
export const COLUMNS = ["file", "repository", "revision", "path", "extract", "sha256", "licence"];

/**
 * Where the suites look for each area of ../shared: the environment variable that overrides it
 * (relative to the repository root) and its default.
 */
export const AREAS = {
  tokenizers: "CHATWIRE_FIXTURES",
  templates: "CHATWIRE_TEMPLATES",
  "templates-extra": "CHATWIRE_TEMPLATES_EXTRA",
  "gguf-vocab": "CHATWIRE_GGUF_VOCAB",
  "peer-suites/harmony": "CHATWIRE_HARMONY_SUITE",
  "peer-suites/mistral-common": "CHATWIRE_MISTRAL_COMMON",
};

/** The area a manifest file name belongs to (its longest matching prefix), or undefined. */
export function areaOf(file) {
  let best;
  for (const a of Object.keys(AREAS))
    if (file.startsWith(`${a}/`) && (best === undefined || a.length > best.length)) best = a;
  return best;
}

/** The cells of one markdown table row; `\|` is a literal bar. */
function cells(line) {
  const out = [];
  let cur = "";
  for (let i = 1; i < line.length; i++) {
    const c = line[i];
    if (c === "\\" && line[i + 1] === "|") {
      cur += "|";
      i++;
    } else if (c === "|") {
      out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  return out;
}

const EXTRACT = /^(file|json:.+|openvino:.+|hfjs:.+)$/;

/**
 * The manifest rows of a SOURCES.md text: every table whose header is exactly COLUMNS. A row that
 * does not fit (cell count, a SHA-256 that is not 64 hex digits, an unknown extraction, a file
 * outside the known areas, a name listed twice) throws with its line number.
 */
export function parseSources(markdown) {
  const entries = [];
  const seen = new Set();
  const lines = markdown.split("\n");
  let inTable = false;
  lines.forEach((line, i) => {
    const at = `SOURCES.md:${i + 1}`;
    if (!line.startsWith("|")) {
      inTable = false;
      return;
    }
    const row = cells(line);
    if (!inTable) {
      inTable = row.join(",") === COLUMNS.join(",");
      return;
    }
    if (row.every((c) => /^-+$/.test(c))) return;
    if (row.length !== COLUMNS.length) throw new Error(`${at}: ${row.length} cells, want ${COLUMNS.length}`);
    const e = Object.fromEntries(COLUMNS.map((c, k) => [c, row[k]]));
    if (!/^[0-9a-f]{64}$/.test(e.sha256)) throw new Error(`${at}: sha256 is not 64 hex digits`);
    if (!EXTRACT.test(e.extract)) throw new Error(`${at}: unknown extract "${e.extract}"`);
    if (areaOf(e.file) === undefined) throw new Error(`${at}: ${e.file} is in no known area`);
    if (e.file.split("/").includes("..")) throw new Error(`${at}: ${e.file} leaves its area`);
    for (const c of COLUMNS) if (e[c] === "") throw new Error(`${at}: empty ${c}`);
    if (seen.has(e.file)) throw new Error(`${at}: ${e.file} listed twice`);
    seen.add(e.file);
    entries.push(e);
  });
  return entries;
}

/** The URL a source file is read from: GitHub raw content, or an npm package tarball. */
export function sourceUrl(e) {
  if (e.repository.startsWith("npm:")) {
    const name = e.repository.slice("npm:".length);
    const base = name.startsWith("@") ? name.slice(name.indexOf("/") + 1) : name;
    return `https://registry.npmjs.org/${name}/-/${base}-${e.revision}.tgz`;
  }
  return `https://raw.githubusercontent.com/${e.repository}/${e.revision}/${e.path}`;
}

/** GitHub's host for the content behind a Git LFS pointer. */
export function lfsUrl(e) {
  return `https://media.githubusercontent.com/media/${e.repository}/${e.revision}/${e.path}`;
}

export function isLfsPointer(bytes) {
  return (
    bytes.length < 1024 &&
    Buffer.from(bytes).toString("latin1").startsWith("version https://git-lfs.github.com/spec/")
  );
}

/** One file of a (gunzipped) tar archive, or undefined. ustar names: prefix + "/" + name. */
export function tarFile(tar, wanted) {
  const str = (a, b) => Buffer.from(tar.subarray(a, b)).toString("utf8").replace(/\0.*$/s, "");
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = str(at, at + 100);
    if (name === "") return undefined;
    const size = Number.parseInt(str(at + 124, at + 136).trim() || "0", 8);
    const prefix = str(at + 345, at + 500);
    const full = prefix === "" ? name : `${prefix}/${name}`;
    const type = str(at + 156, at + 157);
    if (full === wanted && (type === "" || type === "0")) return tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return undefined;
}

/** TEST_CUSTOM_TEMPLATES of huggingface.js's e2e test: id -> chat_template. */
export function hfjsTemplates(source) {
  const start = source.indexOf("const EXAMPLE_CHAT =");
  const end = source.indexOf("const TEST_CUSTOM_FORMATTING");
  if (start < 0 || end < start) throw new Error("e2e.test.js: TEST_CUSTOM_TEMPLATES not found");
  const js = `${source.slice(start, end)}\nObject.fromEntries(Object.entries(TEST_CUSTOM_TEMPLATES).map(([k, v]) => [k, v.chat_template]));`;
  return JSON.parse(JSON.stringify(runInNewContext(js, {}, { timeout: 10_000 })));
}

const OPENVINO_PY = `
import ast, json, sys
tree = ast.parse(sys.stdin.read())
ret = next(n for n in ast.walk(tree) if isinstance(n, ast.Return))
configs = ast.literal_eval(ret.value)
print(json.dumps({k: v.get("chat_template") for k, v in configs.items()}))
`;

/** openvino.genai's tokenizer configs: model id -> chat_template (a string, or name -> string). */
export function openvinoTemplates(source, python = "python3") {
  const r = spawnSync(python, ["-c", OPENVINO_PY], { input: source, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`python3 could not read tokenizer_configs.py: ${r.stderr || r.error}`);
  return JSON.parse(r.stdout);
}

/** The bytes a manifest row names, cut out of its source's bytes. */
export function extract(e, bytes, parsed = new Map()) {
  const [kind, ...rest] = e.extract.split(":");
  const arg = rest.join(":");
  const text = () => Buffer.from(bytes).toString("utf8");
  const once = (f) => {
    const k = `${e.repository}@${e.revision}:${e.path}`;
    if (!parsed.has(k)) parsed.set(k, f());
    return parsed.get(k);
  };
  const utf8 = (s, what) => {
    if (typeof s !== "string") throw new Error(`${e.file}: ${what} is not a string`);
    return new Uint8Array(Buffer.from(s, "utf8"));
  };
  switch (kind) {
    case "file":
      return bytes;
    case "json":
      return utf8(JSON.parse(text())[arg], `${e.path} "${arg}"`);
    case "hfjs":
      return utf8(once(() => hfjsTemplates(text()))[arg], `TEST_CUSTOM_TEMPLATES[${arg}]`);
    case "openvino": {
      const [model, name] = arg.split(" chat_template.");
      const t = once(() => openvinoTemplates(text()))[model];
      return utf8(name === undefined ? t : t?.[name], `openvino ${arg}`);
    }
    default:
      throw new Error(`${e.file}: unknown extract ${e.extract}`);
  }
}

export const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

async function download(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** The source bytes of a row (the whole file the extraction reads). */
async function sourceBytes(e, cache) {
  const url = sourceUrl(e);
  if (e.repository.startsWith("npm:")) {
    if (!cache.has(url)) cache.set(url, gunzipSync(await download(url)));
    const f = tarFile(cache.get(url), `package/${e.path}`);
    if (f === undefined) throw new Error(`${url}: no package/${e.path}`);
    return f;
  }
  if (!cache.has(url)) {
    let b = await download(url);
    if (isLfsPointer(b)) b = await download(lfsUrl(e));
    cache.set(url, b);
  }
  return cache.get(url);
}

async function main(argv) {
  const args = [...argv];
  const flag = (n) => {
    const i = args.indexOf(n);
    if (i < 0) return false;
    args.splice(i, 1);
    return true;
  };
  const dry = flag("--dry-run");
  let only = "";
  const oi = args.indexOf("--only");
  if (oi >= 0) {
    only = args[oi + 1] ?? "";
    args.splice(oi, 2);
  }
  const dest = resolve(args[0] ?? resolve(repoRoot, "../shared"));
  const entries = parseSources(readFileSync(SOURCES_PATH, "utf8")).filter((e) => e.file.startsWith(only));
  const cache = new Map();
  const parsed = new Map();
  let bad = 0;
  let fetched = 0;
  for (const e of entries) {
    const out = resolve(dest, e.file);
    if (existsSync(out) && sha256(readFileSync(out)) === e.sha256) continue;
    if (dry) {
      process.stdout.write(`${e.file} <- ${sourceUrl(e)} (${e.extract})\n`);
      continue;
    }
    try {
      const b = extract(e, await sourceBytes(e, cache), parsed);
      if (sha256(b) !== e.sha256) throw new Error(`sha256 ${sha256(b)}, manifest ${e.sha256}`);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, b);
      fetched++;
    } catch (err) {
      bad++;
      process.stderr.write(`${e.file}: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
  process.stdout.write(`${entries.length} files listed, ${fetched} fetched, ${bad} failed -> ${dest}\n`);
  return bad === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
