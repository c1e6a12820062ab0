// Node built-ins that only the table cache uses, loaded on first use instead of by the import of
// "@chatwire/tokenizer/node": a static import loads the module (node:crypto alone pulls in dozens
// of Node's internal modules) for every program, including those that never touch the cache
// (fromFiles, cacheDir: false, SentencePiece without a table file).
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

let crypto: typeof import("node:crypto") | undefined;
let zlib: typeof import("node:zlib") | undefined;

export function nodeCrypto(): typeof import("node:crypto") {
  crypto ??= load("node:crypto") as typeof import("node:crypto");
  return crypto;
}

export function nodeZlib(): typeof import("node:zlib") {
  zlib ??= load("node:zlib") as typeof import("node:zlib");
  return zlib;
}
