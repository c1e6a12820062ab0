// Expensive, immutable test fixtures (loaded tokenizers, probed templates, compiled specs) built
// once per worker and handed to every suite that asks for the same key. The suites of the
// shared-modules project (vitest.config.ts) share this module, so a fixture built by one file is
// reused by the next file on the same worker; an isolated suite gets its own, per file.
//
// Only what no caller mutates goes in here: a cached value is the same object for every caller.
// A build that throws caches nothing (the next caller builds again and sees the same error).
// Nothing is ever dropped, so keys must come from a small fixed set (the fixtures files' entries),
// never from generated input.

const namespaces = new Map<string, Map<string, unknown>>();

/**
 * The value `build()` returns, built on the first call for (`namespace`, `key`) in this worker.
 * `namespace`: who builds (the support module's name); `key`: everything the value depends on.
 */
export function sharedFixture<T>(namespace: string, key: string, build: () => T): T {
  let entries = namespaces.get(namespace);
  if (entries === undefined) {
    entries = new Map();
    namespaces.set(namespace, entries);
  }
  if (entries.has(key)) return entries.get(key) as T;
  const value = build();
  entries.set(key, value);
  return value;
}
