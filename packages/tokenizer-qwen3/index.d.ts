/** The files of the Qwen3 tokenizer, as @chatwire/tokenizer's fromFiles() expects them. */
export declare const QWEN3_FILE_NAMES: readonly ["tokenizer.json", "tokenizer_config.json"];
/** The directory holding the files (for fromDirectory()). */
export declare function qwen3Dir(): string;
/** The files' bytes keyed by name (for fromFiles()). */
export declare function qwen3Files(): { readonly [name: string]: Uint8Array };
