// @chatwire/server: an OpenAI-compatible server (node:http) over any Engine. Node only.
export { DEFAULT_LIMITS, type RequestLog, type ServeLimits } from "./context.ts";
export { type Engine, EngineError, type GenerateRequest } from "./engine.ts";
export { createLlamaCppEngine, type LlamaCppEngine, type LlamaCppOptions } from "./engines/llama-cpp.ts";
export { createReplayEngine, type ReplayOptions } from "./engines/replay.ts";
export { builtinReplayScript, plainReplayScript } from "./engines/replay-script.ts";
export { ENGINE_NAMES, type EngineChoice, type EngineName, selectEngine } from "./engines/select.ts";
export { createSglangEngine, sglangNewIds } from "./engines/sglang.ts";
export type { UpstreamOptions } from "./engines/upstream.ts";
export { createVllmEngine, vllmChunkIds } from "./engines/vllm.ts";
export { Limiter, type Refusal, type Slot, type Waiter } from "./limiter.ts";
export { type ServedEncoder, type ServedTokenizer, servedTokenizer } from "./served-tokenizer.ts";
export { type ChatwireServer, createChatwireServer, type ServeOptions } from "./server.ts";
