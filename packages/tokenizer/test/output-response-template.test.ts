// response_template: reading it (transformers' validation, never throwing: a malformed one is a
// reason), the safe pattern subset, and its compilation to the decoder's grammar against a
// vocabulary (reserved markers vs text markers, body syntaxes, refusals with their reason); a
// tokenizer_config.json carrying one loads and its format takes precedence over the derived one.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTokenizerConfig } from "../src/load/config.ts";
import { compileResponseTemplate } from "../src/template/output/response-template/compile.ts";
import {
  GEMMA4_RESPONSE_TEMPLATE,
  QWEN_RESPONSE_TEMPLATE,
} from "../src/template/output/response-template/fallbacks.ts";
import { readPattern } from "../src/template/output/response-template/pattern.ts";
import {
  type ResponseTemplate,
  readResponseTemplate,
} from "../src/template/output/response-template/read.ts";

const read = (v: unknown): ResponseTemplate => {
  const r = readResponseTemplate(v);
  if ("error" in r) throw new Error(r.error);
  return r.template;
};

/** A vocabulary reserving these strings (IDs in order) and ending on `<|im_end|>`. */
function vocab(reserved: readonly string[]) {
  const ids = new Map(reserved.map((s, i) => [s, 100 + i] as const));
  return { id: (s: string) => ids.get(s), ends: new Set([ids.get("<|im_end|>") ?? -1]) };
}

/** `t` read and compiled against `v`; a refusal fails the test with its reason. */
function compiled(t: unknown, v: ReturnType<typeof vocab>) {
  const c = compileResponseTemplate(read(t), v);
  if ("error" in c) throw new Error(c.error);
  return c;
}

describe("readResponseTemplate", () => {
  it("reads transformers' fallbacks", () => {
    const q = read(QWEN_RESPONSE_TEMPLATE);
    expect(q.fields.map((f) => f.name)).toEqual(["thinking", "tool_calls", "content"]);
    expect(q.fields[2]?.open).toBeNull();
    expect(q.startAnchor).toEqual({ literals: ["<|im_start|>assistant\n"] });
    const g = read(GEMMA4_RESPONSE_TEMPLATE);
    expect(g.fields[1]?.open).toEqual({ pattern: "<\\|tool_call>call:(?P<name>\\w+)" });
  });

  it("refuses malformed templates with transformers' reasons", () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /must be an object/],
      [{ fields: {} }, /fields must be a non-empty object/],
      [{ fields: { a: { open: "x" } }, extra: 1 }, /unknown keys in response_template: extra/],
      [{ version: 2, fields: { a: {} } }, /unsupported response_template version/],
      [{ fields: { a: {}, b: {} } }, /at most one field may omit/],
      [{ fields: { a: { open: "x", open_pattern: "y" } } }, /cannot specify both/],
      [{ fields: { a: { open: [] } } }, /at least one literal/],
      [{ fields: { a: { open: "" } } }, /cannot be empty/],
      [{ fields: { a: { open: ["eos", "x"] } } }, /'eos' literal cannot be combined/],
      [{ fields: { a: { content: "yaml" } } }, /unknown content parser/],
      [{ fields: { a: { transform_each: true } } }, /no transform was provided/],
      [{ fields: { a: { transform: { f: "x{content}" } } } }, /mixes a \{placeholder\}/],
      [{ fields: { a: { bogus: 1 } } }, /unknown keys bogus/],
    ];
    for (const [v, why] of cases) {
      const r = readResponseTemplate(v);
      expect("error" in r ? r.error : "read", JSON.stringify(v)).toMatch(why);
    }
  });

  it("never throws on any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        for (const t of [
          v,
          { fields: { a: v } },
          { fields: { a: { open: v, close: v, content: "json", transform: v } } },
        ]) {
          const r = readResponseTemplate(t);
          if ("error" in r) expect(r.error).not.toMatch(/^internal error/);
        }
      }),
      { numRuns: 300, seed: 37 },
    );
  });

  it("a malformed response_template never fails the config load", () => {
    const c = parseTokenizerConfig(
      JSON.stringify({ response_template: { fields: 3 } }),
      "tokenizer_config.json",
    );
    expect(c.responseTemplate).toEqual({ error: "response_template.fields must be a non-empty object" });
    expect(parseTokenizerConfig("{}", "x").responseTemplate).toBeUndefined();
  });
});

describe("readPattern (the safe subset)", () => {
  it("reads the subset real templates use", () => {
    expect(readPattern("<\\|tool_call>call:(?P<name>\\w+)")).toEqual([
      { lit: "<|tool_call>call:" },
      { word: "name" },
    ]);
    expect(readPattern("<tool_call>\\s*<function=(?P<name>\\w+)>")).toEqual([
      { lit: "<tool_call>" },
      { ws: true },
      { lit: "<function=" },
      { word: "name" },
      { lit: ">" },
    ]);
    expect(readPattern("<parameter=(?P<key>\\w+)>\\s*(?P<value>.*?)\\s*</parameter>")?.[4]).toEqual({
      lazy: "value",
    });
    expect(readPattern("\\n?</response>")).toEqual([{ ws: true }, { lit: "</response>" }]);
  });

  it("refuses anything else (alternation, classes, quantified literals, backreferences)", () => {
    expect(readPattern("(?P<a>\\w+)x".repeat(200))).toBeNull(); // over 1,024 characters
    for (const p of ["a|b", "[^<]*x", "a+", "(a)", "(?:x)?y", "\\1", "x{2}", "a.*b", "\\d"])
      expect(readPattern(p), p).toBeNull();
  });
});

describe("compileResponseTemplate", () => {
  const qwen = vocab(["<think>", "</think>", "<tool_call>", "</tool_call>", "<|im_end|>", "<|endoftext|>"]);

  it("compiles the Qwen fallback to reserved markers and the streaming json-call body", () => {
    const c = compiled(QWEN_RESPONSE_TEMPLATE, qwen);
    expect(c.part.markers).toEqual({
      "<think>": { move: "block-open", block: "think" },
      "</think>": { move: "block-close", block: "think" },
      "<tool_call>": { move: "block-open", block: "tool_call" },
      "</tool_call>": { move: "block-close", block: "tool_call" },
      "<|endoftext|>": { move: "message-end" },
    });
    expect(c.part.blocks).toEqual([
      { name: "think", emits: "reasoning" },
      { name: "tool_call", emits: "action", body: "json-call" },
    ]);
    expect(c.part.startBlock).toBe("think");
    expect(c.part.textMarkers).toBeUndefined();
    expect(c.part.evidence).toContain("field 'content': \"<|eot_id|>\" is not reserved: not a stop");
  });

  it("splits an open pattern into its reserved marker and the header the body reads", () => {
    const c = compiled(
      {
        fields: {
          tool_calls: {
            open_pattern: "<\\|tool_call>call:(?P<name>\\w+)",
            close: "<tool_call|>",
            content: "json",
            content_args: { unquoted_keys: true, string_delims: [['<|"|>', '<|"|>']] },
            transform: { type: "function", function: { name: "{name}", arguments: "{content}" } },
          },
        },
      },
      vocab(["<|tool_call>", "<tool_call|>"]),
    );
    expect(Object.keys(c.part.markers)).toEqual(["<|tool_call>", "<tool_call|>"]);
    expect(c.part.blocks[0]?.body).toBe("response-field");
    expect(c.part.blocks[0]?.responseField?.separatorText).toBeUndefined();
    const reserved = compiled(
      { fields: { tool_calls: GEMMA4_RESPONSE_TEMPLATE.fields.tool_calls } },
      vocab(["<|tool_call>", "<tool_call|>", '<|"|>']),
    );
    expect(reserved.part.markers['<|"|>']).toEqual({ move: "separator", block: "tool_call" });
    expect(reserved.part.blocks[0]?.responseField?.separatorText).toBe('<|"|>');
    expect(c.part.blocks[0]?.responseField).toMatchObject({
      header: [{ lit: "call:" }, { word: "name" }],
      content: "json",
      unquotedKeys: true,
      name: { capture: "name" },
      arguments: { content: [] },
    });
  });

  it("makes unreserved delimiters text markers", () => {
    const c = compiled(
      {
        fields: {
          tool_calls: {
            open: "<tool>",
            close: "</tool>",
            content: "json",
            transform: {
              type: "function",
              function: { name: "{content.name}", arguments: "{content.args}" },
            },
          },
        },
      },
      vocab([]),
    );
    expect(c.part.markers).toEqual({});
    expect(c.part.textMarkers).toEqual({
      "<tool>": { move: "block-open", block: "tool_call" },
      "</tool>": { move: "block-close", block: "tool_call" },
    });
  });

  it("refuses what the decoder cannot express, with the reason", () => {
    const refusal = (t: unknown, v = qwen): string => {
      const c = compileResponseTemplate(read(t), v);
      return "error" in c ? c.error : "compiled";
    };
    expect(
      refusal(
        { fields: { thinking: { open: "<|channel|>analysis<|message|>", close: "<|end|>" } } },
        vocab(["<|channel|>", "<|message|>", "<|end|>"]),
      ),
    ).toBe(
      "field 'thinking': \"<|channel|>analysis<|message|>\" mixes the reserved tokens <|channel|> and <|message|> with text",
    );
    expect(refusal({ fields: { content: { open: "<r>", close: "</r>" } } })).toMatch(
      /content between its own markers/,
    );
    expect(refusal({ fields: { answer: { open: "<r>", close: "</r>" } } })).toMatch(
      /none of content, thinking/,
    );
    expect(
      refusal({ fields: { thinking: { open_pattern: "(?:<\\|m\\|>)?[^<]*<\\|t\\|>", close: "</think>" } } }),
    ).toMatch(/outside the supported subset/);
    expect(
      refusal({
        fields: {
          tool_calls: {
            open: "<tool_call>",
            close: "</tool_call>",
            content: "json",
            transform_each: true,
            transform: { type: "function", function: { name: "{n}", arguments: "{a}" } },
          },
        },
      }),
    ).toMatch(/transform_each/);
    expect(
      refusal({ fields: { tool_calls: { open: "<tool_call>", close: "</tool_call>", content: "json" } } }),
    ).toMatch(/not \{"type": "function"/);
    expect(refusal({ fields: { thinking: { open: "x<think>", close: "</think>" } } })).toMatch(
      /mixes the reserved/,
    );
    expect(refusal({ fields: { thinking: { open: "a".repeat(300), close: "</think>" } } })).toMatch(
      /300 characters/,
    );
  });

  it("fixed text after a reserved open marker is the reasoning block's openText", () => {
    const c = compiled(
      GEMMA4_RESPONSE_TEMPLATE,
      vocab(["<|channel>", "<channel|>", "<|tool_call>", "<tool_call|>", "<turn|>", "<|tool_response>"]),
    );
    expect(c.part.markers["<|channel>"]).toEqual({ move: "block-open", block: "think" });
    expect(c.part.blocks[0]).toEqual({ name: "think", emits: "reasoning", openText: "thought\n" });
  });

  it("never throws on any field shape, delimiter or pattern", () => {
    const v = vocab(["<think>", "</think>", "<tool_call>", "</tool_call>", "<|im_end|>", "<|c>"]);
    const text = fc.oneof(
      fc.constantFrom(
        "<think>",
        "</think>",
        "<tool_call>",
        "<|c>x",
        "(?P<name>\\w+)",
        "\\s*",
        ".*?",
        "(?:^|<think>)",
      ),
      fc.string({ maxLength: 12 }),
    );
    const delim = fc.oneof(text, fc.array(text, { maxLength: 3 }));
    const field = fc.record(
      {
        open: delim,
        open_pattern: text,
        close: delim,
        content: fc.constantFrom("text", "json", "xml-inline", "kv-lines", "int"),
        content_args: fc.dictionary(
          fc.constantFrom("tag_pattern", "string_delims", "unquoted_keys", "value_parser", "kv_sep"),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        transform: fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.constant({ type: "function", function: "{content}" }),
          fc.constant({ type: "function", function: { name: "{name}", arguments: "{content.a}" } }),
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom("thinking", "tool_calls", "content", "other"), field, { minKeys: 1 }),
        (fields) => {
          const r = readResponseTemplate({ fields });
          if ("error" in r) expect(r.error).not.toMatch(/^internal error/);
          else {
            const c = compileResponseTemplate(r.template, v);
            if ("error" in c) expect(c.error).not.toMatch(/^internal error/);
          }
        },
      ),
      { numRuns: 200, seed: 37 },
    );
  });

  it("an open pattern `(?:^|<think>\\s*)` starts decoding in reasoning", () => {
    const c = compileResponseTemplate(
      read({ fields: { thinking: { open_pattern: "(?:^|<think>\\s*)", close: "</think>" } } }),
      qwen,
    );
    expect("part" in c && c.startsInReasoning).toBe(true);
  });
});
