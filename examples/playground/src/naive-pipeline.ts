// The pipeline chatwire replaces, as transformers.js runs it: render the chat_template of
// tokenizer_config.json to ONE string with @huggingface/jinja, then tokenize that string with
// @huggingface/tokenizers (add_special_tokens: false), whose added-token splitter matches
// "<|im_end|>" etc. literally wherever they appear — in caller text too. Nothing here comes
// from chatwire; it only needs the tokenizer's own files.
import { Template } from "@huggingface/jinja";
import { Tokenizer } from "@huggingface/tokenizers";

export interface NaivePipeline {
  /** The IDs of tokenizer.json's added_tokens: what its splitter matches literally in any text. */
  readonly addedIds: ReadonlySet<number>;
  /** Rendered prompt text and its IDs; a render or encode failure is a value, not a throw. */
  encode(request: Readonly<Record<string, unknown>>): NaiveResult;
}

export type NaiveResult =
  | { readonly ok: true; readonly text: string; readonly ids: readonly number[] }
  | { readonly ok: false; readonly error: string };

/** Loads tokenizer.json + tokenizer_config.json from `baseUrl` (a directory URL ending in "/"). */
export async function loadNaivePipeline(baseUrl: string): Promise<NaivePipeline> {
  const [json, config] = await Promise.all(
    ["tokenizer.json", "tokenizer_config.json"].map(async (name) => {
      const res = await fetch(new URL(name, baseUrl));
      if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
      return (await res.json()) as Record<string, unknown>;
    }),
  );
  const cfg = config as Record<string, unknown>;
  if (typeof cfg.chat_template !== "string") throw new Error("tokenizer_config.json has no chat_template");
  const template = new Template(cfg.chat_template);
  const tokenizer = new Tokenizer(json as object, cfg);
  // transformers.js apply_chat_template: the config's special tokens, then the request's fields.
  const specials: Record<string, unknown> = {};
  for (const key of ["bos_token", "eos_token", "pad_token", "unk_token"]) {
    if (typeof cfg[key] === "string") specials[key] = cfg[key];
  }
  const added = Array.isArray(json?.added_tokens) ? (json.added_tokens as unknown[]) : [];
  const addedIds = new Set<number>();
  for (const t of added) {
    const id = (t as { id?: unknown } | null)?.id;
    if (typeof id === "number") addedIds.add(id);
  }
  return {
    addedIds,
    encode(request) {
      try {
        const text = template.render({ ...specials, add_generation_prompt: true, ...request });
        return { ok: true, text, ids: tokenizer.encode(text, { add_special_tokens: false }).ids };
      } catch (e) {
        return { ok: false, error: e instanceof Error ? e.message : String(e) };
      }
    },
  };
}
