// The template format's runtime-neutral API (the directory loader is in ./directory.ts, exported
// from the ./node entry).

export { emitRuns, renderChatTemplate, type TemplateRender } from "./chat.ts";
export {
  GENERATION_CONFIG_FILE,
  TEMPLATE_FILE,
  type TemplateLoadOptions,
  templateFromFiles,
  templateSources,
} from "./from-files.ts";
export type { StructureAuditEntry } from "./interpreter.ts";
export { DEFAULT_LIMITS, type TemplateLimits } from "./limits.ts";
export type { CallerField } from "./origins.ts";
export { Origins } from "./origins.ts";
export { type FencedToolCallMarkers, type MarkerPair, probeTemplate, type TemplateProbe } from "./probe.ts";
export { concat, PStr, TEMPLATE } from "./pstr.ts";
export { compileTemplate, type RenderOptions, type RenderResult, renderProgram } from "./render.ts";
export { type AddedToken, hasControlShape, isTextPiece, splitAddedTokens } from "./reserved-set.ts";
export {
  createTemplateTokenizer,
  type ProvenanceRun,
  specialTokenVars,
  type TemplateEncoding,
  type TemplateSources,
  type TemplateTokenizer,
  type TemplateTokenizerOptions,
} from "./tokenizer.ts";
export type { Value } from "./values.ts";
