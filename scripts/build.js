#!/usr/bin/env node
// Builds the packages' dist/ in two layouts:
//  - `tsc -b`: type-checks, emits one .js and one .d.ts per source file (dist/**). Bundlers get
//    this layout (the exports' "default"): with "sideEffects": false they drop every module a
//    program does not reach.
//  - esbuild: the Node bundle (the exports' "node" condition, dist/bundle/), every bare import
//    (dependencies, other @chatwire packages, node:*) left external. A fresh process importing the
//    per-file layout loads, resolves and links one module per source file, which costs several
//    times what compiling the code does; the bundle is a few files. Minified: parsing is most of
//    what is left, and it scales with the bytes read. SPLIT_PACKAGES (split-bundle.js) parse only
//    their exported values at import and the rest at the first call; the others get one ESM file
//    per entry, the code shared between a package's entries in chunks beside them.
//    Dependencies only some calls need (LAZY_NODE_DEPENDENCIES: the Jinja parser, for chat templates)
//    are not imported by the Node bundle: it require()s their CommonJS build synchronously at the
//    first call, so a program that never compiles a template never parses that package.
// Entries come from each package.json's exports: { "source": "./src/x.ts", "node": "./dist/bundle/x.js" }.
//   node scripts/build.js           every package in tsconfig.build.json's references
//   node scripts/build.js <dir>...  those packages and the ones they reference
// A package whose bundle stamp is newer than its src/, package.json, these scripts and the bundles
// of the packages it references is skipped.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SPLIT_PACKAGES, splitBundle } from "./split-bundle.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));
const BUNDLE_DIR = "dist/bundle";
const STAMP = `${BUNDLE_DIR}/.stamp`;

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/** Dependencies the Node bundles load at first use (each a package with a CommonJS build of functions). */
const LAZY_NODE_DEPENDENCIES = ["@huggingface/jinja"];

/**
 * An import of a LAZY_NODE_DEPENDENCIES package becomes a module of wrappers: each function the
 * package exports, calling into `createRequire(import.meta.url)(package)`, loaded on the first call.
 * (esbuild refuses an import of a name the package does not export as a function.)
 */
function lazyDependencies(pkgDir) {
  const req = createRequire(join(pkgDir, "package.json"));
  return {
    name: "lazy-node-dependencies",
    setup(build) {
      const filter = new RegExp(
        `^(${LAZY_NODE_DEPENDENCIES.map((d) => d.replace(/[/.]/g, "\\$&")).join("|")})$`,
      );
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: "lazy-node-dependency" }));
      build.onLoad({ filter: /.*/, namespace: "lazy-node-dependency" }, (args) => {
        const names = Object.keys(req(args.path)).filter((k) => typeof req(args.path)[k] === "function");
        const lines = [
          'import { createRequire } from "node:module";',
          "let lib;",
          `const load = () => (lib ??= createRequire(import.meta.url)(${JSON.stringify(args.path)}));`,
          ...names.map((n) => `export function ${n}(...args) { return load().${n}(...args); }`),
        ];
        return { contents: lines.join("\n"), loader: "js", resolveDir: pkgDir };
      });
    },
  };
}

/** { "dist/bundle/index": "./src/index.ts", ... } from the exports with "source" and "node". */
function entries(pkgDir) {
  const out = {};
  for (const target of Object.values(readJson(join(pkgDir, "package.json")).exports ?? {})) {
    if (typeof target !== "object" || target === null) continue;
    const { source, node } = target;
    if (typeof source === "string" && typeof node === "string") out[node.replace(/\.js$/, "")] = source;
  }
  return out;
}

function files(dir) {
  let list = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    list = e.isDirectory() ? list.concat(files(p)) : list.concat(p);
  }
  return list;
}

const mtime = (p) => statSync(p, { throwIfNoEntry: false })?.mtimeMs;

const references = (dir) =>
  (readJson(join(dir, "tsconfig.build.json")).references ?? []).map((r) => dirname(resolve(dir, r.path)));

function upToDate(pkgDir) {
  const stamp = mtime(join(pkgDir, STAMP));
  if (stamp === undefined) return false;
  const inputs = [
    fileURLToPath(import.meta.url),
    fileURLToPath(new URL("./split-bundle.js", import.meta.url)),
    join(pkgDir, "package.json"),
    ...files(join(pkgDir, "src")),
    // A referenced package's bundle: its export names are read at build time.
    ...references(pkgDir).map((d) => join(d, STAMP)),
  ];
  return inputs.every((p) => (mtime(p) ?? Infinity) < stamp);
}

const esbuildOptions = (pkgDir) => ({
  absWorkingDir: pkgDir,
  bundle: true,
  packages: "external",
  target: "es2022",
  minify: true,
  // Class and function names stay readable in stack traces and `err.name`-style checks.
  keepNames: true,
  // The sources' compiler settings that change emitted code (class fields as tsc's ES2022 output).
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
  metafile: true,
  logLevel: "warning",
});

/** One ESM file per entry, the code shared between entries in chunks beside them. */
async function esmBundle(pkgDir, entryPoints) {
  const result = await require("esbuild").build({
    ...esbuildOptions(pkgDir),
    entryPoints: Object.entries(entryPoints).map(([out, input]) => ({ in: input, out })),
    outdir: ".",
    splitting: true,
    chunkNames: `${BUNDLE_DIR}/chunks/[name]-[hash]`,
    format: "esm",
    // Nothing Node-specific injected: node:* imports stay imports, as in the per-file layout.
    platform: "neutral",
    plugins: [lazyDependencies(pkgDir)],
  });
  return Object.keys(result.metafile.outputs);
}

async function bundle(pkgDir) {
  const entryPoints = entries(pkgDir);
  if (Object.keys(entryPoints).length === 0 || upToDate(pkgDir)) return;
  const written = SPLIT_PACKAGES.includes(readJson(join(pkgDir, "package.json")).name)
    ? await splitBundle(pkgDir, entryPoints, {
        esbuild: require("esbuild"),
        base: esbuildOptions(pkgDir),
        plugins: [lazyDependencies(pkgDir)],
      })
    : await esmBundle(pkgDir, entryPoints);
  // Files of an earlier build (other chunk hashes, another layout) would ship with the package.
  const keep = new Set(written.map((p) => resolve(pkgDir, p)));
  for (const p of files(join(pkgDir, BUNDLE_DIR))) if (!keep.has(p)) rmSync(p);
  for (const e of readdirSync(join(pkgDir, BUNDLE_DIR), { withFileTypes: true }))
    if (e.isDirectory() && readdirSync(join(pkgDir, BUNDLE_DIR, e.name)).length === 0)
      rmSync(join(pkgDir, BUNDLE_DIR, e.name), { recursive: true });
  writeFileSync(join(pkgDir, STAMP), `${JSON.stringify(written)}\n`);
}

const args = process.argv.slice(2);
const dirs =
  args.length > 0
    ? args.map((a) => resolve(a))
    : readJson(join(root, "tsconfig.build.json")).references.map((r) => dirname(resolve(root, r.path)));
const configs = dirs.map((d) => relative(root, join(d, "tsconfig.build.json")));
const tsc = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-b", ...configs], {
  cwd: root,
  stdio: "inherit",
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
// Every package named and every package it references (tsconfig references), referenced ones
// first: a split bundle reads the bundles of the packages it imports (split-bundle.js).
const all = new Set();
const visit = (dir) => {
  if (all.has(dir)) return;
  for (const r of references(dir)) visit(r);
  all.add(dir);
};
for (const d of dirs) visit(d);
for (const d of all) await bundle(d);
