// Jinja semantics found wrong by the templates-extra suite (template-extra.test.ts), each case
// checked against live Python jinja2 in transformers' environment (template_render.py), plus the
// provenance the fix must keep.
import { describe, expect, test } from "vitest";
import { TEMPLATE } from "../src/index.ts";
import {
  havePython,
  type JinjaCase,
  ourRender,
  ourResult,
  pythonRenderEach,
  testSameAsPython,
} from "./template-support.ts";

const CASES: JinjaCase[] = [
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
  {
    // Reka-Edge: `tool | tojson(ensure_ascii=True)`.
    name: "tojson(ensure_ascii=True): \\uXXXX for every unit outside U+0020-U+007E",
    template:
      "{{ d|tojson(ensure_ascii=True) }}|{{ d|tojson(ensure_ascii=False) }}|{{ d|tojson(indent=1, ensure_ascii=true) }}",
    ctx: { d: { kéy: '天气 🌧 \u007f\u0080 é\n"', n: [1, "ß"] } },
  },
  {
    // llama.cpp's deepseek-r1 template: `tools | map(attribute='function') | tojson(indent=2)`.
    name: "map / select / unique / items / reverse give one-shot iterators: always true, no len(), no JSON",
    template:
      "{{ (xs|select('gt', 9)) is true }}{{ 1 if xs|select('gt', 9) else 0 }}{{ 1 if xs|reject('lt', 99) else 0 }}" +
      "{{ 1 if {}|items else 0 }}{{ 1 if []|map('upper') else 0 }}{{ xs|select('odd')|list|length }}" +
      "{{ xs|map('string')|join(',') }}{{ (xs|unique) is sequence }}{{ (xs|reverse) is sequence }}{{ xs|reverse|first }}" +
      "{{ 'ab'|reverse }}{{ ('ab'|reverse) is string }}",
    ctx: { xs: [1, 2, 3, 2] },
  },
  {
    // Hermes 2 Pro tool_use: `json_spec.type is iterable` with json_spec = false (additionalProperties).
    name: "undefined is iterable and a sequence; the loop object is iterable",
    template:
      "{{ x is iterable }}{{ x is sequence }}{{ x is mapping }}{{ none is iterable }}{{ 1 is iterable }}" +
      "{% for i in [1] %}{{ loop is iterable }}{% endfor %}{{ namespace(a=1) is iterable }}{{ x|length }}" +
      "{{ false.type is iterable }}{{ (false.type is iterable) and 'Union[]' }}",
    ctx: {},
  },
  {
    // ByteDance Seed-OSS: `{%- set budget_reflections_v05 = {0: 0, 512: 128, ...} %}`, dictsort, d[16384].
    name: "int dict keys: literal, lookup, in, get, dictsort, items, repr, tojson, length",
    template:
      "{% set d = {512: 'b', 0: 'a', 16384: 'c'} %}{{ d[16384] }}{{ d[0] }}{{ d[True] is defined }}{{ d[7] is defined }}" +
      "{{ 512 in d }}{{ '512' in d }}{{ d.get(0) }}{{ d.get(1, 'z') }}{% for k, v in d|dictsort %}{{ k }}={{ v }};{% endfor %}" +
      "{{ d }}{{ d|tojson }}{{ d|length }}{{ d.keys()|list }}{% for k in d %}{{ k + 1 }}{% endfor %}{{ d|items|list }}" +
      "{{ {1: 2, 'a': 3} }}{{ {1: 2}|tojson(sort_keys=true) }}",
    ctx: {},
  },
];

const ERRORS: JinjaCase[] = [
  { name: "tojson of map(...)", template: "{{ xs|map(attribute='a')|tojson }}", ctx: { xs: [{ a: 1 }] } },
  { name: "tojson of selectattr(...)", template: "{{ xs|selectattr('a')|tojson }}", ctx: { xs: [{ a: 1 }] } },
  { name: "length of select(...)", template: "{{ xs|select|length }}", ctx: { xs: [1] } },
  { name: "tojson of reverse", template: "{{ xs|reverse|tojson }}", ctx: { xs: [1] } },
  { name: "tojson of items", template: "{{ d|items|tojson }}", ctx: { d: { a: 1 } } },
  { name: "dictsort of mixed int and str keys", template: "{{ {1: 2, 'a': 3}|dictsort }}", ctx: {} },
  {
    name: "**d with an int key",
    template: "{% macro m() %}{{ kwargs }}{% endmacro %}{{ m(**{1: 2}) }}",
    ctx: {},
  },
];

describe.runIf(havePython())("template semantics found by templates-extra = Python jinja2", () => {
  const jinja = pythonRenderEach([...CASES, ...ERRORS]);
  testSameAsPython(CASES, jinja);
  test.each(ERRORS.map((c) => [c.name, c] as const))("error: %s", (_, c) => {
    const ref = jinja(c);
    expect(ref && "error" in ref && /TypeError/.test(ref.error)).toBe(true);
    expect(ourResult(c.template, c.ctx)).toEqual({ error: "template-error" });
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
