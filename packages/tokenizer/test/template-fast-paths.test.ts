// The renderer's fast paths (docs/templates.md "Cost") must compute what the general code
// computes: each case here runs a construct through a fast path and is checked against live
// Python jinja2 (template_render.py, transformers' environment), and the lazy message dicts
// (./src/template/chat.ts) are checked against themselves read whole: reading fields first must
// not change the dict a template then iterates or serializes (order, values, provenance).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileTemplate, type PStr, renderChatTemplate, TokenizerError } from "../src/index.ts";
import { havePython, type JinjaCase, ourResult, pythonRenderEach } from "./template-support.ts";

const CASES: JinjaCase[] = [
  {
    name: "four and more {% set %} in one loop iteration (three inline slots, then a map)",
    template:
      "{% for m in xs %}{% set a = m %}{% set b = a + 1 %}{% set c = b + 1 %}{% set d = c + 1 %}{% set e = d + 1 %}{% set a = e + 1 %}{{ a }}{{ b }}{{ c }}{{ d }}{{ e }}|{% endfor %}{{ a }}",
    ctx: { xs: [1, 5] },
  },
  {
    name: "a global shadowed by a loop variable, a set, a macro parameter (names bound by statements)",
    template:
      "{{ g }}|{% for g in xs %}{{ g }}{% endfor %}|{{ g }}|{% macro f(g, h=g) %}{{ g }}{{ h }}{% endmacro %}{{ f(7) }}|{% set g = 'top' %}{{ g }}|{% for x in xs %}{% set g = x %}{{ g }}{% endfor %}{{ g }}",
    ctx: { g: "G", xs: [1, 2] },
  },
  {
    name: "unbound names read from the top layers inside loops and macros; undefined ones",
    template:
      "{% macro f() %}{{ g }}{{ missing is defined }}{% endmacro %}{% for x in xs %}{{ g }}{{ f() }}{{ missing }}{% endfor %}{{ range(2)|list }}",
    ctx: { g: "G", xs: [1, 2] },
  },
  {
    name: "call blocks: caller and its parameters",
    template: "{% macro m(x) %}[{{ caller(x) }}]{% endmacro %}{% call(y) m(3) %}{{ y }}{{ g }}{% endcall %}",
    ctx: { g: "G" },
  },
  {
    name: "the loop object read lazily: cycle, revindex, previtem, nested loops",
    template:
      "{% for x in xs %}{{ loop.cycle('a', 'b', 'c') }}{{ loop.revindex }}{{ loop.previtem is defined }}{% for y in xs %}{{ loop.index }}{% endfor %}{{ loop.index }};{% endfor %}",
    ctx: { xs: [1, 2, 3, 4] },
  },
  {
    name: "startswith / endswith: one str, a tuple, a non-str argument",
    template:
      "{{ s.startswith('ab') }}{{ s.endswith('cd') }}{{ s.startswith(('x', 'a')) }}{{ s.endswith(('x',)) }}{{ s.startswith('') }}",
    ctx: { s: "abcd" },
  },
  {
    name: "startswith with an int argument is an error",
    template: "{{ s.startswith(1) }}",
    ctx: { s: "abcd" },
  },
  {
    name: "int - int, int * int, and the other operand types through the general operator",
    template:
      "{{ 7 - 2 }}|{{ 3 * 4 }}|{{ 2 * 1.5 }}|{{ 5 - 0.5 }}|{{ true - 1 }}|{{ 'ab' * 3 }}|{{ 3 * 'x' }}|{{ xs|length - 1 }}",
    ctx: { xs: [1, 2, 3] },
  },
  {
    name: "plain filters (length, count, trim, string, tojson) and value-only tests, negated too",
    template:
      "{{ xs|length }}{{ d|count }}{{ s|length }}|{{ s|trim }}|{{ xs|string }}|{{ d|tojson }}|{{ xs is defined }}{{ nope is not defined }}{{ n is none }}{{ s is not string }}{{ d is mapping }}{{ 1.5 is float }}{{ false is false }}",
    ctx: { xs: [1, "a"], d: { k: "v", n: 1 }, s: "  hé  ", n: null },
  },
  {
    name: "output statements writing + / ~ chains (strings, mixed, folded literals)",
    template:
      "{{ 'a' + 'b' }}|{{ s + 'x' + s }}|{{ s ~ 1 ~ none }}|{{ 'a' ~ 'b' }}|{{ xs + xs }}|{{ 1 + 2 + 3 }}",
    ctx: { s: "S", xs: [1] },
  },
  {
    name: "a + chain whose later operand raises is not evaluated past the first error",
    template: "{{ s + 1 + raise_exception('late') }}",
    ctx: { s: "S" },
  },
];

describe.runIf(havePython())("renderer fast paths = Python jinja2", () => {
  const jinja = pythonRenderEach(CASES);
  it.each(CASES)("$name", (c) => {
    const ref = jinja(c);
    const ours = ourResult(c.template, c.ctx);
    if (ref !== undefined && "error" in ref)
      // jinja2's TemplateError is raise_exception's; any other exception is a run-time error.
      expect(ours).toEqual({
        error: ref.error.startsWith("TemplateError") ? "template-exception" : "template-error",
      });
    else expect(ours).toEqual(ref);
  });
});

/** The runs of a rendering as (text, field) pairs: provenance readable across two renders. */
function runs(r: { output: PStr; origins: { get(o: number): { message: number | null; field: string } } }) {
  const out: string[] = [];
  r.output.forEachRun((text, origin) => {
    const f = r.origins.get(origin);
    out.push(`${JSON.stringify(text)}@${f.message}:${f.field}`);
  });
  return out;
}

const WHOLE =
  "{% for m in messages %}{{ m | tojson }}|{% for k, v in m.items() %}{{ k }}={{ v }};{% endfor %}|{{ m|length }}{{ 'name' in m }}\n{% endfor %}";
const READS =
  "{% set _ %}{% for m in messages %}{{ m.role }}{{ m.content }}{{ m.reasoning_content }}{{ m['name'] }}{{ m.get('tool_call_id') }}{{ m.refusal }}{% endfor %}{% endset %}";

const text = fc.string({ maxLength: 5 });
const message = fc.oneof(
  fc.record(
    { role: fc.constantFrom("user", "system", "developer"), content: text, name: text },
    { requiredKeys: ["role", "content"] },
  ),
  fc.record(
    {
      role: fc.constant("assistant"),
      content: fc.oneof(text, fc.constant(null)),
      reasoning_content: text,
      name: text,
    },
    { requiredKeys: ["role"] },
  ),
  fc.record(
    { role: fc.constant("assistant"), reasoning: text, content: text },
    { requiredKeys: ["role", "reasoning"] },
  ),
  fc.record(
    { role: fc.constant("tool"), content: text, tool_call_id: text },
    { requiredKeys: ["role", "content"] },
  ),
);

describe("lazy message dicts", () => {
  it("read field by field first or only whole: the same dict (order, values, provenance)", () => {
    const whole = compileTemplate(WHOLE);
    const readFirst = compileTemplate(READS + WHOLE);
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 4 }), (messages) => {
        const request = { messages };
        let a: ReturnType<typeof renderChatTemplate>;
        try {
          a = renderChatTemplate(whole, request, new Map());
        } catch (e) {
          // An invalid request is refused before any rendering, the same for both.
          if (!TokenizerError.isInstance(e)) throw e;
          expect(() => renderChatTemplate(readFirst, request, new Map())).toThrow();
          return;
        }
        const b = renderChatTemplate(readFirst, request, new Map());
        expect(b.output.text).toBe(a.output.text);
        expect(runs(b)).toEqual(runs(a));
      }),
      { seed: 10, numRuns: 300 },
    );
  });

  it("a field read alone is the dict's entry: defined exactly for its keys, the same value", () => {
    const keys = [
      "role",
      "content",
      "reasoning_content",
      "name",
      "tool_call_id",
      "reasoning",
      "refusal",
      "__proto__",
    ];
    const program = compileTemplate(
      `{% for m in messages %}{% for k in ${JSON.stringify(keys)} %}{{ m[k] is defined }},{% endfor %}|{% for k in ${JSON.stringify(keys)} %}{{ k in m }},{% endfor %}|{% for k, v in m.items() %}{{ v is sameas m[k] }},{% endfor %}#{% endfor %}`,
    );
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 4 }), (messages) => {
        let text: string;
        try {
          text = renderChatTemplate(program, { messages }, new Map()).output.text;
        } catch (e) {
          if (!TokenizerError.isInstance(e)) throw e;
          return;
        }
        const lines = text.split("#").slice(0, -1);
        expect(lines.length).toBe(messages.length);
        for (const line of lines) {
          const [defined, present, same] = line.split("|");
          expect(defined).toBe(present);
          expect(same).toMatch(/^(True,)+$/);
        }
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it("holds the server layer's fields: developer -> system, reasoning as reasoning_content where the caller put it, content last", () => {
    // The normalization the dict documents (src/template/chat.ts; the generators' normalize() in
    // test-vectors/gen/request_common.py is the same rule), written out by hand.
    const request = {
      messages: [
        { content: "c", role: "developer", name: "n" },
        { role: "assistant", reasoning: "r", content: "a", name: "m" },
        { role: "assistant", name: "m", reasoning_content: "q", content: "b" },
      ],
    };
    const r = renderChatTemplate(
      compileTemplate(
        "{% for m in messages %}{{ m.role }}:{% for k in m %}{{ k }},{% endfor %}|{% endfor %}",
      ),
      request,
      new Map(),
    );
    expect(r.output.text).toBe(
      "system:role,name,content,|assistant:role,reasoning_content,name,content,|assistant:role,name,reasoning_content,content,|",
    );
  });
});
