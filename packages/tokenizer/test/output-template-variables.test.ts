// undefinedVariables: the names a template reads that neither it nor a request defines (the
// probe gives them as "" only when the template fails without them).
import { describe, expect, it } from "vitest";
import { undefinedVariables } from "../src/template/output/template-variables.ts";

describe("undefinedVariables", () => {
  it("finds names read but never defined", () => {
    const src = "{%- set s = 'x' + functions -%}{{ s + '\\nToday is ' + datetime }}";
    expect(undefinedVariables(src, [])).toEqual(["datetime", "functions"]);
  });

  it("leaves out bindings, globals, request variables, special tokens, filter / test / member names", () => {
    const src = [
      "{% macro m(a, b=default_b) %}{{ a ~ b ~ caller() }}{% endmacro %}",
      "{% set ns = namespace(x=1) %}{% for message in messages %}{{ message.content | trim }}",
      "{% if message is string and loop.first %}{{ bos_token }}{% endif %}{% endfor %}",
      "{% if tools %}{{ tools | tojson(indent=2) }}{% endif %}{{ raise_exception('x') if false }}",
      "{% set a, b = 1, 2 %}{{ a + b + ns.x }}{{ add_generation_prompt }}{{ strftime_now('%d') }}",
      "{% filter upper %}{{ extra_var }}{% endfilter %}{{ x[key_var] }}",
    ].join("");
    expect(undefinedVariables(src, ["bos_token"])).toEqual(["default_b", "extra_var", "key_var", "x"]);
  });

  it("is empty for a template that does not parse", () => {
    expect(undefinedVariables("{% if %}", [])).toEqual([]);
  });
});
