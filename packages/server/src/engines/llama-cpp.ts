// In-process node-llama-cpp (an optional peer dependency; loaded on first use). The prebuilt
// CPU binary only: getLlama({gpu: false, build: "never"}) never compiles or downloads. One
// context with `sequences` slots (= the server's concurrency); each generation takes a free
// sequence, evaluates the prompt IDs chatwire encoded, and yields sampled IDs one at a time
// (yieldEogToken: the decoder sees EOS and reports it). llama.cpp's own tokenizer is never
// used on caller text: its tokenize(text, false) still matches USER_DEFINED tokens such as
// Qwen3's <think> (pinned by test/llama-cpp.test.ts).
//
// threads defaults to 1: on a shared 2-core machine llama.cpp's spinning worker threads took the
// tiny model from ~100 to ~5 tokens/s with 2 threads (measured here); raise it on a real host.
import type { Engine, GenerateRequest } from "../engine.ts";
import { EngineError } from "../engine.ts";

export interface LlamaCppOptions {
  readonly modelPath: string;
  /** Parallel sequences (set it to the server's maxConcurrent). Default 4. */
  readonly sequences?: number;
  /** Context tokens per sequence. Default 4096. */
  readonly contextSize?: number;
  /** CPU threads. Default 1 (see above). */
  readonly threads?: number;
}

// Minimal structural views of the node-llama-cpp objects used here (its own .d.ts stays out of
// this package's public types, so consumers without the optional peer still type-check).
interface Sequence {
  evaluate(tokens: number[], options: Record<string, unknown>): AsyncGenerator<number, void, void>;
  clearHistory(): Promise<void>;
}
interface Context {
  getSequence(): Sequence;
  dispose(): Promise<void>;
}
interface Model {
  createContext(o: Record<string, unknown>): Promise<Context>;
  tokenize(text: string, specialTokens?: boolean): number[];
  dispose(): Promise<void>;
}
interface Llama {
  loadModel(o: { modelPath: string }): Promise<Model>;
  dispose(): Promise<void>;
}
interface NodeLlamaCpp {
  getLlama(o: Record<string, unknown>): Promise<Llama>;
}

export interface LlamaCppEngine extends Engine {
  /** llama.cpp's own tokenizer (for documenting tests only; chatwire never uses it on caller text). */
  llamaTokenize(text: string, specialTokens: boolean): number[];
}

export async function createLlamaCppEngine(o: LlamaCppOptions): Promise<LlamaCppEngine> {
  let lib: NodeLlamaCpp;
  try {
    lib = (await import("node-llama-cpp")) as unknown as NodeLlamaCpp;
  } catch (e) {
    throw new EngineError(
      "engine-unavailable",
      `--engine llama-cpp needs the node-llama-cpp package (npm install node-llama-cpp): ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const sequences = o.sequences ?? 4;
  const llama = await lib.getLlama({ gpu: false, build: "never", logLevel: "error" });
  const model = await llama.loadModel({ modelPath: o.modelPath });
  const context = await model.createContext({
    sequences,
    contextSize: (o.contextSize ?? 4096) * sequences,
    threads: o.threads ?? 1,
  });
  const free: Sequence[] = [];
  for (let i = 0; i < sequences; i++) free.push(context.getSequence());

  return {
    name: "llama-cpp",
    llamaTokenize: (text, special) => model.tokenize(text, special),
    async *generate(req: GenerateRequest) {
      const seq = free.pop();
      if (seq === undefined)
        throw new EngineError(
          "engine-failed",
          "no free llama.cpp sequence (more requests than --max-concurrent)",
        );
      const s = req.sampling;
      const max = s.maxTokens ?? Number.POSITIVE_INFINITY;
      let n = 0;
      try {
        const it = seq.evaluate([...req.promptIds], {
          yieldEogToken: true,
          ...(s.temperature !== undefined ? { temperature: s.temperature } : { temperature: 0.8 }),
          ...(s.topP !== undefined ? { topP: s.topP } : {}),
          ...(s.seed !== undefined ? { seed: s.seed } : {}),
        });
        for await (const id of it) {
          if (req.signal.aborted) return;
          yield [id];
          if (++n >= max) return;
        }
      } finally {
        await seq.clearHistory();
        free.push(seq);
      }
    },
    async close() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
