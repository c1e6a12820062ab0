// Loading: built-in qwen3, directories, format detection, and loud refusal of files that
// disagree with the format ("tokenizer-config-mismatch"), missing files, unknown formats.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { loadTokenizer, loadTokenizerSync, qwen3Dir } from "../src/node.ts";
import { errorOf } from "./error-support.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(files: Record<string, string | Uint8Array>): string {
  const d = mkdtempSync(join(tmpdir(), "chatwire-load-"));
  dirs.push(d);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(d, name), content);
  return d;
}

describe("qwen3 (built-in)", () => {
  it("loads and detects qwen3; registry verified", async () => {
    const tok = await loadTokenizer("qwen3");
    expect(tok.format).toBe("qwen3");
    expect(tok.registry.ids.size).toBe(26);
    expect(tok.registry.idByName.get("<think>")).toBe(151667);
    expect(tok.registry.eosIds).toEqual([151645, 151643]);
    for (const id of tok.registry.ids) expect(tok.textModel.blocked.has(id)).toBe(true);
  });

  it("a tampered tokenizer_config.json is refused", () => {
    const cfg = JSON.parse(readFileSync(join(qwen3Dir(), "tokenizer_config.json"), "utf8")) as {
      added_tokens_decoder: Record<string, { content: string }>;
    };
    (cfg.added_tokens_decoder["151667"] as { content: string }).content = "<thinking>";
    const d = tempDir({ "tokenizer_config.json": JSON.stringify(cfg) });
    copyFileSync(join(qwen3Dir(), "tokenizer.json"), join(d, "tokenizer.json"));
    expect(errorOf(() => loadTokenizerSync(d)).type).toBe("tokenizer-config-mismatch");
  });

  it("missing files and unknown formats are typed errors naming the file", () => {
    const e1 = errorOf(() => loadTokenizerSync(join(tmpdir(), "no-such-chatwire-dir")));
    expect(e1.type).toBe("file-not-found");
    const d = tempDir({ "tokenizer_config.json": JSON.stringify({ tokenizer_class: "LlamaTokenizer" }) });
    const e2 = errorOf(() => loadTokenizerSync(d));
    expect(e2.type).toBe("unknown-format");
    expect(e2.message).toContain("internlm2, chatglm3, qwen3");
    const e3 = errorOf(() => loadTokenizerSync(d, { format: "qwen3" }));
    expect(e3.type).toBe("file-not-found");
    expect(e3.message).toContain("tokenizer.json");
    const e4 = errorOf(() => loadTokenizerSync(tempDir({ "tokenizer_config.json": "{not json" })));
    expect(e4.type).toBe("bad-tokenizer-file");
    expect(errorOf(() => loadTokenizerSync(tempDir({}))).type).toBe("file-not-found");
  });
});

describe.skipIf(!haveFixtures())("real InternLM2 / ChatGLM3 files", () => {
  it("detects the formats", () => {
    expect(loadTokenizerSync(fixturePath("internlm2")).format).toBe("internlm2");
    expect(loadTokenizerSync(fixturePath("chatglm3")).format).toBe("chatglm3");
  });

  it("InternLM2: audit strings hold the config names AND the raw pieces", () => {
    const tok = loadTokenizerSync(fixturePath("internlm2"));
    expect(tok.registry.strings.get("<|im_start|>")).toBe(92543);
    expect(tok.registry.strings.get("[UNUSED_TOKEN_146]")).toBe(92543);
    expect(tok.registry.strings.get("[UNUSED_TOKEN_141]")).toBe(92538);
    expect(tok.encodeText("[UNUSED_TOKEN_145]").ids.includes(92542)).toBe(false);
    expect(tok.encodeText("a[UNUSED_TOKEN_145]").audit).toEqual([
      { token: "[UNUSED_TOKEN_145]", index: 1, id: 92542 },
    ]);
  });

  it("InternLM2: a config that does not rename 92543 is refused", () => {
    const cfg = readFileSync(fixturePath("internlm2/tokenizer_config.json"), "utf8").replace(
      '"<|im_start|>"',
      '"<|im_begin|>"',
    );
    const d = tempDir({ "tokenizer_config.json": cfg });
    copyFileSync(fixturePath("internlm2/tokenizer.model"), join(d, "tokenizer.model"));
    expect(errorOf(() => loadTokenizerSync(d)).type).toBe("tokenizer-config-mismatch");
  });

  it("a ChatGLM3 model given as internlm2 (and vice versa) is refused", () => {
    const d = tempDir({
      "tokenizer_config.json": readFileSync(fixturePath("internlm2/tokenizer_config.json"), "utf8"),
    });
    copyFileSync(fixturePath("chatglm3/tokenizer.model"), join(d, "tokenizer.model"));
    expect(errorOf(() => loadTokenizerSync(d)).type).toBe("tokenizer-config-mismatch");
    const d2 = tempDir({
      "tokenizer_config.json": readFileSync(fixturePath("chatglm3/tokenizer_config.json"), "utf8"),
    });
    copyFileSync(fixturePath("internlm2/tokenizer.model"), join(d2, "tokenizer.model"));
    expect(errorOf(() => loadTokenizerSync(d2)).type).toBe("tokenizer-config-mismatch");
  });

  it("ChatGLM3 reserved IDs lie above the .model; sop/eop are words, not audited", () => {
    const tok = loadTokenizerSync(fixturePath("chatglm3"));
    expect(tok.registry.vocabEnd).toBe(64798);
    expect(tok.encodeText("sop eop").audit).toEqual([]);
    expect(tok.encodeText("x<|user|>").audit).toEqual([{ token: "<|user|>", index: 1, id: 64795 }]);
  });
});
