// Template work budgets charged by work, not steps: each bomb the interpreter once ran for hours
// or until V8 aborted (an uncatchable crash) inside the documented limits now either renders
// cheaply (what it computes is small) or ends with template-limit, with the work charged
// (RenderResult.work) within the budget. Wall-clock numbers are not asserted: the charged work
// is the counter, and the fuzz suite (template-budget-fuzz.test.ts) checks that the charge
// follows what is really allocated.
import { describe, expect, test } from "vitest";
import { compileTemplate, Origins, renderProgram, TokenizerError } from "../src/index.ts";
import { MAX_STRUCTURE_ENTRIES } from "../src/jinja/interpreter.ts";
import { errorOf } from "./error-support.ts";
import { havePython, pythonRenderEach } from "./template-support.ts";

const SMALL = { maxWorkChars: 2_000_000, maxOutputChars: 1_000_000, maxSteps: 200_000 };

function render(template: string, ctx: Record<string, unknown> = {}, limits: object = SMALL) {
  const origins = new Origins();
  const vars = new Map(Object.entries(ctx).map(([k, v]) => [k, origins.value(v, null, k)] as const));
  return renderProgram(compileTemplate(template), vars, origins, { limits });
}

function limitOf(template: string, ctx: Record<string, unknown> = {}, limits: object = SMALL): string {
  try {
    render(template, ctx, limits);
  } catch (e) {
    if (TokenizerError.isInstance(e) && e.type === "template-limit") return e.fields.limit as string;
    throw e;
  }
  return "none";
}

const LONG = "x".repeat(400_000);
/** A big caller dict, made once: each case converts it (rendering never changes the caller's values). */
const BIG = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));

describe("bombs inside the limits end in bounded work", () => {
  test("'' * 10**9 is '' (no array of a billion references)", () => {
    const r = render("[{{ '' * 10**9 }}]{{ x * 10**9 }}", { x: "" });
    expect(r.output.text).toBe("[]");
    expect(r.work).toBeLessThan(100);
  });
  test("a string times a huge count is refused before it is made", () => {
    expect(limitOf("{{ 'ab' * 10**9 }}")).toBe("maxOutputChars");
  });
  test.each([
    ["|list of a long string, repeatedly", "{% for i in range(50) %}{% set l = s|list %}{% endfor %}"],
    ["for over its characters", "{% for i in range(50) %}{% for c in s %}{% endfor %}{% endfor %}"],
    [
      "split into one-character parts",
      "{% for i in range(50) %}{% set l = (s|join('|')).split('|') %}{% endfor %}",
    ],
    ["string comparison in a loop", "{% for i in range(1000) %}{% if s == t %}{% endif %}{% endfor %}"],
    ["ordering comparison in a loop", "{% for i in range(1000) %}{% if s < t %}{% endif %}{% endfor %}"],
    [
      "`in` over a long list",
      "{% set l = range(100000)|list %}{% for i in range(1000) %}{% if -1 in l %}{% endif %}{% endfor %}",
    ],
    ["sorting long strings", "{% for i in range(1000) %}{% set l = [s, t, s, t]|sort %}{% endfor %}"],
    [
      "join of a long list",
      "{% set l = range(100000)|list %}{% for i in range(1000) %}{% set j = l|join(',') %}{% endfor %}",
    ],
    [
      "splitlines",
      "{% set m = s|replace('x', '\\n') %}{% for i in range(50) %}{% set l = m.splitlines() %}{% endfor %}",
    ],
    ["wordcount", "{% for i in range(1000) %}{% set n = s|wordcount %}{% endfor %}"],
    [
      "int of a long digit string",
      "{% set d = s|replace('x', '1') %}{% for i in range(1000) %}{% set n = d|int %}{% endfor %}",
    ],
    [
      "unique of a long list",
      "{% set l = range(100000)|list %}{% for i in range(100) %}{% set u = l|unique|list %}{% endfor %}",
    ],
    ["upper in a loop", "{% for i in range(1000) %}{% set u = s|upper %}{% endfor %}"],
    ["reverse slices", "{% for i in range(1000) %}{% set u = s[::-1] %}{% endfor %}"],
    ["replace with an empty pattern", "{% for i in range(100) %}{% set u = s|replace('', '') %}{% endfor %}"],
    ["find in a loop", "{% for i in range(1000) %}{% set u = s.find('y') %}{% endfor %}"],
    ["strip in a loop", "{% for i in range(1000) %}{% set u = s.strip() %}{% endfor %}"],
    [
      "a printed list of a shared long string",
      "{% set l = [s, s, s, s] %}{% set l = [l, l, l, l] %}{{ [l, l, l, l] }}",
    ],
    [
      "tojson of a shared structure",
      "{% set ns = namespace(l=[s, s]) %}{% for i in range(30) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}{{ ns.l|tojson }}",
    ],
    [
      "equality of a shared structure",
      "{% set ns = namespace(l=[1, 1]) %}{% for i in range(40) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}{{ ns.l == [ns.l][0] }}",
    ],
    ["indent with a huge width", "{{ s|indent(10**8) }}"],
    ["tojson with a huge indent", "{{ [[1]]|tojson(indent=10**8) }}"],
    [
      "dictsort of a big dict",
      "{% set d = dict(**big) %}{% for i in range(1000) %}{% set x = d|dictsort %}{% endfor %}",
    ],
  ])("%s -> template-limit", (_, template) => {
    const limit = limitOf(template, { s: LONG, t: `${LONG}y`, big: BIG });
    expect(["maxWorkChars", "maxOutputChars", "maxSteps"]).toContain(limit);
  });
  test("|first and |last read one character, not every one", () => {
    const r = render("{% for i in range(1000) %}{{ s|first }}{{ s|last }}{% endfor %}", { s: LONG });
    expect(r.output.text).toBe("xx".repeat(1000));
    expect(r.work).toBeLessThan(200_000);
  });
  test("the work of a render that stays inside the budget is at most the budget", () => {
    const r = render("{% for i in range(10) %}{{ s|upper|length }}{% endfor %}", { s: LONG }, DEFAULT_BIG);
    expect(r.work).toBeLessThanOrEqual(DEFAULT_BIG.maxWorkChars);
    expect(r.work).toBeGreaterThan(10 * LONG.length);
  });
});

const DEFAULT_BIG = { maxWorkChars: 64_000_000, maxOutputChars: 4_000_000, maxSteps: 1_000_000 };

const SEMANTICS: [string, string][] = [
  ["{{ ['b', 'A', 'a', 'B']|unique|list }}", "['b', 'A']"],
  ["{{ ['b', 'A', 'a', 'B']|unique(true)|list }}", "['b', 'A', 'a', 'B']"],
  ["{{ ['b', 'A', 'c']|sort }}", "['A', 'b', 'c']"],
  ["{{ ['b', 'A', 'c']|sort(case_sensitive=true) }}", "['A', 'b', 'c']"],
  ["{{ ['b', 'a', 'C']|sort(true) }}", "['C', 'b', 'a']"],
  ["{{ 'ab cd, e_f 12'|wordcount }}", "4"],
  ["{{ 'abc'|first }}{{ 'abc'|last }}{{ ''|first }}", "ac"],
  ["{{ 'a😀b'|reverse }}", "b😀a"],
  ["{{ 'ab' * 3 }}{{ 2 * 'c' }}{{ 'x' * 0 }}{{ 'x' * -2 }}", "abababcc"],
  [
    "{{ {'b': 1, 'A': 2}|tojson(false, none, none, true) }}|{{ [1]|tojson(false, 1) }}",
    '{"A": 2, "b": 1}|[\n 1\n]',
  ],
];

describe("jinja2 semantics kept by the bounded operations", () => {
  test.each(SEMANTICS)("%s", (template, text) => {
    expect(render(template).output.text).toBe(text);
  });
  test.runIf(havePython())("the expected texts are Python jinja2's", () => {
    const cases = SEMANTICS.map(([template, text]) => ({ template, ctx: {}, text }));
    const jinja = pythonRenderEach(cases);
    for (const c of cases) expect([c.template, jinja(c)]).toEqual([c.template, { text: c.text }]);
  });
});

describe("nesting deeper than the stack", () => {
  test.each([
    ["brackets", (n: number) => `{{ ${"(".repeat(n)}1${")".repeat(n)} }}`],
    ["if blocks", (n: number) => `${"{% if true %}".repeat(n)}x${"{% endif %}".repeat(n)}`],
    ["filters", (n: number) => `{{ 'a'${"|upper".repeat(n)} }}`],
    ["operators", (n: number) => `{{ 1${" + 1".repeat(n)} }}`],
  ])("%s nested 100,000 deep: a typed error that says so", (_what, make) => {
    const e = errorOf(() => render(make(100_000)));
    expect(["template-syntax-error", "template-error"]).toContain(e.type);
    expect(e.message).toBe(
      "chat template: nested too deeply (blocks, brackets or operators) for the JavaScript stack",
    );
  });
});

describe("the structure audit of one render is bounded", () => {
  test(`beyond ${MAX_STRUCTURE_ENTRIES} entries the reads are counted in one last entry`, () => {
    const xs = Array.from({ length: 5000 }, (_, i) => `s${i}`);
    const r = render("{% for x in xs %}{% if 'q' in x %}{% endif %}{% endfor %}", { xs }, DEFAULT_BIG);
    expect(r.structure).toHaveLength(MAX_STRUCTURE_ENTRIES + 1);
    expect(r.structure[MAX_STRUCTURE_ENTRIES]).toEqual({
      type: "structure-from-caller-text",
      message: null,
      field: "",
      op: "truncated",
      needle: "",
      omitted: 5000 - MAX_STRUCTURE_ENTRIES,
    });
  });
});
