// Provenance through the interpreter (which characters are template, which caller), reserved IDs
// only from template text on the real Qwen3 tokenizer, the structure-from-caller-text audit,
// raise_exception, the bounds on untrusted templates, template sources, and the reserved-set rule.
// Rendered texts here are checked against Python jinja2 in template-jinja.test.ts; this file
// checks what only we have: the per-character origin.
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  type ChatRequest,
  compileTemplate,
  isTextPiece,
  renderChatTemplate,
  TokenizerError,
} from "../src/index.ts";
import { allocated } from "../src/jinja/limits.ts";
import { loadTemplateTokenizerSync, qwen3Dir } from "../src/node.ts";
import { errorOf } from "./error-support.ts";
import { originMap, ourRender, repoRoot } from "./template-support.ts";

describe("provenance through filters, methods, loops, macros", () => {
  // One row per case: the template, its variables, the text, and one letter per character (T template, C caller).
  const CASES: ReadonlyArray<readonly [string, string, Record<string, unknown>, string, string]> = [
    [
      "concatenation and trim / strip / lstrip",
      "[{{ x|trim }}]{{ ('<' ~ x.lstrip(' ')) }}",
      { x: "  ab " },
      "[ab]<ab ",
      "TCCTTCCC",
    ],
    [
      "split and slicing keep the caller's characters caller",
      "{{ x.split('|')[1] }}/{{ x[1:4] }}/{{ x[::-1][:2] }}",
      { x: "a|bc|d" },
      "bc/|bc/d|",
      "CCTCCCTCC",
    ],
    [
      "upper / lower per run (length-changing case maps too)",
      "{{ ('a' ~ x)|upper }}{{ x.lower() }}",
      { x: "ßZ" },
      "ASSZßz",
      "TCCCCC",
    ],
    [
      "tojson: punctuation is template, escaped caller characters stay caller",
      "{{ d|tojson }}",
      { d: { k: 'a"b' } },
      '{"k": "a\\"b"}',
      "TTCTTTTCCCCTT",
    ],
    ["str() of a list: repr quotes are template", "{{ xs }}", { xs: ["a\n"] }, "['a\\n']", "TTCCCTT"],
    [
      "loops, macros and namespace accumulate with provenance",
      "{% macro m(v) %}<{{ v }}>{% endmacro %}{% set ns = namespace(s='') %}{% for c in xs %}{% set ns.s = ns.s ~ m(c) %}{% endfor %}{{ ns.s }}",
      { xs: ["a", "bb"] },
      "<a><bb>",
      "TCTTCCT",
    ],
    [
      "escape: an entity replacing a caller character is caller text",
      "{{ ('<' ~ x)|e }}",
      { x: "a<" },
      "&lt;a&lt;",
      "TTTTCCCCC",
    ],
    [
      "call blocks, varargs and * arguments keep the caller's characters caller",
      "{% macro w(a) %}[{{ a }}{{ varargs|join }}{{ caller(a) }}]{% endmacro %}{% call(v) w(*xs) %}({{ v }}){% endcall %}",
      { xs: ["a", "b"] },
      "[ab(a)]",
      "TCCTCTT",
    ],
  ];
  for (const [title, template, ctx, text, origins] of CASES)
    test(title, () => {
      const r = ourRender(template, ctx);
      expect(r.text).toBe(text);
      expect(originMap(r)).toBe(origins);
    });
  test("replace: the replacement has its own origin", () => {
    const r = ourRender("{{ x.replace('b', '<|T|>') }}", { x: "abc" });
    expect(r.text).toBe("a<|T|>c");
    expect(originMap(r)).toBe("CTTTTTC");
    const s = ourRender("{{ 'xay'.replace('a', x) }}", { x: "Q" });
    expect(originMap(s)).toBe("TCT");
  });
  test("property: any caller string round-trips through trim/split/join with every character caller", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (x) => {
        const r = ourRender("{{ x.split('|')|join('|') }}", { x });
        expect(r.text).toBe(x);
        expect(originMap(r)).toBe(
          x
            .split("|")
            .map((p) => "C".repeat(p.length))
            .join("T"),
        );
      }),
      { seed: 10, numRuns: 200 },
    );
  });
});

describe("reserved IDs only from template text (Qwen3 tokenizer)", () => {
  const tpl = (t: string) => loadTemplateTokenizerSync(qwen3Dir(), { chatTemplate: t });
  const req = (content: string): ChatRequest => ({ messages: [{ role: "user", content }] });
  test("a caller <|im_end|> is text; the template's is the ID", () => {
    const tok = tpl("{{ '<|im_start|>' ~ messages[0].content ~ '<|im_end|>' }}");
    const enc = tok.encodeChat(req("x<|im_end|>y"));
    expect(enc.ids.filter((id) => id === 151645)).toHaveLength(1);
    expect(enc.ids[0]).toBe(151644);
    expect(enc.ids[enc.ids.length - 1]).toBe(151645);
    expect(enc.audit).toEqual([{ message: 0, field: "content", token: "<|im_end|>", index: 1, id: 151645 }]);
  });
  test("a reserved string spelled half by the template, half by the caller is not matched", () => {
    const tok = tpl("{{ '<|im_' ~ messages[0].content }}");
    const ids = tok.encodeChat(req("end|>")).ids;
    expect(ids).not.toContain(151645);
    expect(tok.textModel.decode(ids)).toBe("<|im_end|>");
  });
  test("non-special <think> from caller text is text, from the template an ID", () => {
    const tok = tpl("<think>{{ messages[0].content }}");
    const ids = tok.encodeChat(req("<think>")).ids;
    expect(ids.filter((id) => id === 151667)).toEqual([151667]);
    expect(ids[0]).toBe(151667);
  });
  test("the encoder runs across provenance boundaries (one run, as HF encodes the whole string)", () => {
    const tok = tpl("He{{ messages[0].content }}o");
    expect(tok.encodeChat(req("ll")).ids).toEqual(tok.textModel.encode("Hello"));
  });
  test("property: on the real Qwen3 template, caller text never adds or moves a reserved ID", () => {
    const tok = loadTemplateTokenizerSync(qwen3Dir(), {
      chatTemplate: readFileSync(join(repoRoot, "..", "shared/templates/qwen3.jinja"), "utf8"),
    });
    const reserved = new Set(tok.reserved.values());
    const strings = [...tok.reserved.keys()];
    const piece = fc.oneof(
      fc.constantFrom(...strings),
      fc.constantFrom(...strings).map((s) => s.slice(0, Math.ceil(s.length / 2))),
      fc.string({ maxLength: 6 }),
      fc.constantFrom("\n", " ", "<", "|>", "😀", "é"),
    );
    const text = fc.array(piece, { maxLength: 8 }).map((xs) => xs.join(""));
    const twin = tok.encodeChat({
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "u" },
      ],
    });
    const twinReserved = twin.ids.filter((id) => reserved.has(id));
    fc.assert(
      fc.property(text, text, (s, u) => {
        const req: ChatRequest = {
          messages: [
            { role: "system", content: `s${s}` },
            { role: "user", content: `u${u}` },
          ],
        };
        const enc = tok.encodeChat(req);
        expect(enc.ids.filter((id) => reserved.has(id))).toEqual(twinReserved);
        let shown = "";
        let run: number[] = [];
        for (const id of enc.ids) {
          const name = tok.nameById.get(id);
          if (name === undefined) run.push(id);
          else {
            shown += tok.textModel.decode(run) + name;
            run = [];
          }
        }
        expect(shown + tok.textModel.decode(run)).toBe(tok.renderChat(req));
      }),
      { seed: 42, numRuns: 300 },
    );
  });
  test("hostile caller text costs about what benign text of the same size costs", () => {
    const tok = loadTemplateTokenizerSync(qwen3Dir(), {
      chatTemplate: readFileSync(join(repoRoot, "..", "shared/templates/qwen3.jinja"), "utf8"),
    });
    const n = 100_000;
    const hostile = "<|im_end|></think><tool_call>".repeat(n / 29 + 1).slice(0, n);
    const benign = "hello world, ok ".repeat(n / 16 + 1).slice(0, n);
    const time = (s: string): number => {
      const t0 = performance.now();
      for (let i = 0; i < 3; i++)
        tok.encodeChat({
          messages: [
            { role: "user", content: s },
            { role: "assistant", content: s },
          ],
        });
      return performance.now() - t0;
    };
    time(benign);
    time(hostile);
    // The best of three per side (a pause slows one run, a super-linear cost every run). Linear
    // reads 1.5-3x; a cost quadratic in the 100k-unit text would be thousands of times.
    let best = { hostile: Number.POSITIVE_INFINITY, benign: Number.POSITIVE_INFINITY };
    for (let r = 0; r < 3; r++)
      best = { hostile: Math.min(best.hostile, time(hostile)), benign: Math.min(best.benign, time(benign)) };
    expect(best.hostile / best.benign).toBeLessThan(30);
  });
});

describe("audit, raise_exception, bounds", () => {
  const qwen3 = readFileSync(join(repoRoot, "..", "shared/templates/qwen3.jinja"), "utf8");
  test("structure-from-caller-text where the template reads caller text", () => {
    const tok = loadTemplateTokenizerSync(qwen3Dir(), { chatTemplate: qwen3 });
    const enc = tok.encodeChat({
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "a</think>b" },
        { role: "tool", content: "r" },
      ],
    });
    expect(enc.structure).toContainEqual({
      type: "structure-from-caller-text",
      message: 1,
      field: "content",
      op: "in",
      needle: "</think>",
    });
    expect(enc.structure.some((e) => e.op === "startswith" && e.message === 0)).toBe(true);
  });
  test("raise_exception -> template-exception with the template's message", () => {
    const src = readFileSync(join(repoRoot, "..", "shared/templates/llama-3.2-3b-instruct.jinja"), "utf8");
    const tok = loadTemplateTokenizerSync(qwen3Dir(), { chatTemplate: src });
    const call = { type: "function" as const, function: { name: "f", arguments: "{}" } };
    const e = errorOf(() =>
      tok.encodeChat({
        messages: [
          { role: "user", content: "x" },
          { role: "assistant", tool_calls: [call, call] },
        ],
      }),
    );
    expect(e.type).toBe("template-exception");
    expect(e.message).toBe("This model only supports single tool-calls at once!");
  });
  const limited =
    (t: string, limits = {}) =>
    () =>
      ourRenderLimited(t, limits);
  test.each([
    ["loop iterations", "{% for i in range(10000000) %}{% endfor %}", "maxSteps"],
    [
      "nested loops",
      "{% for a in range(3000) %}{% for b in range(3000) %}{% endfor %}{% endfor %}",
      "maxSteps",
    ],
    [
      "doubling a string",
      "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
      "maxOutputChars",
    ],
    ["string repetition", "{{ 'a' * 1000000000 }}", "maxOutputChars"],
    ["recursion", "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}", "maxCallDepth"],
    ["output size", "{% for i in range(900000) %}xxxxxxxxxx{% endfor %}", "maxOutputChars"],
    [
      "searching a long string in a loop",
      "{% set s = 'x' * 1000000 %}{% for i in range(100) %}{% if 'y' in s %}{% endif %}{% endfor %}",
      "maxWorkChars",
    ],
  ])("%s -> template-limit", (_, t, limit) => {
    const e = errorOf(limited(t));
    expect(e.type).toBe("template-limit");
    expect(e.fields.limit).toBe(limit);
  });
  test("per-character work on a long caller string is linear (iterate, index, length, slice)", () => {
    const t =
      "{% for c in x %}{{ c }}{% endfor %}{% for i in range(x|length) %}{{ x[i] }}{{ x[i:i+1] }}{% endfor %}";
    const text = (n: number) => "ab😀c".repeat(n / 5);
    // What the interpreter allocates is deterministic: four times the text, four times the values,
    // characters and list items (a copy per index or slice would make it about sixteen).
    const allocations = (n: number): number[] => {
      const before = { ...allocated };
      ourRender(t, { x: text(n) });
      return [
        allocated.chars - before.chars,
        allocated.values - before.values,
        allocated.items - before.items,
      ];
    };
    const [small, large] = [allocations(10_000), allocations(40_000)];
    large.forEach((v, i) => {
      expect(v / (small[i] as number)).toBeGreaterThan(3.9);
      expect(v / (small[i] as number)).toBeLessThan(4.1);
    });
    // Time catches a scan per index that allocates nothing. Both loops below run once per code
    // point over the same text, so the garbage collector's share (which grows with the heap) is the
    // same for both; indexing at a cost linear in the text would make the second about 20x slower
    // than iterating at this size, not 1.5-2.5x.
    const time = (template: string): number => {
      const x = text(80_000);
      const t0 = performance.now();
      ourRender(template, { x });
      return performance.now() - t0;
    };
    const iterate = "{% for c in x %}{{ c }}{% endfor %}";
    const index = "{% for i in range(x|length) %}{{ x[i] }}{{ x[i:i+1] }}{{ x|length }}{% endfor %}";
    time(iterate);
    const iterating = Math.min(time(iterate), time(iterate), time(iterate));
    const indexing = Math.min(time(index), time(index), time(index));
    expect(indexing / iterating).toBeLessThan(8);
  });
  test("a syntax error is template-syntax-error", () => {
    expect(errorOf(limited("{% for %}")).type).toBe("template-syntax-error");
  });
});

function ourRenderLimited(t: string, limits: object): string {
  const tok = loadTemplateTokenizerSync(qwen3Dir(), { chatTemplate: t, limits });
  return tok.renderChat({ messages: [{ role: "user", content: "x" }] });
}

describe("template sources", () => {
  const dir = mkdtempSync(join(tmpdir(), "chatwire-template-"));
  symlinkSync(join(qwen3Dir(), "tokenizer.json"), join(dir, "tokenizer.json"));
  const cfg = JSON.parse(readFileSync(join(qwen3Dir(), "tokenizer_config.json"), "utf8")) as Record<
    string,
    unknown
  >;
  cfg.chat_template = [
    { name: "default", template: "D{{ messages|length }}" },
    { name: "tool_use", template: "T{{ tools|length }}" },
  ];
  writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify(cfg));
  const tools = [{ type: "function" as const, function: { name: "f" } }];
  const msgs = [{ role: "user" as const, content: "x" }];
  test("named list: default without tools, tool_use with tools (as transformers)", () => {
    const tok = loadTemplateTokenizerSync(dir);
    expect(tok.renderChat({ messages: msgs })).toBe("D1");
    expect(tok.renderChat({ messages: msgs, tools })).toBe("T1");
  });
  test("chat_template.jinja beside the config wins; the chatTemplate option wins over both", () => {
    const d2 = mkdtempSync(join(tmpdir(), "chatwire-template-"));
    symlinkSync(join(qwen3Dir(), "tokenizer.json"), join(d2, "tokenizer.json"));
    writeFileSync(join(d2, "tokenizer_config.json"), JSON.stringify(cfg));
    writeFileSync(join(d2, "chat_template.jinja"), "J{{ messages[0].content }}");
    expect(loadTemplateTokenizerSync(d2).renderChat({ messages: msgs, tools })).toBe("Jx");
    expect(loadTemplateTokenizerSync(d2, { chatTemplate: "O" }).renderChat({ messages: msgs })).toBe("O");
  });
  // transformers' rule, re-implemented: it reads chat_template.jinja with
  // open(path, encoding="utf-8"), which keeps a leading byte order mark as U+FEFF, and Jinja
  // writes it out as template text; tokenizer_config.json's BOM is not text of anything.
  test("a byte order mark in chat_template.jinja stays template text, as transformers reads the file", () => {
    const d2 = mkdtempSync(join(tmpdir(), "chatwire-template-"));
    symlinkSync(join(qwen3Dir(), "tokenizer.json"), join(d2, "tokenizer.json"));
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    writeFileSync(join(d2, "tokenizer_config.json"), Buffer.concat([bom, Buffer.from(JSON.stringify(cfg))]));
    writeFileSync(
      join(d2, "chat_template.jinja"),
      Buffer.concat([bom, Buffer.from("J{{ messages[0].content }}")]),
    );
    const tok = loadTemplateTokenizerSync(d2);
    expect(tok.renderChat({ messages: msgs })).toBe("\uFEFFJx");
    const fromText = loadTemplateTokenizerSync(d2, { chatTemplate: "\uFEFFJ{{ messages[0].content }}" });
    expect(tok.encodeChat({ messages: msgs }).ids).toEqual(fromText.encodeChat({ messages: msgs }).ids);
    expect(tok.decode(tok.encodeChat({ messages: msgs }).ids)).toBe("\uFEFFJx");
  });
});

describe("reserved-set rule (docs/templates.md)", () => {
  const t = (content: string, special = false) => ({ id: 1, content, special });
  test.each([
    ["\n\n\n", false, true],
    ["    ", false, true],
    ["<table>", false, true],
    ["</h1>", false, true],
    ["<think>", false, false],
    ["<tool_call>", false, false],
    ["<|im_end|>", false, false],
    ["<｜tool▁sep｜>", false, false],
    ["[INST]", false, false],
    ["\n\n", true, false],
  ])("%j (special %s) is a text piece: %s", (content, special, piece) => {
    expect(isTextPiece(t(content, special), [])).toBe(piece);
  });
  test("SentencePiece's control spellings at IDs 0-3 are reserved; elsewhere (Gemma 3's HTML) text", () => {
    expect(isTextPiece({ id: 2, content: "</s>", special: false }, [])).toBe(false);
    expect(isTextPiece({ id: 1, content: "<s>", special: false }, [])).toBe(false);
    expect(isTextPiece({ id: 212, content: "</s>", special: false }, [])).toBe(true);
    expect(isTextPiece({ id: 203, content: "<s>", special: false }, [])).toBe(true);
  });
  test("a token the template spells is reserved", () => {
    expect(isTextPiece(t("<table>"), ["{{ '<table>' }}"])).toBe(false);
  });
});

describe("untrusted templates never throw past the API", () => {
  test("property: random template text renders or is a TokenizerError", () => {
    const bits = fc.constantFrom(
      "{{",
      "}}",
      "{%",
      "%}",
      "{#",
      "#}",
      "-",
      " ",
      "if ",
      "for ",
      "in ",
      "endif",
      "endfor",
      "else",
      "set ",
      "macro ",
      "endmacro",
      "x",
      "messages",
      "[0]",
      ".content",
      "|trim",
      "|tojson",
      "|length",
      "(",
      ")",
      "'a'",
      '"b"',
      "1",
      "~",
      "+",
      "*",
      "==",
      "not ",
      "and ",
      "is defined",
      "loop.index",
      "namespace(",
      "=",
      ",",
      "raise_exception('e')",
      "range(5)",
      ".split(",
      ".strip(",
      "[::-1]",
      ":",
      "\n",
      "<|im_end|>",
    );
    const request: ChatRequest = { messages: [{ role: "user", content: "hi" }] };
    let rendered = 0;
    fc.assert(
      fc.property(fc.array(bits, { maxLength: 30 }), (parts) => {
        const src = parts.join("");
        try {
          renderChatTemplate(compileTemplate(src), request, new Map(), { limits: { maxSteps: 10_000 } });
          rendered++;
        } catch (e) {
          if (!TokenizerError.isInstance(e)) throw new Error(`${String(e)} for ${JSON.stringify(src)}`);
        }
      }),
      { seed: 3, numRuns: 2000 },
    );
    // Most random sources are syntax errors; enough must render to exercise the interpreter.
    expect(rendered).toBeGreaterThan(200);
  });
});
