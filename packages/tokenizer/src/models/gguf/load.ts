// Loading a tokenizer from a GGUF file's bytes (any runtime): the metadata is read
// (./reader.ts), turned into tokenizer files (./vocabulary.ts) and built by the one choice rule
// of ../../load/load.ts (a native family when its definition fits, else the file's chat template).
import { type AnyLoadOptions, type AnyTokenizer, buildAnyTokenizer } from "../../load/load.ts";
import { type GgufMetadata, readGgufMetadata } from "./reader.ts";
import { type GgufTokenizerFiles, ggufTokenizerFiles } from "./vocabulary.ts";

export interface GgufLoadOptions extends AnyLoadOptions {
  /** The name errors give the file (default "model.gguf"). */
  readonly file?: string;
}

export interface GgufLoad {
  readonly tokenizer: AnyTokenizer;
  /** What the file holds: vocabulary type, pre-tokenizer, tokens, special IDs. */
  readonly vocabulary: GgufTokenizerFiles;
  readonly metadata: GgufMetadata;
}

/** The tokenizer of a GGUF file's bytes (the whole file or its head holding the metadata). */
export function loadGguf(bytes: Uint8Array, options: GgufLoadOptions = {}): GgufLoad {
  return loadGgufMetadata(readGgufMetadata(bytes, options.file ?? "model.gguf"), options);
}

/** loadGguf from metadata already read (./reader.ts). */
export function loadGgufMetadata(metadata: GgufMetadata, options: GgufLoadOptions = {}): GgufLoad {
  const file = options.file ?? "model.gguf";
  const vocabulary = ggufTokenizerFiles(metadata, file);
  const { file: _f, ...rest } = options;
  // Errors about the derived files name the GGUF: "x.gguf (tokenizer.json)"; the derived config
  // is the file's own metadata, so errors about it name the GGUF alone.
  const label = (name: string) => (name === "tokenizer_config.json" ? file : `${file} (${name})`);
  const tokenizer = buildAnyTokenizer(vocabulary.files, rest, label);
  return { tokenizer, vocabulary, metadata };
}

/** loadGguf(bytes, options).tokenizer. */
export function fromGguf(bytes: Uint8Array, options: GgufLoadOptions = {}): AnyTokenizer {
  return loadGguf(bytes, options).tokenizer;
}
