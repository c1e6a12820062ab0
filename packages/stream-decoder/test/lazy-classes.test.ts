// The spec's class table is filled lazily (spec.ts classOf): a compile classifies only the
// reserved, marker and EOS IDs; every other text-model ID reads Cls.Unseen until its first
// sight, and is then classified exactly as the former eager pass did. The reference below is
// that eager rule, RE-IMPLEMENTED here from the decode table (our own rule, not a vendor's).
import { type DecodeTable, type TextModel, TokenKind } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import { compileDecoderSpecFor, createDecoder, eventCollector } from "../src/index.ts";
import { Cls, classOf, type DecoderSpec } from "../src/spec.ts";
import { familyOn, MODELS, run, spanSpec, tokenizer } from "./models.ts";

/** The eager rule (re-implementation of the pre-lazy compile pass). */
function eagerClass(table: DecodeTable, id: number): number {
  const k = table.kind[id];
  if (k === TokenKind.Bytes) return Cls.Bytes;
  if (k !== TokenKind.Text) return Cls.Control;
  const t = table.text[id] ?? "";
  const t0 = table.textAtStart[id] ?? "";
  if (t === "" && t0 === "") return Cls.Control;
  return t.endsWith("\n") || t0.endsWith("\n") ? Cls.TextNl : Cls.Text;
}

function unseenCount(spec: DecoderSpec): number {
  let n = 0;
  for (const c of spec.classes) if (c === Cls.Unseen) n++;
  return n;
}

describe.each(MODELS.filter((m) => m.available))("lazy classes: $name", ({ model }) => {
  const m = (): TextModel => model();

  it("a compile classifies no ordinary text ID; classOf then equals the eager rule for every ID", () => {
    const spec = spanSpec(m());
    const table = m().decodeTable;
    // Only the Qwen3 marker IDs (above these vocabularies, or reserved in Qwen3) are classified.
    expect(unseenCount(spec)).toBeGreaterThan(table.size - 300);
    const wrong: number[] = [];
    for (let id = 0; id < table.size; id++) {
      const c = spec.classes[id] as number;
      const want = c === Cls.Unseen ? eagerClass(table, id) : c;
      if (classOf(spec, id) !== want || spec.classes[id] !== want) wrong.push(id);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(unseenCount(spec)).toBe(0);
  });

  it("decoding classifies exactly the IDs it saw, and the same IDs decode alike before and after", () => {
    const spec = spanSpec(m());
    const before = unseenCount(spec);
    const ids = m().encode("Hello world,\nhello again 123 (x) — ünïcode 漢字");
    const first = run(spec, ids);
    const seen = new Set(ids.filter((id) => spec.classes[id] !== Cls.Unseen));
    expect(seen.size).toBe(new Set(ids).size);
    expect(before - unseenCount(spec)).toBeLessThanOrEqual(new Set(ids).size);
    // A fresh spec (every ID unseen) and the now classified one: the same events.
    expect(run(spanSpec(m()), ids)).toEqual(first);
    expect(run(spec, ids)).toEqual(first);
  });
});

describe("lazy classes: EOS and Harmony", () => {
  it("an EOS override on a not-yet-seen text ID stops as EOS (EosPlain), not as text", () => {
    const tok = tokenizer("qwen3");
    const [hello] = tok.textModel.encode("Hello");
    const spec = compileDecoderSpecFor(tok, { eosIds: [hello as number] });
    expect(spec.classes[hello as number]).toBe(Cls.EosPlain);
    const c = eventCollector();
    const d = createDecoder(spec, c);
    d.push(hello as number);
    expect(c.events.at(-1)).toEqual({ type: "stop", reason: "eos", token: hello });
    expect(c.events.some((e) => e.type === "text")).toBe(false);
  });

  it("a Harmony spec is classified lazily too (the one engine reads every class through classOf)", () => {
    const spec = familyOn(tokenizer("qwen3").textModel, "gpt-oss").spec;
    const table = tokenizer("qwen3").textModel.decodeTable;
    expect(unseenCount(spec)).toBeGreaterThan(table.size - 300);
    const ids = [0, 1, 198, 271, 1000, 50000, 151000];
    run(spec, ids);
    for (const id of ids) expect(spec.classes[id]).toBe(eagerClass(table, id));
  });
});
