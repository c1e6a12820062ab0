// One engine from the `chatwire serve` options: replay | llama-cpp | vllm | sglang.
import type { AnyTokenizer } from "@chatwire/tokenizer";
import type { Engine } from "../engine.ts";
import { EngineError } from "../engine.ts";
import { createLlamaCppEngine } from "./llama-cpp.ts";
import { createReplayEngine } from "./replay.ts";
import { builtinReplayScript } from "./replay-script.ts";
import { createSglangEngine } from "./sglang.ts";
import { createVllmEngine } from "./vllm.ts";

export const ENGINE_NAMES = ["replay", "llama-cpp", "vllm", "sglang"] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export interface EngineChoice {
  readonly engine: EngineName;
  /** A native family's, or one bound to the model's chat template (replay derives its script from it). */
  readonly tokenizer: AnyTokenizer;
  /** llama-cpp: the GGUF file. */
  readonly model?: string;
  /** vllm / sglang: the upstream base URL. */
  readonly upstream?: string;
  /** vllm: the upstream model name (default: its first listed model). */
  readonly upstreamModel?: string;
  readonly upstreamApiKey?: string;
  /** vllm / sglang: ms without an upstream byte before `engine-timeout`. */
  readonly upstreamIdleTimeoutMs?: number;
  /** llama-cpp: parallel sequences (= max concurrency). */
  readonly sequences?: number;
  readonly contextSize?: number;
  readonly threads?: number;
  /** replay: ms between IDs. */
  readonly replayDelayMs?: number;
}

export async function selectEngine(c: EngineChoice): Promise<Engine> {
  switch (c.engine) {
    case "replay": {
      const script = builtinReplayScript(c.tokenizer);
      return createReplayEngine({ script: () => script, delayMs: c.replayDelayMs ?? 0 });
    }
    case "llama-cpp":
      if (c.model === undefined)
        throw new EngineError("engine-unavailable", "--engine llama-cpp needs --model FILE.gguf");
      return createLlamaCppEngine({
        modelPath: c.model,
        ...(c.sequences !== undefined ? { sequences: c.sequences } : {}),
        ...(c.contextSize !== undefined ? { contextSize: c.contextSize } : {}),
        ...(c.threads !== undefined ? { threads: c.threads } : {}),
      });
    case "vllm":
    case "sglang": {
      if (c.upstream === undefined)
        throw new EngineError("engine-unavailable", `--engine ${c.engine} needs --upstream URL`);
      const o = {
        upstream: c.upstream,
        ...(c.upstreamModel !== undefined ? { model: c.upstreamModel } : {}),
        ...(c.upstreamApiKey !== undefined ? { apiKey: c.upstreamApiKey } : {}),
        ...(c.upstreamIdleTimeoutMs !== undefined ? { idleTimeoutMs: c.upstreamIdleTimeoutMs } : {}),
      };
      return c.engine === "vllm" ? createVllmEngine(o) : createSglangEngine(o);
    }
    default:
      throw new EngineError("engine-unavailable", `unknown engine ${JSON.stringify(c.engine)}`);
  }
}
