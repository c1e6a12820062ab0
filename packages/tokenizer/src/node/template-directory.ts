// The "template" format from a model directory (Node only): reads tokenizer_config.json,
// tokenizer.json (else tokenizer.model), chat_template.jinja and generation_config.json when present, then builds with the runtime-neutral ../template/from-files.ts; errors name the file's path.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TokenizerError } from "../errors.ts";
import {
  buildTemplateTokenizer,
  GENERATION_CONFIG_FILE,
  TEMPLATE_FILE,
  type TemplateLoadOptions,
} from "../template/from-files.ts";
import type { TemplateTokenizer } from "../template/tokenizer.ts";

const NAMES = ["tokenizer_config.json", "tokenizer.json", TEMPLATE_FILE, GENERATION_CONFIG_FILE];

export function loadTemplateTokenizerSync(dir: string, options: TemplateLoadOptions = {}): TemplateTokenizer {
  const files: Record<string, Uint8Array> = {};
  for (const name of NAMES) {
    const path = join(dir, name);
    try {
      files[name] = readFileSync(path);
    } catch (e) {
      const code = typeof e === "object" && e !== null && "code" in e ? e.code : undefined;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      throw new TokenizerError("bad-tokenizer-file", `${path} cannot be read`, { file: path });
    }
  }
  // tokenizer.model only when there is no tokenizer.json (the SentencePiece path of ../template/from-files.ts).
  const spm = join(dir, "tokenizer.model");
  if (files["tokenizer.json"] === undefined && existsSync(spm)) {
    try {
      files["tokenizer.model"] = readFileSync(spm);
    } catch {
      throw new TokenizerError("bad-tokenizer-file", `${spm} cannot be read`, { file: spm });
    }
  }
  return buildTemplateTokenizer(files, options, (name) => join(dir, name));
}
