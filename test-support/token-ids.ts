// The verified token IDs of a loaded tokenizer (tok.tokenIds: resolved from its files at load),
// typed by the family's token keys for tests: `const Q = tokenIds<Qwen3Key>(qwen3)` then
// `Q.toolCall`. Read lazily, so a module can name them before a fixture-backed tokenizer loads
// (a suite skipped for missing fixtures never loads it); a key the family lacks throws instead
// of yielding undefined.
export interface TokenIdSource {
  readonly tokenIds: Readonly<Record<string, number>>;
}

export function tokenIds<K extends string>(tok: () => TokenIdSource): Readonly<Record<K, number>> {
  return new Proxy({} as Record<K, number>, {
    get(_, key) {
      if (typeof key !== "string") return undefined;
      const id = tok().tokenIds[key];
      if (id === undefined) throw new TypeError(`the tokenizer has no token key ${JSON.stringify(key)}`);
      return id;
    },
  });
}
