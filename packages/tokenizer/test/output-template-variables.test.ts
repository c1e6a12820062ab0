// undefinedVariables: the names a template reads that neither it nor a request defines (the
// probe gives them as "" only when the template fails without them: FireFunction v2's
// `functions` and `datetime`, which its vendor's server passes beside the request).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formats, loadFormat, templateDir } from "../../../test-vectors/peer-parse/score.ts";
import type { ChatRequest } from "../src/index.ts";
import { probeTemplate } from "../src/index.ts";
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

const entry = formats().templates["models/templates/fireworks-ai-llama-3-firefunction-v2.jinja"];
const present = entry !== undefined && existsSync(join(templateDir(entry.template.dir), entry.template.file));

describe.skipIf(!present)("a template that reads variables no request defines (FireFunction v2)", () => {
  it('is probed with them given as "" (evidence), and a user\'s prompt still needs them from the caller', () => {
    if (entry === undefined) throw new Error("no FireFunction v2 entry");
    const { tok } = loadFormat(entry);
    const out = probeTemplate(tok).output;
    expect(out.evidence).toContain(
      'probe: rendered with variables no request defines, given as "": datetime, functions',
    );
    expect(out.name).toContain("JSON list of calls");
    const user = { role: "user", content: "Hi" };
    expect(() => tok.encodeChat({ messages: [user] } as ChatRequest)).toThrow();
    const given = { messages: [user], chat_template_kwargs: { functions: "[]", datetime: "Jul 26 2024" } };
    expect(tok.decode(tok.encodeChat(given as ChatRequest).ids)).toContain("[]\nToday is Jul 26 2024.");
  });
});
