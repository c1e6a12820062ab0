// Live cross-check (needs /usr/bin/python3 with jinja2): every real template in
// ../shared/templates, every request of test-vectors/template-requests.json plus adversarial
// variants (reserved-looking strings in every caller field), rendered by Python jinja2 in
// transformers' environment (gen/template_render.py) and by us: the same text, or both refuse.
// This covers templates whose tokenizer the golden suite cannot load (gemma-3, gpt-oss).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  type ChatRequest,
  compileTemplate,
  PStr,
  renderChatTemplate,
  TokenizerError,
  type Value,
} from "../src/index.ts";
import { havePython, repoRoot } from "./template-support.ts";

const templatesDir = join(repoRoot, "..", "shared/templates");
const suite = JSON.parse(readFileSync(join(repoRoot, "test-vectors/template-requests.json"), "utf8")) as {
  requests: { name: string; request: ChatRequest }[];
};
const SPECIAL: Record<string, string> = { bos_token: "<BOS>", eos_token: "<EOS>" };
const NOW = new Date(2024, 6, 26, 10);
const NEEDLES = [
  "<|im_end|>",
  "</think>",
  "<tool_response>",
  "<|channel|>analysis<|message|>",
  "<end_of_turn>",
  "\"}'\\",
];

function insertAll(v: unknown, token: string, key = ""): unknown {
  if (typeof v === "string")
    return key === "role" || key === "type" ? v : `${v.slice(0, 1)}${token}${v.slice(1)}`;
  if (Array.isArray(v)) return v.map((x) => insertAll(x, token));
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, insertAll(x, token, k)]));
  return v;
}

function python(
  template: string,
  requests: readonly ChatRequest[],
): ({ text: string } | { error: string })[] {
  const r = spawnSync("/usr/bin/python3", [join(repoRoot, "test-vectors/gen/template_render.py")], {
    input: JSON.stringify({ template, special: SPECIAL, now: "2024-07-26T10:00:00", requests }),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

const files = existsSync(templatesDir) ? readdirSync(templatesDir).filter((f) => f.endsWith(".jinja")) : [];

describe.runIf(havePython() && files.length > 0)("real templates: our rendering = Python jinja2", () => {
  const vars = new Map<string, Value>(Object.entries(SPECIAL).map(([k, v]) => [k, PStr.of(v)]));
  test.each(files)("%s", (file) => {
    const template = readFileSync(join(templatesDir, file), "utf8");
    const program = compileTemplate(template);
    const requests = [
      ...suite.requests.map((r) => r.request),
      ...NEEDLES.flatMap((n) => suite.requests.map((r) => insertAll(r.request, n) as ChatRequest)),
    ];
    const ref = python(template, requests);
    let same = 0;
    requests.forEach((req, i) => {
      let ours: { text: string } | { error: string };
      try {
        ours = { text: renderChatTemplate(program, req, vars, { now: () => NOW }).output.text };
      } catch (e) {
        if (!TokenizerError.isInstance(e)) throw e;
        ours = { error: e.type };
      }
      const want = ref[i] as { text: string } | { error: string };
      if ("error" in want) expect(ours, `${file} #${i}: jinja2 raised ${want.error}`).toHaveProperty("error");
      else expect(ours, `${file} #${i}`).toEqual(want);
      same++;
    });
    expect(same).toBe(requests.length);
  });
});

// Caller numbers printed by a template: a JSON integer is a Python int however large (json.loads),
// written as digits by str(), repr() and tojson; a JS number carries what a JS client sends, so an
// integral value below 1e21 is an int and 1e21 and above a float (docs/formats.md).
describe.runIf(havePython())(
  "caller numbers as a template prints them: our rendering = Python jinja2",
  () => {
    const template =
      "{%- for t in tools %}{% set n = t.function.parameters.properties.n %}" +
      "{{ t | tojson }}|{{ n.default }}|{{ n }}|{{ n.default | string }}|{{ [n.default] }}|{{ n.default is integer }}\n" +
      "{% endfor %}";
    const numbers = [
      2 ** 53 - 1,
      2 ** 53,
      2 ** 53 + 2,
      2 ** 60,
      -(2 ** 60),
      1e20,
      123456789012345680000,
      1e21,
      2.5e21,
      -0,
      0.5,
    ];
    test("integers past 2^53, up to and past 1e21", () => {
      const program = compileTemplate(template);
      const requests = numbers.map(
        (x) =>
          ({
            messages: [{ role: "user", content: "hi" }],
            tools: [
              {
                type: "function",
                function: {
                  name: "f",
                  parameters: { type: "object", properties: { n: { type: "integer", default: x } } },
                },
              },
            ],
          }) as unknown as ChatRequest,
      );
      const ref = python(template, requests);
      requests.forEach((req, i) => {
        const ours = renderChatTemplate(program, req, new Map(), { now: () => NOW }).output.text;
        expect(ours, String(numbers[i])).toBe((ref[i] as { text: string }).text);
      });
    });
  },
);

// JSON-string tool-call arguments given to a template that reads them as a mapping are parsed as
// vLLM's json.loads parses them: keys in the order written (integer-like ones too), `1.0` a
// float, duplicate keys at the first place with the last value.
describe.runIf(havePython() && files.includes("qwen3-coder-30b-a3b-instruct.jinja"))(
  "JSON-string arguments read as a mapping: our rendering = Python jinja2",
  () => {
    test("key order, floats, nesting, duplicate keys", () => {
      const template = readFileSync(join(templatesDir, "qwen3-coder-30b-a3b-instruct.jinja"), "utf8");
      const program = compileTemplate(template);
      const argumentTexts = [
        '{"b": 1, "10": 2, "a": 3, "2": 4}',
        '{"a": 1.0, "b": 1e10, "c": -0.0, "d": 2.50}',
        '{"x": {"9": "nine", "1": ["one", 1.0]}, "y": []}',
        '{"k": 1, "j": 2, "k": 3}',
        '{"n": 9007199254740993}',
      ];
      const requests = argumentTexts.map(
        (args) =>
          ({
            messages: [
              { role: "user", content: "go" },
              {
                role: "assistant",
                content: "",
                tool_calls: [{ type: "function", function: { name: "f", arguments: args } }],
              },
              { role: "tool", content: "ok" },
            ],
          }) as unknown as ChatRequest,
      );
      const ref = python(template, requests);
      requests.forEach((req, i) => {
        const ours = renderChatTemplate(program, req, new Map(), { now: () => NOW }).output.text;
        const want = (ref[i] as { text: string }).text;
        // An int past 2^53 loses digits here (docs/templates.md "Known gaps"): compared without it.
        if (argumentTexts[i]?.includes("9007199254740993"))
          expect(ours).toBe(want.replace("9007199254740993", "9007199254740992"));
        else expect(ours, argumentTexts[i]).toBe(want);
      });
    });
  },
);
