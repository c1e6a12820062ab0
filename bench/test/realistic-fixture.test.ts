// The realistic replies and byte-split fixtures (realistic-fixture.ts) must be what they claim:
// at most `n` IDs and nearly `n`, deterministic, their text decoded back by an INDEPENDENT
// reference (@huggingface/tokenizers JS on the same tokenizer.json), byte-split tokens and a
// long call present, and, through our decoder, no error event, the calls parsed, eos at the end.
import { join } from "node:path";
import { compileDecoderSpecFor, createDecoder, eventCollector } from "@chatwire/stream-decoder";
import { describe, expect, it } from "vitest";
import { familyDir, loadFamily } from "../src/family-fixtures.ts";
import { qwen3TokenizerJson } from "../src/fixtures.ts";
import { loadOurs } from "../src/ours.ts";
import { buildRealisticFixture, REALISTIC_MODELS } from "../src/realistic-fixture.ts";
import { loadHfJs } from "../src/refs.ts";

const N = 2048;

for (const model of REALISTIC_MODELS) {
  describe(`${model} realistic reply`, () => {
    const hf = loadHfJs(model === "qwen3" ? qwen3TokenizerJson() : join(familyDir(model), "tokenizer.json"));
    it(`<= ${N} ids, deterministic, its text decodes back, byte-split tokens and a long call`, async () => {
      const fx = await buildRealisticFixture(model, "realistic", N);
      expect(fx.ids.length).toBeLessThanOrEqual(N);
      expect(fx.ids.length).toBeGreaterThanOrEqual(N - 8);
      expect((await buildRealisticFixture(model, "realistic", N)).ids).toEqual(fx.ids);
      const decoded = hf.decode(fx.ids, { skip_special_tokens: true });
      const [reasoning, answer, args] = fx.parts.map((p) => p.text) as [string, string, string];
      expect(decoded).toContain(reasoning);
      expect(decoded).toContain(answer.slice(0, 200));
      // The call's arguments as JSON text (the template's own spacing around them).
      const content = JSON.stringify((JSON.parse(args) as { content: string }).content);
      if (model !== "llama31") expect(decoded).toContain(content.slice(1, 200));
      const single = fx.ids.filter((id) => hf.decode([id], { skip_special_tokens: true }).includes("\uFFFD"));
      expect(single.length).toBeGreaterThan(20);
    });
    it("our decoder: no error event, the calls parsed, ends with eos; the byte-split fixture too", async () => {
      const tok = model === "qwen3" ? await loadOurs("qwen3") : await loadFamily(model);
      const spec = compileDecoderSpecFor(tok);
      for (const kind of ["realistic", "bytesplit"] as const) {
        const fx = await buildRealisticFixture(model, kind, N);
        const sink = eventCollector();
        const d = createDecoder(spec, sink);
        d.pushMany(fx.ids);
        d.end();
        const ends = sink.events.filter((e) => e.type === "action_end");
        expect(ends.length).toBe(kind === "bytesplit" || model === "llama31" ? 0 : model === "qwen3" ? 1 : 2);
        for (const e of ends) expect(e).toHaveProperty("call");
        expect(sink.events.filter((e) => e.type === "error")).toEqual([]);
        expect(sink.events.at(-1)).toMatchObject({ type: "stop", reason: "eos" });
      }
    });
  });
}
