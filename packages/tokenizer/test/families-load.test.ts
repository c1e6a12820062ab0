// Loading driven by the family definitions (families/): IDs resolved and verified from the
// files, the registry keeping every added token (InternVL2's <img>), EOS IDs from
// generation_config.json / config.json, detection by priority and template, the text model
// chosen from the files present, format "template" through the same loaders.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import {
  detectFamily,
  FAMILY_NAMES,
  type FamilyDefinition,
  familyByName,
  fromFiles,
  parseTokenizerConfig,
} from "../src/index.ts";
import { loadTokenizerSync, qwen3Dir } from "../src/node.ts";
import { errorOf } from "./error-support.ts";

const qwen = {
  "tokenizer.json": new Uint8Array(readFileSync(join(qwen3Dir(), "tokenizer.json"))),
  "tokenizer_config.json": readFileSync(join(qwen3Dir(), "tokenizer_config.json"), "utf8"),
};

describe("definitions drive the loader", () => {
  const tok = fromFiles(qwen);

  it("tok.family and tok.tokenIds: the verified IDs by key (equal to the vendor table)", () => {
    expect(tok.family.name).toBe("qwen3");
    expect(tok.format).toBe("qwen3");
    // The IDs of these tokens in Qwen3's tokenizer.json added_tokens.
    expect(tok.tokenIds).toEqual({
      endOfText: 151643,
      imStart: 151644,
      imEnd: 151645,
      toolCall: 151657,
      toolCallEnd: 151658,
      toolResponse: 151665,
      toolResponseEnd: 151666,
      think: 151667,
      thinkEnd: 151668,
    });
    expect(Object.isFrozen(tok.tokenIds)).toBe(true);
  });

  it("generation_config.json and config.json eos_token_id are added after the family's EOS", () => {
    const t = fromFiles({
      ...qwen,
      "generation_config.json": JSON.stringify({ eos_token_id: [151645, 151662] }),
      "config.json": JSON.stringify({ eos_token_id: 151644 }),
    });
    expect(t.registry.eosIds).toEqual([151645, 151643, 151662, 151644]);
    expect(tok.registry.eosIds).toEqual([151645, 151643]);
    const e = errorOf(() => fromFiles({ ...qwen, "generation_config.json": '{"eos_token_id": "x"}' }));
    expect([e.type, e.fields.file, e.fields.field]).toEqual([
      "bad-tokenizer-file",
      "generation_config.json",
      "eos_token_id",
    ]);
  });

  it("a Qwen template without enable_thinking (QwQ, Qwen3-*-2507) is not the qwen3 renderer's format", () => {
    const cfg = JSON.parse(qwen["tokenizer_config.json"]) as Record<string, unknown>;
    expect(String(cfg.chat_template)).toContain("enable_thinking");
    // QwQ's / Qwen3-2507-Thinking's generation prompt opens <think> (excerpt, not the whole template).
    cfg.chat_template =
      "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}" +
      "{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n<think>\\n' }}{%- endif %}";
    const variant = { ...qwen, "tokenizer_config.json": JSON.stringify(cfg) };
    expect(errorOf(() => fromFiles(variant)).type).toBe("unknown-format");
    expect(fromFiles(variant, { format: "qwen3" }).format).toBe("qwen3");
    delete cfg.chat_template;
    expect(fromFiles({ ...qwen, "tokenizer_config.json": JSON.stringify(cfg) }).format).toBe("qwen3");
  });

  it("unknown format names every known family; auto detects", () => {
    const e = errorOf(() => fromFiles(qwen, { format: "no-such-family" }));
    expect(e.type).toBe("unknown-format");
    for (const n of FAMILY_NAMES) expect(e.message).toContain(n);
    expect(e.fields.formats).toEqual([...FAMILY_NAMES]);
    expect(fromFiles(qwen, { format: "auto" }).format).toBe("qwen3");
    expect(errorOf(() => familyByName("x")).type).toBe("unknown-format");
  });

  it("the text model comes from the files present: a stray tokenizer.model does not change it", () => {
    const t = fromFiles({ ...qwen, "tokenizer.model": new Uint8Array([1, 2, 3]) });
    expect(t.textModel.family).toBe("byte-level-bpe");
    // forcing a SentencePiece family on byte-level files is a mismatch, not a missing .model
    expect(errorOf(() => fromFiles(qwen, { format: "internlm2" })).type).toBe("tokenizer-config-mismatch");
  });

  it('format "template" goes to the template loader (fromFiles and loadTokenizerSync)', () => {
    const t = fromFiles(qwen, { format: "template" });
    expect(t.format).toBe("template");
    expect(loadTokenizerSync("qwen3", { format: "template" }).format).toBe("template");
    const req = { messages: [{ role: "user" as const, content: "hi" }], add_generation_prompt: true };
    expect(t.encodeChat(req).ids).toEqual(tok.encodeChat(req).ids);
  });

  it("a config that contradicts tokenizer.json on an ID is refused", () => {
    const cfg = JSON.parse(qwen["tokenizer_config.json"]) as {
      added_tokens_decoder: Record<string, { content: string }>;
    };
    (cfg.added_tokens_decoder["151657"] as { content: string }).content = "<call>";
    const e = errorOf(() => fromFiles({ ...qwen, "tokenizer_config.json": JSON.stringify(cfg) }));
    expect(e.type).toBe("tokenizer-config-mismatch");
  });
});

describe("detection is data: priority, then list order; the template may decide", () => {
  const config = parseTokenizerConfig(qwen["tokenizer_config.json"], "tokenizer_config.json");
  const qwen3 = familyByName("qwen3");
  const coderLike: FamilyDefinition = {
    ...qwen3,
    name: "test-coder",
    detect: {
      tokenizerClass: qwen3.detect.tokenizerClass ?? [],
      addedTokens: qwen3.detect.addedTokens ?? [],
      templateIncludes: ["<function="],
      priority: 1,
    },
  };
  const input = (templates: string[]) => ({ config, addedTokens: config.addedTokens, templates });

  it("the higher priority wins only when its template condition holds", () => {
    const families = [qwen3, coderLike];
    expect(detectFamily(input(["<tool_call>\n<function=x>"]), families).name).toBe("test-coder");
    expect(detectFamily(input(["<tool_call>{json} enable_thinking"]), families).name).toBe("qwen3");
    expect(detectFamily(input([]), families).name).toBe("qwen3");
  });

  it("nothing matches: unknown-format listing the candidates", () => {
    const e = errorOf(() => detectFamily(input([]), [coderLike]));
    expect([e.type, e.fields.formats]).toEqual(["unknown-format", ["test-coder"]]);
  });
});

describe.skipIf(!haveFixtures())("InternVL2 (internvl2-2b-ft config over the InternLM2 model)", () => {
  const tok = fromFiles({
    "tokenizer_config.json": readFileSync(
      fixturePath("internlm2/internvl2-2b-ft/tokenizer_config.json"),
      "utf8",
    ),
    "tokenizer.model": new Uint8Array(readFileSync(fixturePath("internlm2/tokenizer.model"))),
  });

  it("detected as internlm2; <img> = 92544 is a reserved ID of the registry, never produced from text", () => {
    expect(tok.format).toBe("internlm2");
    expect(tok.registry.ids.has(92544)).toBe(true);
    expect(tok.registry.idByName.get("<img>")).toBe(92544);
    expect(tok.registry.nameById.get(92552)).toBe("</box>");
    expect(tok.registry.vocabEnd).toBe(92553);
    const enc = tok.encodeText("see <img> here");
    expect(enc.ids.includes(92544)).toBe(false);
    expect(enc.audit).toEqual([{ token: "<img>", index: 4, id: 92544 }]);
    expect(tok.decode([92544], { specialTokens: "show" })).toBe("<img>");
  });
});
