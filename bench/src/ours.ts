// How the bench reaches our packages (only through their public exports). Everything that
// depends on an API another helper is still writing lives here, so a missing export turns
// into a clear "not available" note instead of a crash.
import { fixturePath } from "../../test-support/fixtures.ts";
import type { ModelName } from "./fixtures.ts";

export type Tok = Awaited<ReturnType<typeof import("@chatwire/tokenizer/node").loadTokenizer>>;

/**
 * Loads our tokenizer the way a user does (`loadTokenizer`, table cache on: the bench driver
 * points CHATWIRE_CACHE_DIR at bench/out/table-cache). `tables: false` loads without any table
 * file (cacheDir: false), i.e. everything is derived from the tokenizer file.
 */
export async function loadOurs(model: ModelName, tables = true, cacheDir?: string): Promise<Tok> {
  const { loadTokenizer } = await import("@chatwire/tokenizer/node");
  const cache = !tables ? { cacheDir: false as const } : cacheDir === undefined ? {} : { cacheDir };
  return model === "qwen3"
    ? loadTokenizer("qwen3", cache)
    : loadTokenizer(fixturePath(model), { format: model, ...cache });
}

/** A conversation in the format's native schema whose message contents are the given docs. */
export function chatRequest(docs: readonly string[]): {
  messages: { role: "user" | "assistant"; content: string }[];
  add_generation_prompt: boolean;
} {
  return {
    messages: docs.map((content, i) => ({
      role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content,
    })),
    add_generation_prompt: true,
  };
}
