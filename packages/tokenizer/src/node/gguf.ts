// GGUF files from the file system (Node only). A model GGUF is gigabytes of tensors after a
// metadata section of a few megabytes: only the head is read, growing (x4) until the metadata
// parses (the reader reports `truncated` when the bytes end inside it), so a load costs the
// metadata's size, never the file's. Everything after reading is ../models/gguf/load.ts.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { TokenizerError } from "../errors.ts";
import type { AnyTokenizer } from "../load/load.ts";
import { type GgufLoad, type GgufLoadOptions, loadGgufMetadata } from "../models/gguf/load.ts";
import { type GgufMetadata, readGgufMetadata } from "../models/gguf/reader.ts";

/** The first read; the metadata of most models fits (a 150k-token vocabulary is ~5 MB). */
const FIRST_READ = 16 << 20;

function truncated(e: unknown): boolean {
  return TokenizerError.isInstance(e) && e.type === "bad-gguf-file" && e.fields.truncated === true;
}

function cannotRead(path: string, e: unknown): TokenizerError {
  const code = typeof e === "object" && e !== null && "code" in e ? e.code : undefined;
  if (code === "ENOENT" || code === "ENOTDIR")
    return new TokenizerError("file-not-found", `${path} does not exist`, { file: path });
  return new TokenizerError("bad-gguf-file", `${path} cannot be read`, { file: path });
}

/** A typed error stays as it is; anything else thrown while reading is `cannotRead`. */
function readError(path: string, e: unknown): TokenizerError {
  return TokenizerError.isInstance(e) ? e : cannotRead(path, e);
}

/**
 * The head and its metadata when the `got` bytes read (of `want` asked, of a `size`-byte file)
 * hold the whole metadata section; else the size of the next, larger read.
 */
function headOrNextSize(
  buf: Uint8Array,
  got: number,
  want: number,
  size: number,
  path: string,
): { head: Uint8Array; metadata: GgufMetadata } | number {
  const head = buf.subarray(0, got);
  try {
    return { head, metadata: readGgufMetadata(head, path) };
  } catch (e) {
    if (!truncated(e) || got < want || want >= size) throw e;
    return Math.min(size, want * 4);
  }
}

/** The head of `path` holding the whole metadata section (growing reads). */
export function readGgufHeadSync(path: string): Uint8Array {
  return readGgufHeadMetadataSync(path).head;
}

/** The head and its metadata (parsed once). */
export function readGgufHeadMetadataSync(path: string): { head: Uint8Array; metadata: GgufMetadata } {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw cannotRead(path, e);
  }
  try {
    const size = fstatSync(fd).size;
    let want = Math.min(size, FIRST_READ);
    for (;;) {
      const buf = new Uint8Array(want);
      let got = 0;
      while (got < want) {
        const n = readSync(fd, buf, got, want - got, got);
        if (n === 0) break;
        got += n;
      }
      const r = headOrNextSize(buf, got, want, size, path);
      if (typeof r !== "number") return r;
      want = r;
    }
  } catch (e) {
    throw readError(path, e);
  } finally {
    closeSync(fd);
  }
}

/** readGgufHeadSync without blocking the event loop. */
export async function readGgufHead(path: string): Promise<Uint8Array> {
  return (await readGgufHeadMetadata(path)).head;
}

/** readGgufHeadMetadataSync without blocking the event loop. */
export async function readGgufHeadMetadata(
  path: string,
): Promise<{ head: Uint8Array; metadata: GgufMetadata }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (e) {
    throw cannotRead(path, e);
  }
  try {
    const size = (await handle.stat()).size;
    let want = Math.min(size, FIRST_READ);
    for (;;) {
      const buf = new Uint8Array(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(buf, got, want - got, got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      const r = headOrNextSize(buf, got, want, size, path);
      if (typeof r !== "number") return r;
      want = r;
    }
  } catch (e) {
    throw readError(path, e);
  } finally {
    await handle.close();
  }
}

/** The tokenizer (and what the file holds) of a GGUF file; errors name the path. */
export function loadGgufFileSync(path: string, options: GgufLoadOptions = {}): GgufLoad {
  return loadGgufMetadata(readGgufHeadMetadataSync(path).metadata, { file: path, ...options });
}

/** loadGgufFileSync without blocking on the read. */
export async function loadGgufFile(path: string, options: GgufLoadOptions = {}): Promise<GgufLoad> {
  return loadGgufMetadata((await readGgufHeadMetadata(path)).metadata, { file: path, ...options });
}

/** The tokenizer of a GGUF file: a native family when its definition fits, else the file's template. */
export async function fromGgufFile(path: string, options: GgufLoadOptions = {}): Promise<AnyTokenizer> {
  return (await loadGgufFile(path, options)).tokenizer;
}

/** True when `path` names a GGUF file (by its extension). */
export function isGgufPath(path: string): boolean {
  return /\.gguf$/i.test(path);
}
