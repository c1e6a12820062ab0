// The package's own modules form no import cycle: every relative import of src/ (static
// `import` / `export ... from`, type-only ones included) is an edge, and a depth-first search
// fails on the first back edge, naming the cycle. Types live in their own files so that the
// engine, the turn layer and createDecoder never need each other.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./models.ts";

const src = resolve(repoRoot, "packages/stream-decoder/src");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = resolve(dir, n);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (n.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** Relative module specifiers of a file's import / export-from statements (comments removed). */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*"(\.[^"]+)"/gm))
    out.push(m[1] as string);
  for (const m of code.matchAll(/^\s*import\s*"(\.[^"]+)"/gm)) out.push(m[1] as string);
  return out;
}

/** The first cycle of the graph (as a path of nodes, first = last), or null. */
export function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): string[] | null => {
    state.set(n, 1);
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      const s = state.get(m);
      if (s === 1) return [...stack.slice(stack.indexOf(m)), m];
      if (s === undefined) {
        const c = visit(m);
        if (c !== null) return c;
      }
    }
    stack.pop();
    state.set(n, 2);
    return null;
  };
  for (const n of graph.keys()) {
    if (state.has(n)) continue;
    const c = visit(n);
    if (c !== null) return c;
  }
  return null;
}

describe("stream-decoder has no import cycle", () => {
  it("the checker finds a planted cycle and parses multi-line imports", () => {
    expect(
      findCycle(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", ["a"]],
        ]),
      ),
    ).toEqual(["a", "b", "c", "a"]);
    expect(
      findCycle(
        new Map([
          ["a", ["b"]],
          ["b", []],
          ["c", ["a", "b"]],
        ]),
      ),
    ).toBeNull();
    const text =
      'import {\n  a,\n  type B,\n} from "./x.ts";\n// import { y } from "./y.ts";\nexport type { Z } from "../z.ts";\n';
    expect(importsOf(text)).toEqual(["./x.ts", "../z.ts"]);
  });

  it("src/ imports form a DAG", () => {
    const files = sources(src);
    expect(files.length).toBeGreaterThan(10);
    const graph = new Map<string, string[]>();
    for (const f of files) {
      const edges = importsOf(readFileSync(f, "utf8")).map((s) => relative(src, resolve(dirname(f), s)));
      graph.set(relative(src, f), edges);
    }
    expect(graph.get("create-decoder.ts")).toContain("decoder.ts");
    const cycle = findCycle(graph);
    expect(cycle === null ? "no cycle" : cycle.join(" -> ")).toBe("no cycle");
  });
});
