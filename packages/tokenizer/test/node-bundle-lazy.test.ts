// The Node bundles (dist/bundle/, scripts/build.js) leave the Jinja parser out of the import: a
// fresh process that imports the entries has not loaded @huggingface/jinja, loads it at the first
// template compile, and then renders exactly what the per-file layout (dist/, which imports it
// statically) renders.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bundleDir = join(pkg, "dist/bundle");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.c?js$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * `entry` in a fresh plain node process: whether the CommonJS jinja is loaded after the import and
 * after a template load (require.cache), and the IDs of one templated request.
 */
function run(entry: string): { afterImport: boolean; afterTemplate: boolean; ids: number[] } {
  const code = `
import { createRequire } from "node:module";
const req = createRequire(${JSON.stringify(join(pkg, "package.json"))});
const jinjaLoaded = () => Object.keys(req.cache).some((k) => k.includes("@huggingface") && k.includes("jinja"));
const m = await import(${JSON.stringify(entry)});
const afterImport = jinjaLoaded();
const tok = m.loadTokenizerSync(m.qwen3Dir(), { format: "template", cacheDir: false });
const ids = tok.encodeChat({ messages: [{ role: "user", content: "Hi {{ x }} <|im_start|>" }], add_generation_prompt: true }).ids;
console.log(JSON.stringify({ afterImport, afterTemplate: jinjaLoaded(), ids: Array.from(ids) }));`;
  const p = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  expect(p.status, p.stderr).toBe(0);
  return JSON.parse(p.stdout.trim().split("\n").at(-1) ?? "") as ReturnType<typeof run>;
}

describe("the Node bundle loads the Jinja parser at first use", () => {
  it("no bundle file imports @huggingface/jinja", () => {
    const found = files(bundleDir).filter((f) =>
      /(?:from|import|require\()\s*["']@huggingface\/jinja["']/.test(readFileSync(f, "utf8")),
    );
    expect(found).toEqual([]);
  });

  it("not loaded by the import, loaded by a template compile, same IDs as the per-file layout", () => {
    const bundle = run(join(bundleDir, "node.js"));
    expect(bundle.afterImport).toBe(false);
    expect(bundle.afterTemplate).toBe(true);
    const perFile = run(join(pkg, "dist/node.js"));
    expect(bundle.ids).toEqual(perFile.ids);
    expect(bundle.ids.length).toBeGreaterThan(5);
  }, 120_000);
});
