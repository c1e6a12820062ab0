// The Node bundle layout of the packages whose import must stay cheap (SPLIT_PACKAGES): a fresh
// process pays for every byte of code it parses, so an import parses only what defines the
// entries' values and the rest is parsed at the first call.
//   dist/bundle/<entry>.eager.cjs  the modules an entry's shared values need: their own modules
//                                  and those they import a value from; a module they import only
//                                  functions from is a stub (a wrapper per function calling into
//                                  impl.cjs), unless a function runs while the file loads
//   dist/bundle/impl.cjs           every other module but LATER's; the eager modules it imports are
//                                  read from their eager file (one instance of each class and table),
//                                  other split @chatwire packages from their eager files and impl.cjs
//   dist/bundle/later.cjs          LATER's modules (code a tokenizer of one kind never runs), stubs in
//                                  impl.cjs loading it at the first call into them
//   dist/bundle/<entry>.js         ESM: the shared values from the entry's eager file, plain data
//                                  (primitives, flat or deep-frozen collections) as equal copies,
//                                  and per exported function a wrapper that require()s impl.cjs at
//                                  its first call
// CommonJS because Node loads it synchronously on every supported version (the sync APIs keep
// working); the entries stay ESM. What each export is (function, class, data) is read from a build
// of the package at build time; which module imports which value, from the sources.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative } from "node:path";

/** Packages built in this layout (the others: one ESM file per entry, shared chunks). */
export const SPLIT_PACKAGES = ["@chatwire/tokenizer", "@chatwire/stream-decoder"];

/**
 * Source folders whose modules go to later.cjs, loaded at the first call into them: code a
 * tokenizer of one kind never runs (chat templates, the other text models and file formats).
 * A module the rest reads a value from, or calls while loading, stays in impl.cjs.
 */
const LATER = {
  "@chatwire/tokenizer": [
    "src/jinja/",
    "src/template/",
    "src/models/sentencepiece/",
    "src/models/sentencepiece-json/",
    "src/models/gguf/",
    "src/models/tekken/",
  ],
};

const BUNDLE_DIR = "dist/bundle";
const EAGER = "eager.cjs";
const IMPL = "impl.cjs";
const LATER_FILE = "later.cjs";
const SKIP = Symbol("split-bundle: plain resolve");

/** `import.meta.url` for CommonJS output (node/qwen3.ts and the lazy dependencies resolve from it). */
const cjsOptions = {
  format: "cjs",
  platform: "node",
  define: { "import.meta.url": "__import_meta_url" },
  banner: { js: 'var __import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
};

/** Fresh exports of a CommonJS file just written (a rebuild in the same process reads it again). */
function requireFresh(file) {
  const req = createRequire(file);
  delete req.cache[file];
  return req(file);
}

/** `export const a = m.a; ...` for the names of `m` (a plain binding each: no getter on hot paths). */
function reexport(names) {
  return names.map((n) => (n === "default" ? "export default m.default;" : `export const ${n} = m.${n};`));
}

/**
 * Imports of other SPLIT_PACKAGES become their impl.cjs, found beside their package.json (the
 * same file, hence the same instances, as their ESM entries load).
 */
function splitDependencies(pkgDir) {
  const req = createRequire(join(pkgDir, "package.json"));
  const self = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).name;
  const implOf = (name) => join(dirname(req.resolve(`${name}/package.json`)), BUNDLE_DIR, IMPL);
  return {
    name: "split-dependencies",
    setup(build) {
      build.onResolve({ filter: /^@chatwire\// }, (args) => {
        if (args.kind === "require-resolve") return { path: args.path, external: true };
        const name = args.path.split("/").slice(0, 2).join("/");
        if (name === self || !SPLIT_PACKAGES.includes(name)) return undefined;
        return { path: name, namespace: "split-dependency" };
      });
      build.onLoad({ filter: /.*/, namespace: "split-dependency" }, (args) => {
        const impl = requireFresh(implOf(args.path));
        const dir = `require("node:path").join(require("node:path").dirname(require.resolve(${JSON.stringify(`${args.path}/package.json`)})), ${JSON.stringify(BUNDLE_DIR)})`;
        const lines = ["let m;", `const dir = ${dir};`];
        // Its shared values from its eager files, then its functions and copied data from impl.cjs.
        for (const file of impl.__eagerFiles ?? []) {
          const eager = createRequire(implOf(args.path))(`./${file}`);
          lines.push(`m = require(require("node:path").join(dir, ${JSON.stringify(file)}));`);
          lines.push(...reexport(Object.keys(eager).filter((n) => n !== "__modules")));
        }
        lines.push(`m = require(require("node:path").join(dir, ${JSON.stringify(IMPL)}));`);
        lines.push(...reexport(Object.keys(impl).filter((n) => n !== "__stubs" && n !== "__eagerFiles")));
        return { contents: ["export {};", ...lines].join("\n"), loader: "js" };
      });
    },
  };
}

/** Relative imports inside the package, resolved to a key (path from pkgDir) and handed to `route`. */
function routeModules(name, pkgDir, route) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === SKIP || args.namespace !== "file") return undefined;
        const r = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: SKIP,
        });
        if (r.errors.length > 0) return { errors: r.errors };
        return route(relative(pkgDir, r.path)) ?? r;
      });
      build.onResolve({ filter: /^\.\/[\w-]+\.eager\.cjs$|^\.\/(impl|later)\.cjs$/ }, (args) => ({
        path: args.path,
        external: true,
      }));
    },
  };
}

/**
 * The in-package modules `key` imports or re-exports values from: { from, names | "*" } each
 * (`type` imports left out; "*" for a namespace import or `export *`).
 */
function valueImports(pkgDir, key) {
  const ts = createRequire(join(pkgDir, "package.json"))("typescript");
  const text = readFileSync(join(pkgDir, key), "utf8");
  const file = ts.createSourceFile(key, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found = [];
  const add = (spec, names) => {
    if (!ts.isStringLiteral(spec) || !spec.text.startsWith(".")) return;
    found.push({ from: join(dirname(key), spec.text), names });
  };
  const named = (elements) =>
    elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text);
  for (const st of file.statements) {
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      if (c === undefined) add(st.moduleSpecifier, "*");
      else if (!c.isTypeOnly) {
        const names = c.name === undefined ? [] : ["default"];
        const b = c.namedBindings;
        if (b !== undefined && ts.isNamespaceImport(b)) add(st.moduleSpecifier, "*");
        else add(st.moduleSpecifier, [...names, ...(b === undefined ? [] : named(b.elements))]);
      }
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier !== undefined && !st.isTypeOnly) {
      const c = st.exportClause;
      if (c === undefined || ts.isNamespaceExport(c)) add(st.moduleSpecifier, "*");
      else add(st.moduleSpecifier, named(c.elements));
    }
  }
  return found.filter((f) => f.names === "*" || f.names.length > 0);
}

/** An in-memory entry module. */
const stdin = (pkgDir, contents) => ({ contents, resolveDir: pkgDir, sourcefile: "entry.ts", loader: "ts" });

/**
 * Entry lines that import each module of `keys` as a namespace (`prefix` + index) and export
 * them as one object `name`: module key -> namespace.
 */
function namespaceTable(name, keys, prefix) {
  return [
    ...keys.map((k, i) => `import * as ${prefix}${i} from ${JSON.stringify(`./${k}`)};`),
    `export const ${name} = { ${keys.map((k, i) => `${JSON.stringify(k)}: ${prefix}${i}`).join(", ")} };`,
  ];
}

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/**
 * Source text that re-creates `v`, when `v` is plain data an equal copy can stand for: a
 * primitive, an array, Set or plain object of primitives, or deep-frozen arrays and plain objects
 * (copies frozen where the original is). Otherwise undefined (the value is shared from eager.cjs:
 * classes, objects holding functions or other objects, sentinels compared by identity).
 */
function literal(v, nested = false) {
  if (v === null || (typeof v !== "object" && typeof v !== "function")) {
    if (typeof v === "number") return Object.is(v, -0) ? "-0" : Number.isFinite(v) ? String(v) : undefined;
    if (typeof v === "bigint") return `${v}n`;
    return v === undefined ? "void 0" : typeof v === "symbol" ? undefined : JSON.stringify(v);
  }
  const proto = Object.getPrototypeOf(v);
  if (proto === Set.prototype) {
    if (nested) return undefined;
    const items = [...v].map((x) => (x !== null && typeof x === "object" ? undefined : literal(x)));
    return items.includes(undefined) ? undefined : `new Set([${items.join(", ")}])`;
  }
  if (proto !== Array.prototype && proto !== Object.prototype) return undefined;
  const frozen = Object.isFrozen(v);
  if (nested && !frozen) return undefined;
  const keys = Reflect.ownKeys(v);
  const descriptors = Object.getOwnPropertyDescriptors(v);
  const parts = [];
  for (const k of keys) {
    if (k === "length" && Array.isArray(v)) continue;
    const d = descriptors[k];
    if (typeof k === "symbol" || !("value" in d) || !d.enumerable) return undefined;
    const x = d.value;
    // Nested objects only inside deep-frozen data (a mutable inner object would be shared state).
    const item = x !== null && typeof x === "object" ? (frozen ? literal(x, true) : undefined) : literal(x);
    if (item === undefined) return undefined;
    parts.push(Array.isArray(v) ? item : `${JSON.stringify(k)}: ${item}`);
  }
  if (Array.isArray(v) && parts.length !== v.length) return undefined;
  const text = Array.isArray(v) ? `[${parts.join(", ")}]` : `{ ${parts.join(", ")} }`;
  return frozen ? `Object.freeze(${text})` : text;
}

const isFunction = (v) =>
  typeof v === "function" &&
  !/^class\b/.test(Function.prototype.toString.call(v)) &&
  Object.keys(v).length === 0;

/**
 * Builds `pkgDir`'s Node bundle in the split layout. `entryPoints`: { "dist/bundle/x": "./src/x.ts" };
 * `base`: the esbuild options every Node bundle shares; `plugins`: more plugins (lazy dependencies).
 * Returns the files written, relative to pkgDir.
 */
export async function splitBundle(pkgDir, entryPoints, { esbuild, base, plugins }) {
  const build = (options) => esbuild.build({ ...base, ...cjsOptions, ...options });
  const out = (name) => join(pkgDir, BUNDLE_DIR, name);
  const deps = [splitDependencies(pkgDir), ...plugins];

  // 1. Every module's exports as values (read from a build of the whole package), and each
  //    entry's export names.
  const keys = files(join(pkgDir, "src"))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => relative(pkgDir, f));
  const probe = out(".probe.cjs");
  await build({
    stdin: stdin(pkgDir, [...namespaceTable("all", keys, "m")].join("\n")),
    outfile: probe,
    plugins: deps,
  });
  const all = requireFresh(probe).all;
  rmSync(probe);
  const exportsOf = {};
  for (const [entry, source] of Object.entries(entryPoints))
    exportsOf[entry] = Object.keys(all[relative(pkgDir, join(pkgDir, source))]);
  const entryValue = (entry, n) => all[relative(pkgDir, join(pkgDir, entryPoints[entry]))][n];
  /**
   * The module declaring the value exported as `n`, and its name there (not a re-export);
   * undefined when no `export const|let|class|function|enum` declaration is found.
   */
  const declaring = (v) => {
    for (const k of keys)
      for (const [local, x] of Object.entries(all[k])) {
        if (x !== v) continue;
        const declares = new RegExp(
          `export\\s+(?:abstract\\s+|async\\s+)?(?:const|let|class|function\\*?|enum)\\s+${local}\\b`,
        );
        if (declares.test(readFileSync(join(pkgDir, k), "utf8"))) return { key: k, local };
      }
    return undefined;
  };
  const home = (n, v) => {
    const at = declaring(v);
    if (at === undefined) throw new Error(`split-bundle: no module declares ${n}`);
    return at;
  };
  const values = new Map(); // shared value name -> { key, local } of its declaration
  const copies = new Map(); // copied value name -> its literal
  for (const [entry, names] of Object.entries(exportsOf))
    for (const n of names) {
      const v = entryValue(entry, n);
      if (isFunction(v)) continue;
      const copy = literal(v);
      if (copy !== undefined) copies.set(n, copy);
      else values.set(n, home(n, v));
    }

  // 2. eager.cjs holds the modules an import needs: the values' own modules and every module
  //    they import a value (class, table, constant) from. A module they import only functions
  //    from is a stub there: one wrapper per function, calling into impl.cjs at its first call.
  //    Imports are read from the sources (verbatimModuleSyntax: every import not marked `type`
  //    is a value), since esbuild leaves a TypeScript import it cannot find undefined, silently.
  const imports = new Map(keys.map((k) => [k, valueImports(pkgDir, k)]));
  // One eager file per entry with shared values (an entry does not parse another's: the stream
  // entry's class reads a global Node builds at first access); their modules must not overlap.
  const groups = Object.entries(exportsOf)
    .map(([entry, names]) => ({
      entry,
      file: `${basename(entry)}.${EAGER}`,
      values: names.filter((n) => values.has(n)),
      eager: new Set(names.filter((n) => values.has(n)).map((n) => values.get(n).key)),
      stubbed: [],
    }))
    .filter((g) => g.values.length > 0);
  for (const g of groups)
    for (;;) {
      for (const k of g.eager)
        for (const { from, names } of imports.get(k) ?? [])
          if (names === "*" || names.some((n) => !isFunction(all[from]?.[n]))) g.eager.add(from);
      const stubs = routeModules("stubs", pkgDir, (k) =>
        keys.includes(k) && !g.eager.has(k) ? { path: k, namespace: "stub" } : undefined,
      );
      const eagerList = [...g.eager].sort();
      const lines = [
        ...g.values.map((n) => {
          const { key, local } = values.get(n);
          return `export { ${local} as ${n} } from ${JSON.stringify(`./${key}`)};`;
        }),
        ...namespaceTable("__modules", eagerList, "m"),
      ];
      const result = await build({
        stdin: stdin(pkgDir, lines.join("\n")),
        outfile: out(g.file),
        plugins: [stubs, stubLoader(all, "stub", IMPL, "__stubs"), ...deps],
      });
      // A stub called while the file loads (a table built by a function) cannot wait for impl.cjs.
      const before = g.eager.size;
      for (const k of stubsCalledAtLoad(out(g.file), out(IMPL))) g.eager.add(k);
      if (g.eager.size > before) continue;
      const inputs = Object.keys(Object.values(result.metafile.outputs)[0]?.inputs ?? {});
      g.stubbed = inputs.filter((p) => p.startsWith("stub:")).map((p) => p.slice(5));
      break;
    }
  const fileOf = new Map(); // eager module key -> its eager file
  for (const g of groups)
    for (const k of g.eager) {
      if (fileOf.has(k)) throw new Error(`split-bundle: ${k} is in ${fileOf.get(k)} and ${g.file}`);
      fileOf.set(k, g.file);
    }

  // 3. impl.cjs: every other module but LATER's; the eager ones read from their eager file.
  const stubbed = [...new Set(groups.flatMap((g) => g.stubbed))].sort();
  const pkgName = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).name;
  const later = new Set(
    keys.filter((k) => !fileOf.has(k) && (LATER[pkgName] ?? []).some((d) => k.startsWith(d))),
  );
  const inImpl = (k) => keys.includes(k) && !fileOf.has(k) && !later.has(k);
  /** Moves to impl.cjs every later module impl.cjs reads a value from (to a fixed point). */
  const settleLater = () => {
    for (let moved = true; moved; ) {
      moved = false;
      for (const k of keys.filter(inImpl))
        for (const { from, names } of imports.get(k) ?? [])
          if (later.has(from) && (names === "*" || names.some((n) => !isFunction(all[from]?.[n])))) {
            later.delete(from);
            moved = true;
          }
    }
  };
  for (;;) {
    settleLater();
    // The impl.cjs modules later.cjs imports, as namespaces.
    const shared = [
      ...new Set([...later].flatMap((k) => (imports.get(k) ?? []).map((i) => i.from).filter(inImpl))),
    ].sort();
    const implEntry = [
      ...namespaceTable("__modules", shared, "c"),
      // Where the shared values are, for other split packages (split-dependencies): re-exporting
      // them here would load every entry's eager file with impl.cjs.
      `export const __eagerFiles = ${JSON.stringify(groups.map((g) => g.file))};`,
      ...Object.entries(exportsOf).flatMap(([entry, names]) => {
        // A function declared in an eager module is read from its eager file at its first call, so
        // that loading impl.cjs does not load every entry's eager file.
        const fns = names.filter((n) => !values.has(n));
        const inEager = (n) => {
          const v = entryValue(entry, n);
          if (!isFunction(v)) return undefined;
          const at = declaring(v);
          return at !== undefined && fileOf.has(at.key) ? at : undefined;
        };
        const direct = fns.filter((n) => inEager(n) === undefined);
        return [
          ...(direct.length > 0
            ? [`export { ${direct.join(", ")} } from ${JSON.stringify(entryPoints[entry])};`]
            : []),
          ...fns.flatMap((n) => {
            const at = inEager(n);
            if (at === undefined) return [];
            const from = `require("./${fileOf.get(at.key)}").__modules[${JSON.stringify(at.key)}]`;
            return [`export function ${n}(...a) {\n  return ${from}.${at.local}(...a);\n}`];
          }),
        ];
      }),
      ...namespaceTable("__stubs", stubbed, "s"),
    ].join("\n");
    const implRoutes = routeModules("impl-modules", pkgDir, (k) =>
      fileOf.has(k)
        ? { path: k, namespace: "eager-module" }
        : later.has(k)
          ? { path: k, namespace: "later-stub" }
          : undefined,
    );
    await build({
      stdin: stdin(pkgDir, implEntry),
      outfile: out(IMPL),
      plugins: [
        implRoutes,
        eagerLoader(all, fileOf),
        stubLoader(all, "later-stub", LATER_FILE, "__later"),
        ...deps,
      ],
    });
    // A later module impl.cjs calls while it loads stays in impl.cjs.
    const before = later.size;
    for (const k of stubsCalledAtLoad(out(IMPL), out(LATER_FILE), "__later")) later.delete(k);
    if (later.size < before) continue;

    // 4. later.cjs: LATER's modules; the eager ones read from their eager file, impl.cjs's from it.
    const laterList = [...later].sort();
    const laterRoutes = routeModules("later-modules", pkgDir, (k) =>
      fileOf.has(k)
        ? { path: k, namespace: "eager-module" }
        : inImpl(k)
          ? { path: k, namespace: "impl-module" }
          : undefined,
    );
    await build({
      stdin: stdin(pkgDir, [...namespaceTable("__later", laterList, "l")].join("\n")),
      outfile: out(LATER_FILE),
      plugins: [laterRoutes, eagerLoader(all, fileOf), implLoader(all), ...deps],
    });
    break;
  }
  // The instances of the eager files that impl.cjs loads.
  const eagerExports = Object.assign({}, ...groups.map((g) => requireFresh(out(g.file))));
  const implExports = requireFresh(out(IMPL));
  if (later.size > 0) requireFresh(out(LATER_FILE));
  for (const [entry, names] of Object.entries(exportsOf))
    for (const n of names) {
      const ok = values.has(n)
        ? n in eagerExports
        : copies.has(n)
          ? copies.get(n) === literal(implExports[n])
          : typeof implExports[n] === "function";
      if (!ok) throw new Error(`split-bundle: ${entry}: ${n} is missing from the bundle`);
    }

  // 4. The ESM entries. Two names of one value (an alias) stay one value.
  const copiesOf = (names, valueNamed) => {
    const first = new Map();
    return names
      .filter((n) => copies.has(n))
      .map((n) => {
        const v = valueNamed(n);
        const alias = typeof v === "object" ? first.get(v) : undefined;
        if (alias !== undefined) return `export { ${alias} as ${n} };`;
        first.set(v, n);
        return `export const ${n} = ${copies.get(n)};`;
      });
  };
  for (const [entry, names] of Object.entries(exportsOf)) {
    const vals = names.filter((n) => values.has(n));
    const fns = names.filter((n) => !values.has(n) && !copies.has(n));
    const lines = [
      "// Values from eager.cjs; each function loads impl.cjs at its first call (scripts/split-bundle.js).",
      'import { createRequire } from "node:module";',
      "const require = createRequire(import.meta.url);",
      ...(vals.length > 0 ? [`const eager = require("./${basename(entry)}.${EAGER}");`] : []),
      "let impl;",
      `const load = () => (impl ??= require("./${IMPL}"));`,
      ...(vals.length > 0 ? [`export const { ${vals.join(", ")} } = eager;`] : []),
      ...copiesOf(names, (n) => entryValue(entry, n)),
      ...fns.map((n) => {
        const params = Array.from({ length: entryValue(entry, n).length }, (_, i) => `a${i}`).join(", ");
        return `export function ${n}(${params}) {\n  return load().${n}(...arguments);\n}`;
      }),
    ];
    writeFileSync(join(pkgDir, `${entry}.js`), `${lines.join("\n")}\n`);
  }
  return [
    ...Object.keys(entryPoints).map((e) => `${e}.js`),
    ...groups.map((g) => `${BUNDLE_DIR}/${g.file}`),
    `${BUNDLE_DIR}/${IMPL}`,
    ...(later.size > 0 ? [`${BUNDLE_DIR}/${LATER_FILE}`] : []),
  ];
}

/**
 * The stub modules whose functions run while `eagerFile` loads: it is loaded with a stand-in for
 * impl.cjs that records them.
 */
function stubsCalledAtLoad(eagerFile, implFile, table = "__stubs") {
  const called = new Set();
  const req = createRequire(eagerFile);
  const anything = () => new Proxy(() => undefined, { get: () => anything(), apply: () => anything() });
  const stubs = new Proxy(
    {},
    {
      get: (_, k) => {
        called.add(String(k));
        return anything();
      },
    },
  );
  const saved = req.cache[implFile];
  req.cache[implFile] = { id: implFile, filename: implFile, loaded: true, exports: { [table]: stubs } };
  // require() resolves a path on disk before it reads the cache: on a clean build the file is
  // not written yet, so a placeholder stands there while the stand-in answers.
  const placeholder = !existsSync(implFile);
  if (placeholder) writeFileSync(implFile, "");
  try {
    requireFresh(eagerFile);
  } catch {
    // A stand-in result broke the load: the stubs called so far are recorded.
  } finally {
    if (saved === undefined) delete req.cache[implFile];
    else req.cache[implFile] = saved;
    delete req.cache[eagerFile];
    if (placeholder) rmSync(implFile);
  }
  return called;
}

/**
 * A stub module: its functions, each loading `file` at its first call and calling the module's
 * function there (`file` exports the modules' namespaces as `table`). Pure ESM (the require() is
 * in one shared module) so that esbuild reports an import a stub lacks.
 */
function stubLoader(all, namespace, file, table) {
  const loader = `split-bundle:load-${namespace}`;
  return {
    name: `${namespace}-loader`,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${loader}$`) }, () => ({ path: "load", namespace: loader }));
      build.onLoad({ filter: /.*/, namespace: loader }, () => ({
        contents: `let file;\nexport const load = () => (file ??= require("./${file}")).${table};`,
        loader: "js",
      }));
      build.onLoad({ filter: /.*/, namespace }, (args) => {
        const fns = Object.entries(all[args.path]).filter(([, v]) => isFunction(v));
        const at = `load()[${JSON.stringify(args.path)}]`;
        const lines = [
          `import { load } from "${loader}";`,
          ...fns.map(([n]) => `export function ${n}(...a) {\n  return ${at}.${n}(...a);\n}`),
        ];
        return { contents: lines.join("\n"), loader: "js" };
      });
    },
  };
}

/** A module of impl.cjs in later.cjs: its exports, read from impl.cjs. */
function implLoader(all) {
  return {
    name: "impl-loader",
    setup(build) {
      build.onLoad({ filter: /.*/, namespace: "impl-module" }, (args) => {
        const m = [
          `import { __modules } from "./${IMPL}";`,
          `const m = __modules[${JSON.stringify(args.path)}];`,
          "export {};",
        ];
        return { contents: [...m, ...reexport(Object.keys(all[args.path]))].join("\n"), loader: "js" };
      });
    },
  };
}

/** An eager module in impl.cjs: its exports, read from eager.cjs. */
function eagerLoader(all, fileOf) {
  return {
    name: "eager-loader",
    setup(build) {
      build.onLoad({ filter: /.*/, namespace: "eager-module" }, (args) => {
        const names = Object.keys(all[args.path]);
        // Pure ESM, so that esbuild reports an import the module lacks.
        const m = [
          `import { __modules } from "./${fileOf.get(args.path)}";`,
          `const m = __modules[${JSON.stringify(args.path)}];`,
          "export {};",
        ];
        return { contents: [...m, ...reexport(names)].join("\n"), loader: "js" };
      });
    },
  };
}
