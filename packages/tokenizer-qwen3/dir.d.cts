/** The directory holding the Qwen3 tokenizer files (tokenizer.json, tokenizer_config.json). */
declare const dir: string;
export = dir;
