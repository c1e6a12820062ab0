// @chatwire/tokenizer-qwen3 (Node only): where the Qwen3 tokenizer files are, and the files
// themselves for fromFiles(). In a browser, serve the two files and use fromUrl() instead.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import dir from "./dir.cjs";

/** The files of the Qwen3 tokenizer, as @chatwire/tokenizer's fromFiles() expects them. */
export const QWEN3_FILE_NAMES = Object.freeze(["tokenizer.json", "tokenizer_config.json"]);

/** The directory holding the files (for fromDirectory()). */
export function qwen3Dir() {
  return dir;
}

/** The files' bytes keyed by name (for fromFiles()). */
export function qwen3Files() {
  const files = {};
  for (const name of QWEN3_FILE_NAMES) files[name] = new Uint8Array(readFileSync(join(dir, name)));
  return files;
}
