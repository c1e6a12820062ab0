// The template format's runtime-neutral API (the directory loader is in ../node/directory.ts, exported
// from the ./node entry).

export type { StructureAuditEntry } from "../jinja/interpreter.ts";
export { DEFAULT_LIMITS, type TemplateLimits } from "../jinja/limits.ts";
export type { CallerField } from "../jinja/origins.ts";
export { Origins } from "../jinja/origins.ts";
export { concat, PStr, TEMPLATE } from "../jinja/pstr.ts";
export { compileTemplate, type RenderOptions, type RenderResult, renderProgram } from "../jinja/render.ts";
export type { Value } from "../jinja/values.ts";
export { emitRuns, renderChatTemplate, type TemplateRender } from "./chat.ts";
export {
  GENERATION_CONFIG_FILE,
  TEMPLATE_FILE,
  type TemplateLoadOptions,
  templateFromFiles,
  templateSources,
} from "./from-files.ts";
export type { Generated, Piece, ProbeCall, ProbeContext, ProbeTurn } from "./output/context.ts";
export type { DerivedOutput } from "./output/derive.ts";
export type { FormatPart, Recognizer } from "./output/part.ts";
export {
  type CompiledResponse,
  compileResponseTemplate,
} from "./output/response-template/compile.ts";
export {
  GEMMA4_RESPONSE_TEMPLATE,
  QWEN_RESPONSE_TEMPLATE,
  RESPONSE_TEMPLATE_FALLBACKS,
} from "./output/response-template/fallbacks.ts";
export {
  type ResponseTemplate,
  type ResponseTemplateField,
  type ResponseTemplateRead,
  readResponseTemplate,
} from "./output/response-template/read.ts";
export { probeTemplate, type TemplateProbe } from "./probe.ts";
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
