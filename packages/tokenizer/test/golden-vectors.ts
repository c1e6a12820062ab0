// The golden vector files of test-vectors/ (written by the reference tools in test-vectors/gen,
// never from chatwire's output): where they are, their reader, and the shapes of the text and
// decode vectors.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** test-vectors/ (models/, golden/). */
export const VECTORS = resolve(import.meta.dirname, "../../../test-vectors");

export interface TextVector {
  name: string;
  text: string;
  ids: number[];
  decoded: string;
  neutralized_ids: number[];
}
export interface DecodeVector {
  name: string;
  ids: number[];
  decoded: string;
}

/** A file of test-vectors/golden/ (`name` relative to it), parsed. */
export function readGolden<T>(name: string): T {
  return JSON.parse(readFileSync(resolve(VECTORS, "golden", name), "utf8")) as T;
}
