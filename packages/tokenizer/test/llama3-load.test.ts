// Loading Llama 3.x files through the families: detection from the files (the 3.0 package with
// its own 389-char template -> llama3; the same vocabulary with the 3.2 template -> llama31;
// the DERIVED 3.1 files -> llama31), verified token IDs (the 3.1 names only where the
// vocabulary has them), every added token reserved, EOS from the definition plus
// generation_config.json, and --format forcing / refusing.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TokenizerError } from "../src/index.ts";
import { loadTokenizerSync } from "../src/node.ts";
import { derived31Dir, PKG_DIR, TEMPLATE_32 } from "./llama3-support.ts";

/** The 3.0 package files with the 3.2 template as chat_template.jinja (a temp dir). */
function with32Template(): string {
  const dir = mkdtempSync(join(tmpdir(), "chatwire-llama3-tpl32-"));
  copyFileSync(join(PKG_DIR, "tokenizer.json"), join(dir, "tokenizer.json"));
  copyFileSync(join(PKG_DIR, "tokenizer_config.json"), join(dir, "tokenizer_config.json"));
  writeFileSync(join(dir, "chat_template.jinja"), readFileSync(TEMPLATE_32, "utf8"));
  return dir;
}

describe("Llama 3.x loading", () => {
  it("the 3.0 package (its own template) is llama3: 256 reserved IDs, no 3.1 names", () => {
    const tok = loadTokenizerSync(PKG_DIR);
    expect(tok.format).toBe("llama3");
    expect(tok.family.name).toBe("llama3");
    expect(tok.registry.ids.size).toBe(256);
    expect(tok.tokenIds).toEqual({
      beginOfText: 128000,
      endOfText: 128001,
      startHeader: 128006,
      endHeader: 128007,
      eot: 128009,
    });
    expect([...tok.registry.eosIds].sort()).toEqual([128001, 128009]);
    expect(tok.registry.nameById.get(128010)).toBe("<|reserved_special_token_5|>");
  });

  it("the same vocabulary with the Llama 3.2 template is llama31", () => {
    const tok = loadTokenizerSync(with32Template());
    expect(tok.format).toBe("llama31");
    expect(tok.tokenIds.eom).toBeUndefined();
  });

  it("the vocabulary with a template that writes no Llama 3 headers is neither llama3 nor llama31", () => {
    const dir = mkdtempSync(join(tmpdir(), "chatwire-llama3-chatml-"));
    copyFileSync(join(PKG_DIR, "tokenizer.json"), join(dir, "tokenizer.json"));
    const cfg = JSON.parse(readFileSync(join(PKG_DIR, "tokenizer_config.json"), "utf8")) as Record<
      string,
      unknown
    >;
    cfg.chat_template =
      "{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}{% endfor %}";
    writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify(cfg));
    let type: string | undefined;
    try {
      loadTokenizerSync(dir);
    } catch (e) {
      if (TokenizerError.isInstance(e)) type = e.type;
    }
    expect(type).toBe("unknown-format");
    expect(loadTokenizerSync(dir, { format: "llama3" }).format).toBe("llama3");
  });

  it("the derived 3.1 files are llama31 with <|eom_id|>, <|python_tag|>, <|finetune_right_pad_id|>; EOS adds 128008", () => {
    const tok = loadTokenizerSync(derived31Dir());
    expect(tok.format).toBe("llama31");
    expect(tok.registry.ids.size).toBe(256);
    expect(tok.tokenIds).toMatchObject({ eom: 128008, pythonTag: 128010, finetuneRightPad: 128004 });
    expect([...tok.registry.eosIds].sort()).toEqual([128001, 128008, 128009]);
    expect(tok.registry.nameById.get(128255)).toBe("<|reserved_special_token_247|>");
    // caller text spelling a 3.1 name is ordinary text here
    const enc = tok.encodeChat({ messages: [{ role: "user", content: "<|python_tag|><|eom_id|>" }] });
    expect(enc.ids).not.toContain(128010);
    expect(enc.ids).not.toContain(128008);
    expect(enc.audit.map((a) => a.token)).toEqual(["<|python_tag|>", "<|eom_id|>"]);
  });

  it("--format forces a definition; an unknown name lists the known ones", () => {
    expect(loadTokenizerSync(PKG_DIR, { format: "llama31" }).format).toBe("llama31");
    expect(loadTokenizerSync(derived31Dir(), { format: "llama3" }).format).toBe("llama3");
    try {
      loadTokenizerSync(PKG_DIR, { format: "llama-3" });
      expect.unreachable();
    } catch (e) {
      expect(TokenizerError.isInstance(e) && e.type).toBe("unknown-format");
      expect(String(e)).toContain("llama3, llama31");
    }
  });
});
