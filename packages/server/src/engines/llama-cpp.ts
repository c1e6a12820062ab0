// In-process node-llama-cpp (an optional peer dependency; loaded on first use). The prebuilt
// CPU binary only: getLlama({gpu: false, build: "never"}) never compiles or downloads. One
// context with `sequences` slots (= the server's concurrency); each generation takes a free
// sequence, evaluates the prompt IDs chatwire encoded, and yields sampled IDs one at a time
// (yieldEogToken: the decoder sees EOS and reports it). llama.cpp's own tokenizer is never
// used on caller text: its tokenize(text, false) still matches USER_DEFINED tokens such as
// Qwen3's <think> (pinned by test/llama-cpp.test.ts).
//
// threads defaults to 1: on a small shared machine llama.cpp's spinning worker threads slow
// generation down badly; raise it on a dedicated host.
import { stripVTControlCharacters } from "node:util";
import { ALL_SAMPLING_PARAMS, type SamplingOptions, type SamplingParam } from "@chatwire/openai";
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
interface Grammar {
  readonly grammar: string;
}
interface TokenBias {
  set(token: number, bias: { logit: number }): TokenBias;
}
interface Llama {
  loadModel(o: { modelPath: string }): Promise<Model>;
  createGrammarForJsonSchema(schema: unknown): Promise<Grammar>;
  getGrammarFor(type: "json"): Promise<Grammar>;
  dispose(): Promise<void>;
}
interface NodeLlamaCpp {
  getLlama(o: Record<string, unknown>): Promise<Llama>;
  LlamaGrammarEvaluationState: new (o: { model: Model; grammar: Grammar }) => unknown;
  TokenBias: { for(model: Model): TokenBias };
}

/** The sampling parameters node-llama-cpp's sequence.evaluate() takes (docs/openai.md "Sampling"). */
export const LLAMA_CPP_SAMPLING: ReadonlySet<SamplingParam> = ALL_SAMPLING_PARAMS;

/**
 * A request's seed (any safe integer) as llama.cpp's 32-bit one: 0 .. 2^32 - 1 as it is; any
 * other folded with its high part, so that -1, 0 and 2^32 stay different seeds (passed as they
 * are, llama.cpp would wrap 2^32 to 0 and clamp negatives to 0).
 */
export function seed32(seed: number): number {
  const lo = ((seed % 2 ** 32) + 2 ** 32) % 2 ** 32;
  const hi = Math.floor(seed / 2 ** 32);
  return hi === 0 ? lo : (Math.imul(hi | 0, 0x9e3779b1) ^ lo) >>> 0;
}

/**
 * node-llama-cpp's grammar of a JSON schema. Parts of a schema it cannot express it reports with
 * console.warn and replaces by "any" (a `$ref` it does not follow, minLength > maxLength): the
 * grammar would then not be the schema, so such a warning fails the request with its text (and
 * stays out of the server's stderr, whose lines are the JSON log). The conversion runs inside
 * the call, before its first await, so only its own warnings are caught.
 */
function schemaGrammar(llama: Llama, schema: unknown): Promise<Grammar> {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...parts: unknown[]) => {
    warnings.push(parts.map(String).join(" "));
  };
  let made: Promise<Grammar>;
  try {
    made = llama.createGrammarForJsonSchema(schema);
  } finally {
    console.warn = warn;
  }
  if (warnings.length === 0) return made;
  made.catch(() => {});
  // The library's prefix ("[node-llama-cpp]", maybe coloured) is not part of what it says.
  const said = stripVTControlCharacters(warnings[0] ?? "").replace(/^\s*\[node-llama-cpp\]\s*/, "");
  return Promise.reject(new Error(said));
}

/** How many of the generated tokens the repetition penalties look back on (llama.cpp's default). */
const PENALTY_WINDOW = 64;

/**
 * The evaluate() options for one request's sampling. `generated` is the request's own output so
 * far: OpenAI's presence / frequency penalties count the completion's tokens, not the prompt's.
 */
async function samplingOptions(
  lib: NodeLlamaCpp,
  llama: Llama,
  model: Model,
  s: SamplingOptions,
  generated: readonly number[],
): Promise<Record<string, unknown>> {
  const o: Record<string, unknown> = {
    temperature: s.temperature ?? 0.8,
    ...(s.topP !== undefined ? { topP: s.topP } : {}),
    ...(s.topK !== undefined ? { topK: s.topK } : {}),
    ...(s.minP !== undefined ? { minP: s.minP } : {}),
    ...(s.seed !== undefined ? { seed: seed32(s.seed) } : {}),
  };
  if (
    s.repetitionPenalty !== undefined ||
    s.presencePenalty !== undefined ||
    s.frequencyPenalty !== undefined
  )
    o.repeatPenalty = {
      punishTokens: () => generated.slice(-PENALTY_WINDOW),
      maxPunishTokens: PENALTY_WINDOW,
      penalty: s.repetitionPenalty ?? 1,
      presencePenalty: s.presencePenalty ?? 0,
      frequencyPenalty: s.frequencyPenalty ?? 0,
    };
  if (s.logitBias !== undefined) {
    const bias = lib.TokenBias.for(model);
    for (const [id, b] of s.logitBias) bias.set(id, { logit: b });
    o.tokenBias = bias;
  }
  const f = s.responseFormat;
  if (f !== undefined) {
    let grammar: Grammar;
    try {
      grammar =
        f.type === "json_schema" ? await schemaGrammar(llama, f.schema) : await llama.getGrammarFor("json");
    } catch (e) {
      throw new EngineError(
        "engine-refused",
        `response_format: node-llama-cpp cannot make a grammar of this schema: ${e instanceof Error ? e.message.slice(0, 200) : String(e).slice(0, 200)}`,
      );
    }
    o.grammarEvaluationState = new lib.LlamaGrammarEvaluationState({ model, grammar });
  }
  return o;
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
    sampling: LLAMA_CPP_SAMPLING,
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
      const generated: number[] = [];
      try {
        const options = await samplingOptions(lib, llama, model, s, generated);
        const it = seq.evaluate([...req.promptIds], { yieldEogToken: true, ...options });
        for await (const id of it) {
          if (req.signal.aborted) return;
          generated.push(id);
          yield [id];
          if (generated.length >= max) return;
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
