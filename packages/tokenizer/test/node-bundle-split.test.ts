// The Node bundles of the split packages (scripts/split-bundle.js): an import parses the values'
// modules only and the functions load impl.cjs at their first call. In a fresh plain node
// process: the import loads no impl.cjs; every entry exports the same names as the per-file layout
// (dist/, what bundlers get), functions with the same arity and values equal; one instance of each
// class and shared value across the wrappers, impl.cjs and the other split package.
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packages = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const ENTRIES = [
  ["tokenizer", "index"],
  ["tokenizer", "node"],
  ["stream-decoder", "index"],
  ["stream-decoder", "stream"],
] as const;

function run(code: string): unknown {
  const p = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  expect(p.status, p.stderr).toBe(0);
  return JSON.parse(p.stdout.trim().split("\n").at(-1) ?? "");
}

const bundle = (pkg: string, entry: string): string => join(packages, pkg, "dist/bundle", `${entry}.js`);
const perFile = (pkg: string, entry: string): string => join(packages, pkg, "dist", `${entry}.js`);

describe("split Node bundles", () => {
  it("an import of every entry loads no impl.cjs", () => {
    const loaded = run(`
import { createRequire } from "node:module";
const req = createRequire(${JSON.stringify(join(packages, "tokenizer/package.json"))});
${ENTRIES.map(([p, e]) => `await import(${JSON.stringify(bundle(p, e))});`).join("\n")}
console.log(JSON.stringify(Object.keys(req.cache).filter((k) => k.includes("dist/bundle")).map((k) => k.split("/").slice(-3).join("/"))));`);
    expect(loaded).not.toEqual([]);
    expect((loaded as string[]).filter((f) => f.endsWith("impl.cjs"))).toEqual([]);
  }, 60_000);

  it("every entry exports what the per-file layout exports", () => {
    const describeAll = (path: (p: string, e: string) => string): string => `
const out = {};
for (const [p, e, file] of ${JSON.stringify(ENTRIES.map(([p, e]) => [p, e, path(p, e)]))}) {
  const m = await import(file);
  out[p + "/" + e] = Object.fromEntries(Object.entries(m).map(([k, v]) => [k,
    typeof v === "function" ? (/^class\\b/.test(String(v)) ? "class " + v.name : "function/" + v.length)
    : v instanceof Set ? { set: [...v] } : { value: v, frozen: Object.isFrozen(v) }]));
}
console.log(JSON.stringify(out));`;
    const fromBundle = run(describeAll(bundle));
    const fromPerFile = run(describeAll(perFile));
    expect(fromBundle).toEqual(fromPerFile);
  }, 60_000);

  it("one instance of each class and shared value across entries, impl.cjs and packages", () => {
    const result = run(`
const tok = await import(${JSON.stringify(bundle("tokenizer", "index"))});
const node = await import(${JSON.stringify(bundle("tokenizer", "node"))});
const dec = await import(${JSON.stringify(bundle("stream-decoder", "index"))});
let thrown;
try { tok.fromFiles({}); } catch (e) { thrown = e; }
let unknown;
try { node.loadTokenizerSync("no-such-tokenizer-dir"); } catch (e) { unknown = e; }
const qwen = node.loadTokenizerSync("qwen3");
const family = tok.familyByName("qwen3");
const spec = dec.compileDecoderSpecFor(qwen);
let text = "";
const d = dec.createDecoder(spec, { onText(t) { text += t; } });
for (const id of qwen.textModel.encode("Hi there")) d.push(id);
d.end();
console.log(JSON.stringify({
  fromFiles: thrown instanceof tok.TokenizerError && tok.TokenizerError.isInstance(thrown),
  loadTokenizerSync: unknown instanceof tok.TokenizerError,
  family: tok.FAMILIES.includes(family),
  text,
}));`);
    expect(result).toEqual({ fromFiles: true, loadTokenizerSync: true, family: true, text: "Hi there" });
  }, 120_000);
});
