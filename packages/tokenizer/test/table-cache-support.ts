// Shared by the table-cache suites: temporary directories removed after the file, and the decode
// table in a form that compares fast.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { DecodeTable } from "../src/models/text-model.ts";

/** A maker of fresh temporary directories (named `prefix`...), all removed after the file. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}

const sha256 = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

/**
 * Every field of a decode table, the large ones as SHA-256 digests of an exact serialization: two
 * tables digest equal exactly when their entries are equal, and a difference names the field.
 * (An element-by-element toEqual over a vocabulary of 262k IDs takes about a second per call.)
 */
export function decodeTableDigest(t: DecodeTable): Record<string, string | number> {
  const bytes = createHash("sha256");
  for (let id = 0; id < t.bytes.length; id++) {
    const b = t.bytes[id];
    if (b === undefined) continue;
    bytes.update(`${id}:${b.length}:`);
    bytes.update(b);
  }
  return {
    size: t.size,
    kind: sha256(t.kind),
    text: sha256(JSON.stringify(t.text)),
    textAtStart: sha256(JSON.stringify(t.textAtStart)),
    bytes: bytes.digest("hex"),
    byteLength:
      t.byteLength === undefined
        ? "none"
        : sha256(new Uint8Array(t.byteLength.buffer, t.byteLength.byteOffset, t.byteLength.byteLength)),
    invalidUtf8: t.invalidUtf8,
    startEnds: t.startEnds,
  };
}
