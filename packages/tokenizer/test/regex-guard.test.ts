// The split-pattern guard (src/models/regex-guard.ts): a repeated group whose body can match one
// string in several ways backtracks exponentially in V8, so a model file holding one is refused
// (bad-tokenizer-file) where it is read; the patterns tokenizers ship, and every built-in GGUF
// pre-tokenizer pattern, pass.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fromFiles, TokenizerError } from "../src/index.ts";
import { GPT2_PATTERN } from "../src/models/bytelevel/regex-translate.ts";
import { CL100K_PATTERN, QWEN2_PATTERN } from "../src/models/bytelevel/split-scanner.ts";
import { GGUF_PRE_TOKENIZER_NAMES, ggufPreTokenizer } from "../src/models/gguf/pre-tokenizers.ts";
import { backtrackingGroup } from "../src/models/regex-guard.ts";
import { splitOnlyTokenizerJson } from "./bytelevel-support.ts";

const EXPONENTIAL = [
  "(a+)+$",
  "(?:a+)+$",
  "(?:a|a)+$",
  "(aa?)+$",
  "(?:a*)*b",
  "((a|b)c){2,}$",
  "(?:(?:a)+x?)*y",
];
const SHIPPED = [
  GPT2_PATTERN,
  QWEN2_PATTERN,
  CL100K_PATTERN,
  // o200k (gpt-oss): an optional group with alternation
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  // fixed-length repeated bodies
  "(?=(\\d{3})+(?!\\d))",
  "((?=[\\p{L}])([^a-z]))*((?=[\\p{L}])([^A-Z]))+",
  // quantifier characters that are literal: in a class, escaped, a brace that is no count
  "[(a+)+]+",
  "\\(a+\\)+",
  "(a{)+",
];

describe("backtrackingGroup", () => {
  it.each(EXPONENTIAL)("refuses %s", (p) => {
    expect(backtrackingGroup(p)).toMatch(/repeats a body/);
  });
  it.each(SHIPPED)("allows %s", (p) => {
    expect(backtrackingGroup(p)).toBeUndefined();
  });
  it("allows every built-in GGUF pre-tokenizer pattern", () => {
    let n = 0;
    for (const name of GGUF_PRE_TOKENIZER_NAMES)
      for (const r of ggufPreTokenizer(name)?.regexes ?? []) {
        expect(backtrackingGroup(r), `${name}: ${r}`).toBeUndefined();
        n++;
      }
    expect(n).toBeGreaterThan(50);
  });
  it("is one pass: a 200k-character pattern is read at once", () => {
    const t0 = performance.now();
    backtrackingGroup(`${"(?:ab)+".repeat(20_000)}(a+)+`);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe("a model file with such a pattern is bad-tokenizer-file", () => {
  const json = (regex: string) => JSON.stringify(splitOnlyTokenizerJson(regex));
  const config = JSON.stringify({ chat_template: "{{ messages[0].content }}" });
  it.each(EXPONENTIAL)("tokenizer.json Split %s", (p) => {
    let caught: unknown;
    try {
      fromFiles({ "tokenizer.json": json(p), "tokenizer_config.json": config }, { format: "template" });
    } catch (e) {
      caught = e;
    }
    expect(TokenizerError.isInstance(caught) && caught.type).toBe("bad-tokenizer-file");
    expect((caught as Error).message).toMatch(/exponential backtracking/);
  });
  it("the same file with a fixed-length repeated group loads and encodes", () => {
    const tok = fromFiles(
      { "tokenizer.json": json("(?:[ab])+|."), "tokenizer_config.json": config },
      { format: "template" },
    );
    expect(tok.textModel.decode(tok.textModel.encode("abab x"))).toBe("abab x");
  });
});

describe("a tekken.json whose config.pattern is such a pattern is bad-tokenizer-file", () => {
  const tiny = JSON.parse(
    readFileSync(new URL("../../../test-vectors/models/tiny-tekken-v7.json", import.meta.url), "utf8"),
  ) as { config: Record<string, unknown> };
  const withPattern = (pattern: string) => JSON.stringify({ ...tiny, config: { ...tiny.config, pattern } });
  it.each(EXPONENTIAL)("config.pattern %s", (p) => {
    let caught: unknown;
    try {
      fromFiles({ "tekken.json": withPattern(p) });
    } catch (e) {
      caught = e;
    }
    expect(TokenizerError.isInstance(caught) && [caught.type, caught.fields.field]).toEqual([
      "bad-tokenizer-file",
      "config.pattern",
    ]);
    expect((caught as Error).message).toMatch(/exponential backtracking/);
  });
  it("the file as shipped loads", () => {
    expect(fromFiles({ "tekken.json": withPattern(".+") }).format).toBe("mistral-tekken-v7");
  });
});
