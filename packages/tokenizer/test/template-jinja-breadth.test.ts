// Jinja semantics found wrong by the templates-extra suite (template-extra.test.ts), each case
// checked against live Python jinja2 in transformers' environment (template_render.py), plus the
// provenance the fix must keep.
import { describe, expect, test } from "vitest";
import { TEMPLATE } from "../src/index.ts";
import { havePython, ourRender, ourResult, pythonRender } from "./template-support.ts";

interface Case {
  readonly name: string;
  readonly template: string;
  readonly ctx: Record<string, unknown>;
}

const CASES: Case[] = [
  {
    // functionary-medium-v3.1: `"..."|safe + t["name"] + "'\n"|safe + t | tojson()`.
    name: "`safe` makes a Markup: `+` escapes the plain side",
    template: `{{ "a'"|safe + s + "<"|safe + d|tojson }}|{{ s|safe + s }}|{{ (s|safe)|e }}|{{ 5|safe + s }}`,
    ctx: { s: `<"it's" & more>`, d: { k: `"v"` } },
  },
  {
    name: "`safe` then `~`, `|string`, output: nothing escaped",
    template: `{{ "<"|safe ~ s }}|{{ ("<"|safe)|string + s }}|{{ s|safe }}`,
    ctx: { s: "<b>" },
  },
  {
    name: "`safe` of a caller string leaves its other uses plain",
    template: `{% set m = s|safe %}{{ s + "&" }}|{{ m + "&" }}`,
    ctx: { s: "x<" },
  },
  {
    // tiiuae/falcon-7b-instruct: `.replace('\r\n', '\n')` written with a raw CR LF in the literal.
    name: "CR LF and CR in the source are newlines (string literals too)",
    template: "{{ s.replace('\r\n', '|') }}\r\n{% if s %}\r\nX{% endif %}\ry\r\n",
    ctx: { s: "a\r\nb\nc" },
  },
  {
    name: "CR LF with trim_blocks / lstrip_blocks",
    template: "  {% for x in xs %}\r\n {{ x }}\r\n  {% endfor %}\r\nend\r\n\r\n",
    ctx: { xs: [1, 2] },
  },
];

describe.runIf(havePython())("template semantics found by templates-extra = Python jinja2", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const [ref] = pythonRender(c.template, [c.ctx]);
    expect(ourResult(c.template, c.ctx)).toEqual(ref);
  });
});

describe("`safe` keeps provenance", () => {
  test("escaped caller characters stay caller, the Markup's own text template", () => {
    const out = ourRender(`{{ "<"|safe + s }}`, { s: `a"b` });
    const runs: [string, boolean][] = [];
    out.forEachRun((t, o) => runs.push([t, o !== TEMPLATE]));
    expect(out.text).toBe("<a&#34;b");
    expect(runs).toEqual([
      ["<", false],
      ["a&#34;b", true],
    ]);
  });
});
