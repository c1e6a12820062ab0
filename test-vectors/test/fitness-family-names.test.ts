// Fitness test: the engines contain no family names. A format is data (families/<name>/ of
// @chatwire/tokenizer: definition, grammar, renderer); the code that runs formats — the OpenAI
// layer, the server, the stream decoder, and the tokenizer outside families/ — must not branch
// on, import from, or spell any family, so a new format needs no code there.
//
// The rule: a family name in CODE, in any letter case, with "-" and "_" ignored (gpt-oss,
// gpt_oss, GptOss), is a hit; comments are not code (they may name a family as an example).
// String literals are code: `format === "chatglm3"` is the branch this test exists to catch,
// and an error message that names a family is family knowledge in an engine too. The names:
// every FAMILY_NAMES entry and the aliases below; a name that contains another is caught by it.
//
// ALLOWED lists the files that still name a family, with what is left in each: it is meant to
// be emptied; a file listed there that no longer has a hit fails the test, so it only shrinks.
// BUILT_IN_MODEL is not format code: the bundled tokenizer's data package, named by its model.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FAMILY_NAMES } from "../../packages/tokenizer/src/index.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Names a family goes by besides its --format names: the vendor of deepseek-v3 / -r1, gpt-oss's format. */
const ALIASES = ["deepseek", "harmony"];

const norm = (s: string): string => s.toLowerCase().replace(/[-_]/g, "");

/** The names to look for: shortest first, dropping any that contains a shorter one. */
export function familyNames(names: readonly string[]): string[] {
  const all = [...new Set([...names, ...ALIASES].map(norm))].sort((a, b) => a.length - b.length);
  return all.filter((n, i) => !all.slice(0, i).some((m) => n.includes(m)));
}

const ENGINE_DIRS = [
  "packages/openai/src",
  "packages/server/src",
  "packages/stream-decoder/src",
  "packages/tokenizer/src",
];
/**
 * Not engines: the family folders themselves, and llama.cpp's pre-tokenizer table (data keyed by
 * the names a GGUF's tokenizer.ggml.pre holds, which are llama.cpp's model names).
 */
const NOT_ENGINE = [
  "packages/tokenizer/src/families/",
  "packages/tokenizer/src/models/gguf/pre-tokenizers.ts",
];

/**
 * Not format code: the built-in tokenizer, a model's files shipped as the data package
 * @chatwire/tokenizer-qwen3 and loaded by that name (loadTokenizer("qwen3")); its format is
 * detected from the files like any other's.
 */
const BUILT_IN_MODEL: ReadonlyMap<string, string> = new Map([
  ["packages/tokenizer/src/node.ts", "re-exports the data package's directory"],
  ["packages/tokenizer/src/node/qwen3.ts", "resolves the data package"],
  ["packages/tokenizer/src/node/directory.ts", "the built-in name"],
  ["packages/tokenizer/src/node/table-cache.ts", "the data package's prebuilt tables"],
]);

/**
 * Files that still name a family, each with its owner and what is left: meant to be emptied.
 * A listed file that no longer names a family fails the test, so the list only shrinks.
 */
const ALLOWED: ReadonlyMap<string, string> = new Map([
  // Decoder engine (being replaced by the one engine that runs every format as data).
  ["packages/stream-decoder/src/decoder.ts", "engine: selects the harmony decoder class"],
  [
    "packages/stream-decoder/src/harmony-header.ts",
    "engine: the harmony header syntax reads its channel names and recipients in code, not yet as format data",
  ],
  ["packages/stream-decoder/src/spec.ts", 'engine: the header syntax is named "harmony" (Header.Harmony)'],
  [
    "packages/stream-decoder/src/text-markers.ts",
    'engine: refuses text markers under the header syntax named "harmony" (its header fields are markers)',
  ],
  [
    "packages/tokenizer/src/template/output/response-template/fallbacks.ts",
    "data: transformers' fallback response_template table, keyed by its model_type names (qwen3, qwen3_moe, ...)",
  ],
  [
    "packages/tokenizer/src/template/output/recognizers/field-headers.ts",
    "recognizer: the grammar it derives has the header syntax named harmony (HeaderSyntax), as spec.ts reads it",
  ],
  [
    "packages/stream-decoder/src/reference/engine.ts",
    "reference engine: runs the header syntax named harmony (Header.Harmony) with the engine's parsers",
  ],
  [
    "packages/stream-decoder/src/reference/fields-header.ts",
    "reference engine: the harmony header syntax's parts, from harmony-header.ts",
  ],
  // Tool-call bodies.
  ["packages/stream-decoder/src/action-parse.ts", "bodies: the ActionParser.InternLM2Plugin mode"],
  // Request normalization.
  [
    "packages/tokenizer/src/request/request.ts",
    "request: the InternLM2Action type of a message's action field",
  ],
  // Re-export of the one above.
  ["packages/tokenizer/src/index.ts", "re-exports InternLM2Action"],
]);

function tree(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tree(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/**
 * `src` with every comment replaced by spaces (line breaks kept, so line numbers hold). Strings,
 * template literals (with `${...}` nesting) and regular expression literals are code and are
 * kept; their contents never start a comment.
 */
export function stripComments(src: string): string {
  const out: string[] = [];
  /** Open template literals: the brace depth of each `${` still to close. */
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  /** The last significant (non-space) character of code, to tell a regex from a division. */
  let prev = "";
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  const quoted = (q: string): void => {
    const start = i++;
    while (i < src.length && src[i] !== q && src[i] !== "\n") i += src[i] === "\\" ? 2 : 1;
    i++;
    out.push(src.slice(start, i));
    prev = q;
  };
  /** Inside a template literal's text, up to its end or to a `${`. */
  const templateText = (): void => {
    const start = i;
    while (i < src.length && src[i] !== "`" && !(src[i] === "$" && src[i + 1] === "{"))
      i += src[i] === "\\" ? 2 : 1;
    if (src[i] === "`") {
      i++;
      prev = "`";
    } else if (i < src.length) {
      i += 2;
      templates.push(depth);
      prev = "{";
    }
    out.push(src.slice(start, i));
  };
  while (i < src.length) {
    const c = src[i] as string;
    const n = src[i + 1];
    if (c === "/" && n === "/") {
      const end = src.indexOf("\n", i);
      const stop = end === -1 ? src.length : end;
      out.push(blank(src.slice(i, stop)));
      i = stop;
    } else if (c === "/" && n === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end === -1 ? src.length : end + 2;
      out.push(blank(src.slice(i, stop)));
      i = stop;
    } else if (c === '"' || c === "'") quoted(c);
    else if (c === "`") {
      out.push(c);
      i++;
      templateText();
    } else if (c === "/" && (prev === "" || "(,=:[!&|?{};+-*%<>~^".includes(prev))) {
      // A regular expression literal (where a division cannot stand).
      const start = i++;
      let cls = false;
      while (i < src.length && src[i] !== "\n" && (cls || src[i] !== "/")) {
        if (src[i] === "\\") i++;
        else if (src[i] === "[") cls = true;
        else if (src[i] === "]") cls = false;
        i++;
      }
      i++;
      out.push(src.slice(start, i));
      prev = "/";
    } else {
      if (c === "{") depth++;
      else if (c === "}") {
        if (templates.length > 0 && templates[templates.length - 1] === depth) {
          templates.pop();
          out.push(c);
          i++;
          templateText();
          continue;
        }
        depth--;
      }
      out.push(c);
      if (!/\s/.test(c)) prev = c;
      i++;
    }
  }
  return out.join("");
}

/** Every family name in the code of `src`, as "line (name): code". */
export function codeHits(src: string, names: readonly string[]): string[] {
  const hits: string[] = [];
  stripComments(src)
    .split("\n")
    .forEach((line, i) => {
      const flat = norm(line);
      for (const n of names) if (flat.includes(n)) hits.push(`${i + 1} (${n}): ${line.trim()}`);
    });
  return hits;
}

const NAMES = familyNames(FAMILY_NAMES);
const FILES = ENGINE_DIRS.flatMap((d) => tree(join(root, d)))
  .map((f) => relative(root, f))
  .filter((f) => !NOT_ENGINE.some((p) => f.startsWith(p)))
  .sort();

describe("fitness: no family name in the code of the engines", () => {
  it("the names come from FAMILY_NAMES and the aliases; each is looked for once", () => {
    expect(NAMES).toEqual(expect.arrayContaining(["qwen3", "internlm2", "chatglm3", "gptoss", "llama3"]));
    expect(NAMES).toContain("deepseek");
    expect(NAMES).not.toContain("qwen3coder");
  });

  it("the scanner finds a planted name in code and ignores comments", () => {
    const src = [
      "// qwen3 in a comment",
      "/* chatglm3",
      "   still a comment */ const a = 1;",
      'if (format === "gpt-oss") a();',
      // A template literal with a placeholder ("$" + "{": not a placeholder in this file).
      "const s = `x $" + "{f(`Qwen3`)} y`; // internlm2",
      "const r = /\\/\\/ deepseek/; const GptOssIds = 0;",
      "const d = a / b; // llama3",
      "const u = 'https://example.invalid/x'; const v = x; // harmony",
    ].join("\n");
    expect(codeHits(src, NAMES)).toEqual([
      '4 (gptoss): if (format === "gpt-oss") a();',
      "5 (qwen3): const s = `x $" + "{f(`Qwen3`)} y`;",
      "6 (gptoss): const r = /\\/\\/ deepseek/; const GptOssIds = 0;",
      "6 (deepseek): const r = /\\/\\/ deepseek/; const GptOssIds = 0;",
    ]);
  });

  it("every engine file is scanned (the list is not empty and covers each folder)", () => {
    for (const d of ENGINE_DIRS) expect(FILES.some((f) => f.startsWith(d))).toBe(true);
    expect(FILES.some((f) => f.startsWith(NOT_ENGINE[0] as string))).toBe(false);
  });

  it.each(FILES.filter((f) => !ALLOWED.has(f) && !BUILT_IN_MODEL.has(f)).map((f) => [f]))("%s", (file) => {
    expect(codeHits(readFileSync(join(root, file), "utf8"), NAMES)).toEqual([]);
  });

  it.each([...ALLOWED.keys()].map((f) => [f]))("allowed for now: %s (still names a family)", (file) => {
    // An allowed file that no longer names a family is taken off the list.
    expect(codeHits(readFileSync(join(root, file), "utf8"), NAMES).length).toBeGreaterThan(0);
  });
});
