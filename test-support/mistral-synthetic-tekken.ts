// The small tekken files of mistral-common's own v7/v11/v13 tests (tests/test_tekken.py
// quick_vocab + get_special_tokens): test-vectors/models/tiny-tekken-*.json, written by
// test-vectors/gen/tiny_tekken.py. The 256 byte tokens, pattern ".+", 100 special tokens: the
// deprecated list, then (v11+) fillers, [ARGS] = 32, [CALL_ID] = 33 and, with `think`,
// [THINK] = 35, [/THINK] = 36. So a byte b of text is ID b + 100, as its expected IDs say.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const models = resolve(dirname(fileURLToPath(import.meta.url)), "../test-vectors/models");

export function syntheticTekken(version: "v7" | "v11" | "v13", think = false): Uint8Array {
  const name = version === "v13" && think ? "v13-think" : version;
  return new Uint8Array(readFileSync(resolve(models, `tiny-tekken-${name}.json`)));
}
