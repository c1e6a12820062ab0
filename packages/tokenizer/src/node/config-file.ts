// tokenizer_config.json read from disk (Node only; parsing is ../load/config.ts, runtime-neutral).
import { readFileSync } from "node:fs";
import { TokenizerError } from "../errors.ts";
import { parseTokenizerConfig, type TokenizerConfig } from "../load/config.ts";

export function readTokenizerConfig(path: string): TokenizerConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = typeof e === "object" && e !== null && "code" in e ? e.code : undefined;
    if (code === "ENOENT")
      throw new TokenizerError("file-not-found", `${path} does not exist`, { file: path });
    throw new TokenizerError("bad-tokenizer-file", `${path} cannot be read`, { file: path });
  }
  return parseTokenizerConfig(text, path);
}
