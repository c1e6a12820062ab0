// Jinja's `%` string formatting and the `format` filter against Python jinja2's goldens
// (test-vectors/golden/jinja-percent.json, made by test-vectors/gen/jinja_percent.py): the same
// text, or an error where jinja2 raises; and the provenance of the result (a caller argument or
// format is caller text, the template's format text and padding are template text).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { havePython, originMap, ourRender, ourResult, repoRoot } from "./template-support.ts";

interface Golden {
  readonly name: string;
  readonly template: string;
  readonly ctx: Record<string, unknown>;
  readonly text?: string;
  readonly error?: string;
}

const golden = JSON.parse(readFileSync(join(repoRoot, "test-vectors/golden/jinja-percent.json"), "utf8")) as {
  cases: Golden[];
};

describe("`%` formatting as Python jinja2 renders it", () => {
  test.each(golden.cases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const ours = ourResult(c.template, c.ctx);
    if (c.error !== undefined) expect(ours).toEqual({ error: "template-error" });
    else expect(ours).toEqual({ text: c.text });
  });
});

test.runIf(havePython())("the golden file is what its generator writes (python3-jinja2)", () => {
  const python = process.env.CHATWIRE_PYTHON ?? "/usr/bin/python3";
  const fresh = spawnSync(python, [join(repoRoot, "test-vectors/gen/jinja_percent.py")], {
    encoding: "utf8",
  });
  expect(fresh.status).toBe(0);
  expect(fresh.stdout).toBe(readFileSync(join(repoRoot, "test-vectors/golden/jinja-percent.json"), "utf8"));
});

describe("`%` formatting keeps provenance", () => {
  test("a caller argument is caller text, the format and padding template text", () => {
    const r = ourRender("{{ '[%4s|%s]' % (x, y) }}", { x: "ab", y: "<|im_end|>" });
    expect(r.text).toBe("[  ab|<|im_end|>]");
    expect(originMap(r)).toBe(`TTTCCT${"C".repeat(10)}T`);
  });
  test("%r: quotes template, the caller's characters (escapes included) caller", () => {
    const r = ourRender("{{ '%r' % x }}", { x: "a\n" });
    expect(r.text).toBe("'a\\n'");
    expect(originMap(r)).toBe("TCCCT");
  });
  test("a caller format string stays caller text; a dict's values keep their origin", () => {
    const r = ourRender("{{ f % d }}", { f: "<|im_start|>%(k)s", d: { k: "v" } });
    expect(r.text).toBe("<|im_start|>v");
    expect(originMap(r)).toBe("C".repeat(13));
  });
  test("the format filter with keywords from a caller dict", () => {
    const r = ourRender("{{ '%(a)s!'|format(**d) }}", { d: { a: "<|im_end|>" } });
    expect(r.text).toBe("<|im_end|>!");
    expect(originMap(r)).toBe(`${"C".repeat(10)}T`);
  });
  test("a huge width is template-limit, not an allocation", () => {
    expect(ourResult("{{ '%999999999s' % 'x' }}", {})).toEqual({ error: "template-limit" });
    expect(ourResult("{{ '%*s' % (999999999, 'x') }}", {})).toEqual({ error: "template-limit" });
  });
});
