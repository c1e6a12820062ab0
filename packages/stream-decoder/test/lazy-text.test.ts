// SentencePiece decode tables make each ID's text on demand (DecodeTable.lazyText): a spec of
// such a table reads the lazy arrays, classOf fills an ID at its first classification, and a
// decoder over it emits exactly the events of a decoder over the same table with every text
// made up front (a copy without lazyText, whose whole arrays come from a second instance).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { DecodeTable, TextModel } from "@chatwire/tokenizer";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import {
  loadSentencePieceModel,
  PieceType,
  type SentencePieceModel,
} from "../../tokenizer/src/models/sentencepiece/index.ts";
import { repoRoot, run, spanSpec } from "./models.ts";

const FILES = [
  { name: "tiny-ilm", path: () => resolve(repoRoot, "test-vectors/models/tiny-ilm.model"), ok: true },
  { name: "tiny-glm", path: () => resolve(repoRoot, "test-vectors/models/tiny-glm.model"), ok: true },
  { name: "internlm2", path: () => fixturePath("internlm2/tokenizer.model"), ok: haveFixtures() },
  { name: "chatglm3", path: () => fixturePath("chatglm3/tokenizer.model"), ok: haveFixtures() },
];

const TEXTS = [
  "Hello world,\nhello again 123 (x)\n\n",
  " leading space, ünïcode 漢字 and 🎉 emoji\n",
  "\u2581marks\u2581 \ttabs\r\n  two spaces",
];

/** The model with a decode table whose texts are all made (no lazyText). */
function eagerCopy(model: TextModel): TextModel {
  const t = model.decodeTable;
  const table: DecodeTable = {
    size: t.size,
    kind: t.kind,
    text: [...t.text],
    textAtStart: [...t.textAtStart],
    bytes: t.bytes,
    invalidUtf8: t.invalidUtf8,
    startEnds: t.startEnds,
  };
  return { ...model, decodeTable: table };
}

describe.each(FILES.filter((f) => f.ok))("lazy decode texts: $name", ({ path }) => {
  const load = (): SentencePieceModel =>
    loadSentencePieceModel(new Uint8Array(readFileSync(path())), { file: "m" });

  it("a spec reads the lazy arrays, filled only for the IDs a decode classified", () => {
    const model = load();
    const lazy = model.decodeTable.lazyText;
    expect(lazy).toBeDefined();
    const spec = spanSpec(model);
    expect(spec.text).toBe(lazy?.text);
    const filledIds = (): number[] => (lazy?.text ?? []).flatMap((s, id) => (s === undefined ? [] : [id]));
    const filled = (): number => filledIds().length;
    // Before any decode only the UNKNOWN piece's text exists (the table's kind needed it).
    expect(filledIds().map((id) => model.pieceType(id))).toEqual([PieceType.Unknown]);
    const ids = TEXTS.flatMap((t) => model.encode(t));
    run(spec, ids);
    expect(filled()).toBeGreaterThan(0);
    expect(filled()).toBeLessThanOrEqual(new Set(ids).size + 1);
    // Every filled entry is the whole table's (made by another instance of the same file).
    const whole = load().decodeTable;
    (lazy?.text ?? []).forEach((s, id) => {
      if (s !== undefined) expect(s).toBe(whole.text[id]);
      const s0 = lazy?.textAtStart[id];
      if (s0 !== undefined) expect(s0).toBe(whole.textAtStart[id]);
    });
    for (const id of ids) expect(lazy?.textAtStart[id]).toBe(whole.textAtStart[id]);
  });

  it("decoding over the lazy table gives the events of the same table made up front", () => {
    const model = load();
    const eager = eagerCopy(load());
    expect(eager.decodeTable.lazyText).toBeUndefined();
    for (const text of TEXTS) {
      const ids = model.encode(text);
      // Each text alone (the start-of-text rule) and after the others (mid-text).
      const lazySpec = spanSpec(model);
      const eagerSpec = spanSpec(eager);
      expect(run(lazySpec, ids)).toEqual(run(eagerSpec, ids));
      const all = TEXTS.flatMap((t) => model.encode(t));
      expect(run(lazySpec, all)).toEqual(run(eagerSpec, all));
    }
  });
});
