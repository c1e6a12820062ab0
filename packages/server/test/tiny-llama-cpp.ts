// Shared by the node-llama-cpp suites: the tiny random-weight Qwen3-vocabulary GGUF written by
// scripts/make-tiny-gguf.js into a temp dir, its in-process engine (tapped, so a test reads the
// IDs it produced) behind a chatwire server.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createLlamaCppEngine, type LlamaCppEngine } from "../src/index.ts";
import { type Running, start, tokenizer } from "./support.ts";
import { tap } from "./tap.ts";

const root = resolve(import.meta.dirname, "../../..");

export interface TinyLlamaCpp {
  readonly engine: LlamaCppEngine;
  readonly tapped: ReturnType<typeof tap>;
  readonly srv: Running;
  /** Stops the server and the engine, then removes the temp dir. */
  close(): Promise<void>;
}

/** The engine with `sequences` parallel sequences (and as many concurrent requests), served. */
export async function startTinyLlamaCpp(tempPrefix: string, sequences: number): Promise<TinyLlamaCpp> {
  const dir = mkdtempSync(join(tmpdir(), tempPrefix));
  let engine: LlamaCppEngine | undefined;
  try {
    const file = join(dir, "tiny.gguf");
    const r = spawnSync(process.execPath, [join(root, "scripts/make-tiny-gguf.js"), file], {
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`make-tiny-gguf failed: ${r.stderr}`);
    const e = await createLlamaCppEngine({ modelPath: file, sequences, contextSize: 1024, threads: 1 });
    engine = e;
    const tapped = tap(e);
    const srv = await start(tokenizer("qwen3"), tapped.engine, {
      limits: { maxConcurrent: sequences, maxModelLen: 1024 },
    });
    return {
      engine: e,
      tapped,
      srv,
      close: async () => {
        await srv.close();
        await e.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
