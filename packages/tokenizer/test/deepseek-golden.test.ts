// DeepSeek V3 / R1 encoding against the reference goldens (test-vectors/golden/families/, from
// Python jinja2 rendering the vendor templates + HF Rust tokenizers; nothing from us): IDs and
// rendered text equal per conversation; the derived R1 vocabulary (<think>/</think> tokens)
// gives the same IDs, because caller text never becomes a reserved token.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { encoder, FAMILIES, golden, repoRoot } from "./deepseek-support.ts";
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
