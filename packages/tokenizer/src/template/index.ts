export { emitRuns, renderChatTemplate, type TemplateRender } from "./chat.ts";
export type { StructureAuditEntry } from "./interpreter.ts";
export { DEFAULT_LIMITS, type TemplateLimits } from "./limits.ts";
export { loadTemplateTokenizerSync, type TemplateLoadOptions, templateSources } from "./load.ts";
export { type CallerField, Origins } from "./origins.ts";
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
