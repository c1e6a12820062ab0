// Golden vectors produced by the HF Rust `tokenizers` package (test-vectors/gen): encode() must
// equal the reference with added tokens removed (neutralized_ids), decode must equal the reference.

import { describe, expect, it } from "vitest";
import { loadByteLevelModel } from "../src/models/bytelevel/index.ts";
import { idDiff, QWEN3_FILE, QWEN3_JSON, qwen3, textDiff } from "./bytelevel-support.ts";
import { type DecodeVector, readGolden, type TextVector } from "./golden-vectors.ts";

const text = readGolden<{ reserved_ids: number[]; vectors: TextVector[] }>("qwen3.text.json");
const decode = readGolden<{ vectors: DecodeVector[] }>("qwen3.decode.json");

describe("Qwen3 golden text vectors", () => {
  it("has vectors", () => {
    expect(text.vectors.length).toBeGreaterThan(50);
  });
  it.each(text.vectors.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    const model = qwen3();
    const got = model.encode(v.text);
    expect(got, idDiff(model, v.neutralized_ids, got)).toEqual(v.neutralized_ids);
    const reserved = new Set(text.reserved_ids);
    const plain = v.ids.filter((id) => !reserved.has(id));
    if (plain.length === v.ids.length) {
      const decoded = model.decode(v.ids);
      expect(decoded, textDiff(v.decoded, decoded)).toBe(v.decoded);
    }
    const round = model.decode(got);
    expect(round, textDiff(v.text.normalize("NFC"), round)).toBe(v.text.normalize("NFC"));
  });
});

describe("Qwen3 golden decode vectors", () => {
  // Unblocked, added tokens decode to their content exactly as the reference does.
  const unblocked = loadByteLevelModel(QWEN3_JSON, { file: QWEN3_FILE });
  it.each(decode.vectors.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    const got = unblocked.decode(v.ids);
    expect(got, textDiff(v.decoded, got)).toBe(v.decoded);
    const blocked = qwen3();
    if (!v.ids.some((id) => blocked.blocked.has(id))) expect(blocked.decode(v.ids)).toBe(v.decoded);
  });
});
