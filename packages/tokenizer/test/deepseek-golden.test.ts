// DeepSeek V3 / R1 encoding against the reference goldens (test-vectors/golden/families/, from
// Python jinja2 rendering the vendor templates + HF Rust tokenizers; nothing from us): IDs and
// rendered text equal per conversation; the derived R1 vocabulary (<think>/</think> tokens)
// gives the same IDs, because caller text never becomes a reserved token.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fromFiles, TokenizerError } from "../src/index.ts";
import { encoder, FAMILIES, golden, packageModels, repoRoot, templatesDir } from "./deepseek-support.ts";
import { havePython } from "./template-support.ts";

for (const family of FAMILIES) {
  describe(`${family}: chat goldens`, () => {
    const g = golden(family);
    const enc = encoder(family);
    it("format auto detects the family from the files; its token IDs are verified", () => {
      expect(enc.tok.family.name).toBe(family);
      expect(enc.tok.format).toBe(family);
      expect(enc.ids).toMatchObject({ bos: 0, eos: 1, user: 128803, assistant: 128804, toolSep: 128814 });
      expect(enc.tok.registry.ids.size).toBe(818);
      expect(enc.tok.registry.eosIds).toEqual([1]);
      expect("think" in enc.ids).toBe(false);
    });
    it("the golden file is what the generator says", () => {
      expect(g.family).toBe(family);
      expect(g.chat.length).toBeGreaterThanOrEqual(18);
      expect(g.chat.every((v) => v.ids !== undefined)).toBe(true);
    });
    for (const v of g.chat) {
      it(v.name, () => {
        const e = enc.encodeChat(v.request);
        expect(enc.renderChat(v.request)).toBe(v.rendered);
        expect(e.ids).toEqual(v.ids);
        expect(e.audit).toEqual([]);
      });
    }
  });
}

describe("later DeepSeek templates on the same vocabulary are neither family", () => {
  // The tool-call lines of DeepSeek V3.1's template (ggml-org/llama.cpp
  // models/templates/deepseek-ai-DeepSeek-V3.1.jinja @ 0374c5b6e4c19370262d93e2c3f2a98c9af9fe1f):
  // "</think>" as R1's, but no ```json fence around the arguments, which V3's and R1's write.
  const v31 =
    "{%- for message in messages -%}{%- if message['role'] == 'user' -%}{{'<｜User｜>' + message['content']}}" +
    "{%- endif -%}{%- if message['role'] == 'assistant' -%}{{'<｜Assistant｜></think>'}}{%- for tool in message['tool_calls'] -%}" +
    "{{'<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>'+ tool['function']['name'] + '<｜tool▁sep｜>' + " +
    "tool['function']['arguments'] + '<｜tool▁call▁end｜>'}}{%- endfor -%}{%- endif -%}{%- endfor -%}";
  const files = (template: string | undefined): Record<string, string> => {
    const cfg = JSON.parse(readFileSync(join(packageModels, "tokenizer_config.json"), "utf8")) as Record<
      string,
      unknown
    >;
    if (template === undefined) delete cfg.chat_template;
    else cfg.chat_template = template;
    return {
      "tokenizer.json": readFileSync(join(packageModels, "tokenizer.json"), "utf8"),
      "tokenizer_config.json": JSON.stringify(cfg),
    };
  };
  it("a V3.1-shaped template: unknown-format (so --format auto renders the template itself)", () => {
    let type: string | undefined;
    try {
      fromFiles(files(v31));
    } catch (e) {
      if (TokenizerError.isInstance(e)) type = e.type;
    }
    expect(type).toBe("unknown-format");
    // Forcing the family still works (the caller says the renderer fits).
    expect(fromFiles(files(v31), { format: "deepseek-v3" }).format).toBe("deepseek-v3");
  });
  it("no template at all: deepseek-v3 by its tokens; the V3 and R1 templates: their families", () => {
    expect(fromFiles(files(undefined)).format).toBe("deepseek-v3");
    expect(fromFiles(files(readFileSync(join(templatesDir, "deepseek-v3.jinja"), "utf8"))).format).toBe(
      "deepseek-v3",
    );
    expect(fromFiles(files(readFileSync(join(templatesDir, "deepseek-r1.jinja"), "utf8"))).format).toBe(
      "deepseek-r1",
    );
  });
});

describe("deepseek-r1 on the DERIVED vocabulary (<think> 128798, </think> 128799)", () => {
  const g = golden("deepseek-r1");
  const enc = encoder("deepseek-r1", true);
  it("has the think tokens", () => {
    expect(enc.ids.think).toBe(128798);
    expect(enc.ids.thinkEnd).toBe(128799);
  });
  for (const v of g.chat) {
    it(`${v.name}: the same IDs as on the package vocabulary; no think ID from caller text`, () => {
      const e = enc.encodeChat(v.request);
      expect(e.ids).toEqual(v.ids);
      expect(e.ids.includes(128798) || e.ids.includes(128799)).toBe(false);
      // What the template kept of the content holds "<think>"/"</think>" only after tool results.
      const kept = (v.rendered ?? "").match(/<\/?think>/g) ?? [];
      expect(e.audit.map((a) => a.token)).toEqual(kept);
    });
  }
});

describe.skipIf(!havePython())("the goldens regenerate byte-identically from the reference tools", () => {
  it("node test-vectors/gen/family_deepseek.js OUT", () => {
    const out = mkdtempSync(join(tmpdir(), "chatwire-deepseek-gold-"));
    try {
      const r = spawnSync(process.execPath, [join(repoRoot, "test-vectors/gen/family_deepseek.js"), out], {
        encoding: "utf8",
      });
      expect(r.status, r.stderr).toBe(0);
      for (const f of FAMILIES) {
        const name = `${f}.json`;
        expect(readFileSync(join(out, name), "utf8")).toBe(
          readFileSync(join(repoRoot, "test-vectors/golden/families", name), "utf8"),
        );
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
