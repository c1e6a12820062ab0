// Filters, tests, str methods and literals whose jinja2 / Python semantics are easy to get subtly
// wrong (title vs str.title, split(None, n), dictsort by value, bool as a number, special
// casing, attr vs item, number literals, round / groupby / batch / slice / truncate / center and
// the str methods index / partition / zfill / ...): every expected value is live Python jinja2's
// render in transformers' environment (template_render.py), never written by hand.
import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { TEMPLATE } from "../src/index.ts";
import { titleOf } from "../src/jinja/py-case.ts";
import {
  havePython,
  type JinjaCase,
  ourRender,
  ourResult,
  pythonRenderEach,
  testSameAsPython,
} from "./template-support.ts";

const WORDS = "unit_type don't x2y hello-world a.b (paren) [br]{c}<t> ßa ǆx ﬁne ΣΑΣ. ὀδυσσεύς İi 'q' 3rd _x";
const SPACEY = "  unit_type don't\ta b \u3000 ";

const CASES: JinjaCase[] = [
  {
    name: "title filter: a word starts only after whitespace, '-' or ([{< (jinja2's do_title)",
    template:
      "{{ s|title }}|{{ 'unit_type don\\'t x2y hello-world a.b'|title }}|{{ ('x' ~ s)|title }}|{{ 5|title }}",
    ctx: { s: WORDS },
  },
  {
    name: "title filter: upper case (not title case) first, Σ final only within the word's rest",
    template: "{{ s|title }}|{{ ('σ' ~ s ~ 'Σ ΑΣ')|title }}",
    ctx: { s: "ßa ǆx ﬁx ᾳx ΣΣ ΑΣ ΑΣ' ΑΣ-a Σ\u0301Α \u1c90ა\u2028é\u0085x\u001cy" },
  },
  {
    name: "str.title() method: Python's (after any uncased character)",
    template: "{{ s.title() }}|{{ 'ǆx ßa ﬁx ᾳx'.title() }}|{{ ('ΑΣ' ~ s ~ 'Σ').title() }}",
    ctx: { s: WORDS },
  },
  {
    name: "capitalize: title case of the first character, the rest lower (filter and method)",
    template:
      "{{ 'ßa'|capitalize }}|{{ s|capitalize }}|{{ s.capitalize() }}|{{ 'ǆX'.capitalize() }}|{{ 'ﬁX'|capitalize }}|" +
      "{{ ('ΑΣ' ~ t)|capitalize }}|{{ (t ~ 'ΑΣ')|capitalize }}|{{ ''|capitalize }}|{{ 'ᾳΣ'.capitalize() }}",
    ctx: { s: "ßETA ΑΣ", t: "Σ" },
  },
  {
    name: "upper / lower: full mappings; final sigma decided across template and caller text",
    template:
      "{{ s|upper }}|{{ s|lower }}|{{ s.upper() }}|{{ s.lower() }}|{{ ('Α' ~ t)|lower }}|{{ ('Α' ~ t ~ 'Β')|lower }}|" +
      "{{ (t ~ 'Α')|lower }}|{{ ('Α' ~ t ~ '.')|lower }}|{{ ('Α' ~ t ~ '\u0301Β')|lower }}|{{ ('Α\u0301' ~ t)|lower }}",
    ctx: { s: "ßİΣΑΣ ǅ ﬁ ŉ ΐ ᾳ ΑΣΣ", t: "Σ" },
  },
  {
    name: "swapcase",
    template: "{{ s.swapcase() }}|{{ ('ΑΣ' ~ s).swapcase() }}",
    ctx: { s: "aBßǅİΣx ΑΣ ᾳ" },
  },
  {
    name: "split(None, n) / rsplit(None, n): the rest keeps its whitespace",
    template:
      "{% for n in [-1, 0, 1, 2, 3, 9] %}{{ s.split(none, n) }}{{ s.rsplit(none, n) }}{{ s.split(maxsplit=n) }}" +
      "{{ s.rsplit(None, n) }}{{ s.split(' ', n) }}{{ s.rsplit(' ', n) }}\n{% endfor %}{{ ''.split(none, 1) }}{{ '   '.rsplit(none, 0) }}",
    ctx: { s: SPACEY },
  },
  {
    name: "split / rsplit on the QA strings",
    template: "{{ c.split(none, 1) }}{{ c.rsplit(none, 1) }}{{ c.rsplit(' ', 1) }}{{ c.rsplit() }}",
    ctx: { c: "unit_type don't a b  " },
  },
  {
    name: "dictsort: by key or value, case_sensitive, reverse (stable)",
    template:
      "{{ {'b': 1, 'a': 2}|dictsort(by='value') }}{{ d|dictsort }}{{ d|dictsort(true) }}{{ d|dictsort(reverse=true) }}" +
      "{{ d|dictsort(false, 'value') }}{{ d|dictsort(true, 'value') }}{{ d|dictsort(by='value', reverse=true) }}" +
      "{{ n|dictsort(by='value') }}{{ n|dictsort(by='value', reverse=true) }}{{ n|dictsort(reverse=true) }}",
    ctx: { d: { b: "x", A: "Y", a: "y", C: "X", c: "x" }, n: { z: 1, y: 2, x: 1, w: 2.0, v: true } },
  },
  {
    name: "sort(reverse=true) keeps equal items in order",
    template:
      "{{ xs|sort(attribute='k', reverse=true)|map(attribute='n')|join(',') }}|{{ ['b', 'A', 'a', 'B']|sort(reverse=true) }}",
    ctx: {
      xs: [
        { k: 1, n: 1 },
        { k: 2, n: 2 },
        { k: 1, n: 3 },
        { k: 2, n: 4 },
      ],
    },
  },
  {
    name: "tests on bools and strings: number, integer, float, boolean, lower, upper, odd, even, divisibleby",
    template:
      "{% for x in [true, false, 1, 1.0, 2.5, '', 'a', 'A', 'aB', '1', 'ǅ', 'ª', 'Ⅰ', 'ⓐ', none, [], ['a'], {'k': 'V'}] %}" +
      "{{ x is number }}{{ x is integer }}{{ x is float }}{{ x is boolean }}{{ x is lower }}{{ x is upper }};{% endfor %}|" +
      "{{ true is odd }}{{ false is even }}{{ 3.0 is odd }}{{ -3 is odd }}{{ -4.0 is even }}{{ 'a%s' is odd }}" +
      "{{ true is divisibleby(1) }}{{ 7.5 is divisibleby(2.5) }}{{ 'x%s' is divisibleby 3 }}",
    ctx: {},
  },
  {
    name: "str.islower / isupper",
    template: "{% for x in xs %}{{ x.islower() }}{{ x.isupper() }}{% endfor %}",
    ctx: { xs: ["", "a", "A", "aB", "1", "ǅ", "ª", "Ⅰ", "ⓐ", "ⓐ1", "Ⓐ", "ß", "ΣΑ"] },
  },
  {
    name: "attr reads attributes, not items",
    template:
      "[{{ {'content': 1}|attr('content') }}][{{ d|attr('k') }}][{{ (d|attr('items')) is callable }}]" +
      "[{{ (s|attr('upper')) is callable }}][{{ s|attr('x') }}][{{ none|attr('x') }}][{{ [1]|attr('append') }}]" +
      "{% set ns = namespace(a=3) %}[{{ ns|attr('a') }}][{{ ns|attr('b') }}]{% for i in [7] %}[{{ loop|attr('index') }}]{% endfor %}",
    ctx: { d: { k: "v", items: "i" }, s: "str" },
  },
  {
    name: "number literals: exponents, underscores, hex / octal / binary",
    template:
      "{{ 1e3 }} {{ 1.5e-7 }} {{ 1E3 }} {{ 2.5E+2 }} {{ 1e-3 + 1 }} {{ 1_000 }} {{ 1_000.5 }} {{ 1_0.5_0e1_0 }} " +
      "{{ 0x1F }} {{ 0o17 }} {{ 0b101 }} {{ 0X_ff }} {{ -1e3 }} {{ [1e2, 2] }} {{ 1e400 }} {{ -1e400 }} {{ 1e3 is float }} " +
      "{{ 1_0 is integer }} {{ x[1_0 - 9] }} {{ 3 if 1e0 else 4 }} {{ 1e1|int }} {{ (2e0, 0.5e1) }}",
    ctx: { x: ["a", "b"] },
  },
  {
    name: "round: common (ties to even on the exact value), ceil, floor, precision",
    template:
      "{% for x in [2.5, 3.5, -2.5, 0.5, -0.4, 2.675, 1.005, 42.55, 1e300, 5, true, 15, 25, -25, 0.1, 123456.789, 5e-324] %}" +
      "{{ x|round }} {{ x|round(2) }} {{ x|round(1, 'floor') }} {{ x|round(1, 'ceil') }} {{ x|round(-1) }} " +
      "{{ x|round(-1, 'ceil') }} {{ x|round(0, 'floor') }} {{ x|round(3) }} {{ x|round(true) }} {{ x|round(-400) }} {{ x|round(400) }};\n{% endfor %}" +
      "{{ 42.55|round|int }} {{ 2.5|round(method='floor') }} {{ 2.5|round(precision=1.5, method='ceil') }} " +
      "{{ 1.7976931348623157e308|round(-300) }} {{ 5e-324|round(323) }} {{ 5e-324|round(324) }} {{ 1.7976931348623157e308|round(1) }}",
    ctx: {},
  },
  {
    name: "groupby: sorted groups, grouper / list attributes, default, case_sensitive, tuple unpacking",
    template:
      "{% for g in xs|groupby('city') %}{{ g.grouper }}={{ g.list|map(attribute='n')|join(',') }};{% endfor %}|" +
      "{% for k, v in xs|groupby('city', case_sensitive=true) %}{{ k }}:{{ v|length }};{% endfor %}|" +
      "{{ ys|groupby('a.b', default='z') }}|{{ [[1, 'x'], [0, 'y'], [1, 'z']]|groupby(0) }}|" +
      "{{ (xs|groupby('city'))[0][0] }}|{{ xs|groupby('city')|length }}|{{ ['b', 'a', 'b']|groupby(0)|map('first')|join }}",
    ctx: {
      xs: [
        { city: "Paris", n: 1 },
        { city: "berlin", n: 2 },
        { city: "paris", n: 3 },
        { city: "Berlin", n: 4 },
        { city: "Rome", n: 5 },
      ],
      ys: [{ a: { b: "y" } }, { a: {} }, { a: { b: "z" } }],
    },
  },
  {
    name: "batch and slice",
    template:
      "{{ xs|batch(3)|list }}{{ xs|batch(3, 'f')|list }}{{ xs|batch(2.0)|list }}{{ xs|batch(0)|list }}{{ xs|batch(-1)|list }}" +
      "{{ xs|batch(10, 0)|list }}{{ 'abcde'|batch(2)|list }}{{ [1]|batch(true, 9)|list }}{{ xs|batch(3) is iterable }}|" +
      "{{ xs|slice(3)|list }}{{ xs|slice(3, 'f')|list }}{{ xs|slice(1)|list }}{{ xs|slice(10)|list }}{{ xs|slice(10, 0)|list }}" +
      "{{ xs|slice(-2)|list }}{{ []|slice(2)|list }}{{ 'abcd'|slice(3)|list }}",
    ctx: { xs: [1, 2, 3, 4, 5, 6, 7] },
  },
  {
    name: "truncate",
    template:
      "{{ s|truncate(9) }}|{{ s|truncate(9, true) }}|{{ s|truncate(9, leeway=0) }}|{{ s|truncate(9, true, '…', 0) }}|" +
      "{{ s|truncate(255) }}|{{ s|truncate(3, end='') }}|{{ 'abcdefghij'|truncate(5, leeway=0) }}|{{ s|truncate(30, leeway=0) }}|" +
      "{{ xs|truncate(5) }}|{{ s|truncate(40.0) }}",
    ctx: { s: "the quick brown fox jumps over", xs: [1, 2] },
  },
  {
    name: "center filter and center / ljust / rjust / zfill methods",
    template:
      "[{{ s|center(11) }}][{{ s|center(12) }}][{{ 'ab'|center(5) }}][{{ 'abc'|center(6) }}][{{ 5|center(4) }}][{{ s|center }}]" +
      "[{{ s.center(10, '*') }}][{{ s.center(9, c) }}][{{ s.ljust(8) }}][{{ s.rjust(8, '.') }}][{{ s.ljust(2) }}]" +
      "[{{ '-42'.zfill(6) }}][{{ '+x'.zfill(4) }}][{{ '42'.zfill(1) }}][{{ ''.zfill(3) }}][{{ '😀'.center(4, 'é') }}]",
    ctx: { s: "mid", c: "😀" },
  },
  {
    name: "index / rindex / find / rfind / count with start and end",
    template:
      "{{ s.index('b') }}{{ s.rindex('b') }}{{ s.index('b', 2) }}{{ s.rindex('b', 0, 4) }}{{ s.find('b', -3) }}" +
      "{{ s.rfind('b', -3, -1) }}{{ s.find('', 9) }}{{ s.find('', 99) }}{{ s.rfind('') }}{{ s.rfind('', 2, 4) }}" +
      "{{ s.count('b', 2) }}{{ s.count('', 3, 5) }}{{ s.count('', 9) }}{{ e.find('x') }}{{ e.index('x', 1) }}{{ e.rindex('😀') }}",
    ctx: { s: "abcabcab", e: "😀x😀x" },
  },
  {
    name: "partition / rpartition / expandtabs",
    template:
      "{{ s.partition('=') }}{{ s.rpartition('=') }}{{ s.partition('#') }}{{ s.rpartition('#') }}" +
      "{{ (s.partition('='))[2] }}|{{ t.expandtabs() }}|{{ t.expandtabs(4) }}|{{ t.expandtabs(0) }}|{{ t.expandtabs(tabsize=1) }}",
    ctx: { s: "a=b=c", t: "a\tbc\t😀\td\n\tx\r\ty" },
  },
  {
    name: "floats print as Python's str: inf, -inf, nan",
    template: "{{ 1e400 }} {{ -1e400 }} {{ 1e400 - 1e400 }} {{ [1e400] }} {{ 1e400|string }}",
    ctx: {},
  },
];

/** Cases jinja2 refuses at render time: a typed template-error here. */
const ERRORS: JinjaCase[] = [
  { name: "index: substring not found", template: "{{ 'abc'.index('x') }}", ctx: {} },
  { name: "rindex outside the range", template: "{{ 'abc'.rindex('a', 1) }}", ctx: {} },
  { name: "find with a keyword argument", template: "{{ 'abc'.find(sub='a') }}", ctx: {} },
  { name: "center with a two-character fill", template: "{{ 'abc'.center(9, 'ab') }}", ctx: {} },
  { name: "zfill without a width", template: "{{ 'abc'.zfill() }}", ctx: {} },
  { name: "partition with an empty separator", template: "{{ 'abc'.partition('') }}", ctx: {} },
  { name: "round with an unknown method", template: "{{ 2.5|round(0, 'up') }}", ctx: {} },
  { name: "round of a string", template: "{{ 'a'|round }}", ctx: {} },
  { name: "round with a float precision", template: "{{ 2.5|round(1.0) }}", ctx: {} },
  { name: "slice into 0", template: "{{ [1]|slice(0)|list }}", ctx: {} },
  { name: "batch filling to a float count", template: "{{ [1]|batch(2.5, 0)|list }}", ctx: {} },
  { name: "groupby of mixed keys", template: "{{ [{'a': 1}, {'a': 'x'}]|groupby('a') }}", ctx: {} },
  { name: "truncate to a float length", template: "{{ 'the quick brown fox'|truncate(4.0) }}", ctx: {} },
  { name: "round(-308) overflowing", template: "{{ 1.7976931348623157e308|round(-308) }}", ctx: {} },
  { name: "round ceil overflowing", template: "{{ 1.7976931348623157e308|round(1, 'ceil') }}", ctx: {} },
  { name: "truncate shorter than its end", template: "{{ 'abcdef'|truncate(2) }}", ctx: {} },
  { name: "dictsort by an unknown field", template: "{{ {'a': 1}|dictsort(by='item') }}", ctx: {} },
  {
    name: "dictsort by value of mixed values",
    template: "{{ {'a': 1, 'b': 'x'}|dictsort(by='value') }}",
    ctx: {},
  },
  { name: "odd of none", template: "{{ none is odd }}", ctx: {} },
  { name: "attr of undefined", template: "{{ nothing|attr('x') }}", ctx: {} },
];

describe.runIf(havePython())("filters, tests, str methods and literals = Python jinja2", () => {
  const jinja = pythonRenderEach([...CASES, ...ERRORS]);
  testSameAsPython(CASES, jinja);
  test.each(ERRORS.map((c) => [c.name, c] as const))("error: %s", (_, c) => {
    const ref = jinja(c);
    expect(ref !== undefined && "error" in ref).toBe(true);
    expect(ourResult(c.template, c.ctx)).toEqual({ error: "template-error" });
  });
});

describe.runIf(havePython())("case mappings over every code point = Python", () => {
  test("title case of one character (capitalize's first, str.title's word start)", () => {
    // Python's title / upper of each code point, where the runtimes' upper mappings agree (the
    // Unicode versions of Node's ICU and of Python differ on a few dozen recent characters).
    const r = spawnSync(
      "/usr/bin/python3",
      [
        "-c",
        "import json,sys\n" +
          "json.dump([[c, chr(c).title(), chr(c).upper()] for c in range(0x110000) if not 0xd800 <= c < 0xe000 and (chr(c).title() != chr(c) or chr(c).upper() != chr(c))], sys.stdout)",
      ],
      { encoding: "utf8", maxBuffer: 1 << 26 },
    );
    const rows = JSON.parse(r.stdout) as [number, string, string][];
    const py = new Map(rows.map(([c, t, u]) => [c, [t, u] as const]));
    const wrong: string[] = [];
    for (let c = 0; c < 0x110000; c++) {
      if (c >= 0xd800 && c < 0xe000) continue;
      const ch = String.fromCodePoint(c);
      const [title, upper] = py.get(c) ?? [ch, ch];
      if (ch.toUpperCase() !== upper) continue;
      if (titleOf(c) !== title)
        wrong.push(`U+${c.toString(16)}: ${JSON.stringify(titleOf(c))} vs ${JSON.stringify(title)}`);
    }
    expect(wrong).toEqual([]);
    expect(rows.length).toBeGreaterThan(1000);
  });
});

describe("case mappings keep provenance", () => {
  test("title / capitalize / swapcase: each character keeps its origin", () => {
    const out = ourRender("{{ ('ab-' ~ s ~ ' cd')|title }}|{{ ('x' ~ s).capitalize() }}|{{ s.swapcase() }}", {
      s: "ßq",
    });
    expect(out.text).toBe("Ab-SSq Cd|Xßq|SSQ");
    const runs: [string, boolean][] = [];
    out.forEachRun((t, o) => runs.push([t, o !== TEMPLATE]));
    expect(runs).toEqual([
      ["Ab-", false],
      ["SSq", true],
      [" Cd|X", false],
      ["ßq", true],
      ["|", false],
      ["SSQ", true],
    ]);
  });
});
