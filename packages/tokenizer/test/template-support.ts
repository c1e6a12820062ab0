// Shared by the template-*.test.ts suites: the reference renderer (Python jinja2 in transformers'
// environment, test-vectors/gen/template_render.py, run as a subprocess) and our renderer on the
// same raw variables.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { compileTemplate, Origins, type PStr, renderProgram, TokenizerError } from "../src/index.ts";

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, "../../..");
const python = process.env.CHATWIRE_PYTHON ?? "/usr/bin/python3";
const script = join(repoRoot, "test-vectors/gen/template_render.py");
const batchScript = join(here, "template-render-batch.py");
const NOW = "2024-07-26T10:00:00";

/** havePython()'s answer, asked once per worker (each ask starts a Python process). */
let pythonFound: boolean | undefined;

/** True when /usr/bin/python3 with jinja2 is available (the live cross-checks need it). */
export function havePython(): boolean {
  pythonFound ??=
    existsSync(python) && spawnSync(python, ["-c", "import jinja2"], { encoding: "utf8" }).status === 0;
  return pythonFound;
}

export type RefResult = { readonly text: string } | { readonly error: string };

/** Python jinja2 renders of `template` over raw variable sets. */
export function pythonRender(template: string, contexts: readonly object[], now = NOW): RefResult[] {
  const r = spawnSync(python, [script], {
    input: JSON.stringify({ template, contexts, now }),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`template_render.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as RefResult[];
}

/**
 * Python jinja2 renders of gpt-oss's chat template over chat requests, as transformers calls it
 * (reasoning as `thinking`, string arguments parsed).
 */
export function pythonRenderGptOss(requests: readonly object[]): RefResult[] {
  const r = spawnSync(python, [script], {
    input: JSON.stringify({
      template: readFileSync(join(repoRoot, "../shared/templates/gpt-oss-120b.jinja"), "utf8"),
      special: {},
      now: NOW,
      reasoning_as: "thinking",
      loads_arguments: true,
      requests,
    }),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`template_render.py failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as RefResult[];
}

/** A case rendered with one raw variable set. */
export interface RenderCase {
  readonly template: string;
  readonly ctx: object;
}

/** A named case of the suites that compare our renderer with Python jinja2. */
export interface JinjaCase extends RenderCase {
  readonly name: string;
  readonly ctx: Record<string, unknown>;
}

/**
 * pythonRender(c.template, [c.ctx])[0] for each of `cases`, all rendered by one python3 process
 * (./template-render-batch.py runs template_render.py per case) on the first lookup. A case the
 * script fails on throws at its own lookup, as its own pythonRender call would.
 */
export function pythonRenderEach<C extends RenderCase>(cases: readonly C[]): (c: C) => RefResult | undefined {
  let results: Map<C, RefResult | undefined | { fail: string }> | undefined;
  const run = (): Map<C, RefResult | undefined | { fail: string }> => {
    const jobs = cases.map((c) => ({ template: c.template, contexts: [c.ctx], now: NOW }));
    const r = spawnSync(python, [batchScript, script], {
      input: JSON.stringify(jobs),
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(`template-render-batch.py failed: ${r.stderr}`);
    const out = JSON.parse(r.stdout) as (RefResult[] | { fail: string })[];
    return new Map(
      cases.map((c, i) => {
        const o = out[i];
        return [c, Array.isArray(o) ? o[0] : o] as const;
      }),
    );
  };
  return (c) => {
    results ??= run();
    if (!results.has(c)) throw new Error("pythonRenderEach: a case outside the batch");
    const r = results.get(c);
    if (r !== undefined && "fail" in r) throw new Error(`template_render.py failed: ${r.fail}`);
    return r;
  };
}

/** Our render of the same raw variables (every string a caller string of field = its variable name). */
export function ourRender(
  template: string,
  ctx: Record<string, unknown>,
  now = new Date(2024, 6, 26, 10),
): PStr {
  const origins = new Origins();
  const vars = new Map(Object.entries(ctx).map(([k, v]) => [k, origins.value(v, null, k)] as const));
  return renderProgram(compileTemplate(template), vars, origins, { now: () => now }).output;
}

/** Our render as a RefResult (errors as their TokenizerError type). */
export function ourResult(template: string, ctx: Record<string, unknown>): RefResult {
  try {
    return { text: ourRender(template, ctx).text };
  } catch (e) {
    if (TokenizerError.isInstance(e)) return { error: e.type };
    throw e;
  }
}

/** One letter per character of `s`: T = template, C = caller (origin 0 is the template's). */
export function originMap(s: PStr): string {
  let out = "";
  s.forEachRun((text, origin) => {
    out += (origin === 0 ? "T" : "C").repeat(text.length);
  });
  return out;
}

/** One test per case: our render (text or error type) equals `jinja`'s, Python jinja2's render of it. */
export function testSameAsPython(
  cases: readonly JinjaCase[],
  jinja: (c: JinjaCase) => RefResult | undefined,
): void {
  test.each(cases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const ref = jinja(c);
    expect(ourResult(c.template, c.ctx)).toEqual(ref);
  });
}

/**
 * Runs the golden generator test-vectors/gen/`script` into a fresh temp dir (it must exit 0) and
 * returns what it wrote, file name -> text, in name order; the dir is removed.
 */
export function regenerate(script: string): Map<string, string> {
  const out = mkdtempSync(join(tmpdir(), "chatwire-regenerate-"));
  try {
    const r = spawnSync(process.execPath, [join(repoRoot, "test-vectors/gen", script), out], {
      encoding: "utf8",
    });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    return new Map(
      readdirSync(out)
        .sort()
        .map((f) => [f, readFileSync(join(out, f), "utf8")] as const),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
