// Malformed input on the template path fails as on the native path, with a typed TokenizerError:
// a tokenizer.json whose added_tokens holds a non-object entry (bad-tokenizer-file, from every
// template loader), and a chat request that is not an object (invalid-conversation, from every
// entry that takes a request).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fromFiles } from "../src/index.ts";
import { loadTemplateTokenizerSync, loadTokenizerSync, qwen3Dir } from "../src/node.ts";
import type { ChatRequest } from "../src/request/request.ts";
import { templateFromFiles } from "../src/template/index.ts";
import { errorOf } from "./error-support.ts";
import { tempDirs } from "./table-cache-support.ts";

const dir = qwen3Dir();
const config = readFileSync(join(dir, "tokenizer_config.json"), "utf8");
const tokenizerJson = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8")) as {
  added_tokens: unknown[];
};
const newDir = tempDirs("chatwire-malformed-");

/** Qwen3's files with `entry` appended to tokenizer.json's added_tokens. */
function withEntry(entry: unknown): { "tokenizer.json": string; "tokenizer_config.json": string } {
  const json = { ...tokenizerJson, added_tokens: [...tokenizerJson.added_tokens, entry] };
  return { "tokenizer.json": JSON.stringify(json), "tokenizer_config.json": config };
}

describe("an added_tokens entry that is not a token", () => {
  const entries: [string, unknown][] = [
    ["null", null],
    ["a number", 5],
    ["a string", "<x>"],
    ["an array", [1, "x"]],
    ["an object without an id", { content: "<x>" }],
    ["an object with a string id", { id: "7", content: "<x>" }],
    ["an object without content", { id: 7 }],
  ];
  test.each(entries)(
    "%s: bad-tokenizer-file from every template loader, as from the native one",
    (_, entry) => {
      const files = withEntry(entry);
      expect(errorOf(() => fromFiles(files)).type).toBe("bad-tokenizer-file");
      expect(errorOf(() => fromFiles(files, { format: "template" })).type).toBe("bad-tokenizer-file");
      expect(errorOf(() => templateFromFiles(files)).type).toBe("bad-tokenizer-file");
      const d = newDir();
      for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
      expect(errorOf(() => loadTemplateTokenizerSync(d, { cacheDir: false })).type).toBe(
        "bad-tokenizer-file",
      );
      expect(errorOf(() => loadTokenizerSync(d, { format: "template", cacheDir: false })).type).toBe(
        "bad-tokenizer-file",
      );
    },
  );
});

describe("a request that is not an object", () => {
  const native = fromFiles({
    "tokenizer.json": readFileSync(join(dir, "tokenizer.json")),
    "tokenizer_config.json": config,
  });
  const tok = loadTemplateTokenizerSync(dir);
  // A named template list: the tool_use entry is chosen by the request's tools.
  const named = {
    ...(JSON.parse(config) as object),
    chat_template: [
      { name: "default", template: "{{ messages }}" },
      { name: "tool_use", template: "{{ tools }}" },
    ],
  };
  const toolUse = templateFromFiles({
    "tokenizer.json": readFileSync(join(dir, "tokenizer.json")),
    "tokenizer_config.json": JSON.stringify(named),
  });
  const requests: [string, unknown][] = [
    ["null", null],
    ["undefined", undefined],
    ["a number", 5],
    ["a string", "hi"],
  ];
  test.each(requests)(
    "%s: invalid-conversation from encodeChat, renderChat and renderProvenance",
    (_, request) => {
      const r = request as ChatRequest;
      const expected = errorOf(() => native.encodeChat(r));
      expect({ type: expected.type, message: expected.message }).toEqual({
        type: "invalid-conversation",
        message: expect.stringContaining("the request must be an object"),
      });
      for (const t of [tok, toolUse])
        for (const call of [() => t.encodeChat(r), () => t.renderChat(r), () => t.renderProvenance(r)]) {
          const e = errorOf(call);
          expect({ type: e.type, message: e.message }).toEqual({
            type: expected.type,
            message: expected.message,
          });
        }
    },
  );
});
