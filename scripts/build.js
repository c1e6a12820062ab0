#!/usr/bin/env node
// Builds the packages' dist/ in two layouts:
//  - `tsc -b`: type-checks, emits one .js and one .d.ts per source file (dist/**). Bundlers get
//    this layout (the exports' "default"): with "sideEffects": false they drop every module a
//    program does not reach.
//  - esbuild: one ESM file per export entry for Node (the exports' "node" condition,
//    dist/bundle/), the code shared between a package's entries in one chunk beside them, every
//    bare import (dependencies, other @chatwire packages, node:*) left external. A fresh process
//    importing the per-file layout loads, resolves and links one module per source file, which
//    costs several times what compiling the code does; the bundle is one or two files per entry.
//    Minified: parsing is most of what is left, and it scales with the bytes read.
//    Dependencies only some calls need (LAZY_NODE_DEPENDENCIES: the Jinja parser, for chat templates)
//    are not imported by the Node bundle: it require()s their CommonJS build synchronously at the
//    first call, so a program that never compiles a template never parses that package.
// Entries come from each package.json's exports: { "source": "./src/x.ts", "node": "./dist/bundle/x.js" }.
//   node scripts/build.js           every package in tsconfig.build.json's references
//   node scripts/build.js <dir>...  those packages and the ones they reference
// A package whose bundle stamp is newer than its src/, package.json and this script is skipped.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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

function upToDate(pkgDir) {
  const stamp = mtime(join(pkgDir, STAMP));
  if (stamp === undefined) return false;
  const inputs = [
    fileURLToPath(import.meta.url),
    join(pkgDir, "package.json"),
    ...files(join(pkgDir, "src")),
  ];
  return inputs.every((p) => (mtime(p) ?? Infinity) < stamp);
}

async function bundle(pkgDir) {
  const entryPoints = entries(pkgDir);
  if (Object.keys(entryPoints).length === 0 || upToDate(pkgDir)) return;
  const result = await require("esbuild").build({
    absWorkingDir: pkgDir,
    entryPoints: Object.entries(entryPoints).map(([out, input]) => ({ in: input, out })),
    outdir: ".",
    bundle: true,
    splitting: true,
    chunkNames: `${BUNDLE_DIR}/chunks/[name]-[hash]`,
    format: "esm",
    // Nothing Node-specific injected: node:* imports stay imports, as in the per-file layout.
    platform: "neutral",
    packages: "external",
    target: "es2022",
    minify: true,
    // Class and function names stay readable in stack traces and `err.name`-style checks.
    keepNames: true,
    // The sources' compiler settings that change emitted code (class fields as tsc's ES2022 output).
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
    metafile: true,
    plugins: [lazyDependencies(pkgDir)],
    logLevel: "warning",
  });
  // Chunks of an earlier build (other hashes) would ship with the package.
  const written = new Set(Object.keys(result.metafile.outputs).map((p) => resolve(pkgDir, p)));
  for (const p of files(join(pkgDir, BUNDLE_DIR))) if (!written.has(p)) rmSync(p);
  writeFileSync(join(pkgDir, STAMP), `${JSON.stringify(Object.keys(result.metafile.outputs))}\n`);
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
// Every package named and every package it references (tsconfig references).
const all = new Set();
const visit = (dir) => {
  if (all.has(dir)) return;
  all.add(dir);
  for (const r of readJson(join(dir, "tsconfig.build.json")).references ?? [])
    visit(dirname(resolve(dir, r.path)));
};
for (const d of dirs) visit(d);
for (const d of all) await bundle(d);
