// The format name and the verified reserved registry of a loaded tokenizer (built by the loader
// from the family's definition and the files; ./registry.ts verifies it).

/**
 * A family name (families/index.ts lists the known ones; the loader refuses any other with
 * TokenizerError "unknown-format"). A string: families are data, not a closed union.
 */
export type FormatName = string;

/**
 * A verified, immutable registry for one loaded tokenizer + format. Built once by the loader.
 * `ids` is the set the text encoder blocks; `strings` maps every special-looking string the
 * audit looks for (config names AND raw piece names such as "[UNUSED_TOKEN_145]") to its ID.
 */
export interface ReservedRegistry {
  readonly format: FormatName;
  readonly ids: ReadonlySet<number>;
  readonly idByName: ReadonlyMap<string, number>;
  readonly nameById: ReadonlyMap<number, string>;
  readonly strings: ReadonlyMap<string, number>;
  readonly eosIds: readonly number[];
  /** Number of IDs decodable at all (text model + appended reserved IDs). */
  readonly vocabEnd: number;
}
