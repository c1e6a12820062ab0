// A tokenizer bound to a model's own chat template ("template" format): the text model with
// every added token blocked, the reserved set of ./reserved-set.ts, and the template(s).
// encodeChat renders with provenance (./chat.ts) and hands the runs to the ChatBuilder: reserved
// strings become IDs only inside template-origin text, the encoder runs over the maximal text
// between them (template and caller text together, as HF encodes the whole rendered string).

import type { ChatEncoding } from "../chat/builder.ts";
import { BuilderSpare } from "../chat/builder-spare.ts";
import type { ChatSink } from "../chat/sink.ts";
import type { DecodeOptions } from "../chat-decode.ts";
import type { TextEncoding } from "../chat-tokenizer.ts";
import { TokenizerError } from "../errors.ts";
import type { ProgramNode } from "../jinja/ast.ts";
import type { StructureAuditEntry } from "../jinja/interpreter.ts";
import type { TemplateLimits } from "../jinja/limits.ts";
import { PStr, TEMPLATE } from "../jinja/pstr.ts";
import { compileTemplate } from "../jinja/render.ts";
import { PList, type Value } from "../jinja/values.ts";
import type { TokenizerConfig } from "../load/config.ts";
import type { TextModel } from "../models/text-model.ts";
import type { ChatRequest } from "../request/request.ts";
import { checkPolicy, policyOf, rejectReserved, type SpecialTextOptions } from "../special-text/policy.ts";
import { createSpecialScanner, type SpecialScanner } from "../special-text/scanner.ts";
import { renderChatTemplate, type TemplateRender } from "./chat.ts";
import { type AddedToken, isMarkerShaped, splitAddedTokens } from "./reserved-set.ts";
import { type StripSets, StripSink } from "./strip-sink.ts";
import { createTemplateRunCache } from "./template-runs.ts";

export interface TemplateEncoding extends ChatEncoding {
  /** Where the template's control flow read caller text. */
  readonly structure: StructureAuditEntry[];
}

export interface ProvenanceRun {
  readonly text: string;
  readonly origin: "template" | "caller";
  readonly message: number | null;
  /** The caller field path ("content", "tool_calls[0].function.arguments"); "template" for template text. */
  readonly field: string;
}

export interface TemplateSources {
  /** The template used without tools (transformers: the string, or the "default" entry). */
  readonly default: string;
  /** The "tool_use" entry of a named list, used when the request has tools. */
  readonly toolUse?: string;
}

export interface TemplateTokenizerOptions extends SpecialTextOptions {
  readonly limits?: Partial<TemplateLimits>;
  /** strftime_now's clock (default: now). */
  readonly now?: () => Date;
}

export interface TemplateTokenizer {
  readonly format: "template";
  readonly textModel: TextModel;
  readonly config: TokenizerConfig;
  readonly templates: TemplateSources;
  /** Reserved strings -> ID (placed only by template text). */
  readonly reserved: ReadonlyMap<string, number>;
  /** Text pieces -> ID (non-structural added tokens matched in all text). */
  readonly textPieces: ReadonlyMap<string, number>;
  readonly nameById: ReadonlyMap<number, string>;
  readonly scanner: SpecialScanner;
  /** generation_config.json `eos_token_id` (a number or a list), [] without the file. */
  readonly generationEosIds: readonly number[];
  encodeChat(request: ChatRequest, options?: SpecialTextOptions): TemplateEncoding;
  /** The rendering as text (apply_chat_template(tokenize=False)). */
  renderChat(request: ChatRequest): string;
  /**
   * One text run as the template path encodes caller text: text pieces as their IDs, the rest
   * through the ordinary encoder; never a reserved ID (ChatTokenizer.encodeText's contract).
   */
  encodeText(text: string, options?: SpecialTextOptions): TextEncoding;
  /** The number of IDs encodeText(text) returns, without building the audit. */
  countTokens(text: string, options?: SpecialTextOptions): number;
  /**
   * IDs back to text: runs of ordinary IDs decoded as one call each, text pieces as their text,
   * reserved IDs skipped (default) or shown by name (ChatTokenizer.decode's options).
   */
  decode(ids: readonly number[], options?: DecodeOptions): string;
  /** The rendering as provenance runs (template vs caller, with the caller field). */
  renderProvenance(request: ChatRequest): ProvenanceRun[];
}

/** The tokens transformers passes to a template (special_tokens_map), as template text. */
export function specialTokenVars(config: TokenizerConfig): Map<string, Value> {
  const vars = new Map<string, Value>();
  const raw = config.raw;
  const content = (v: unknown): string | undefined =>
    typeof v === "string"
      ? v
      : typeof v === "object" && v !== null && typeof (v as { content?: unknown }).content === "string"
        ? (v as { content: string }).content
        : undefined;
  for (const k of [
    "bos_token",
    "eos_token",
    "unk_token",
    "sep_token",
    "pad_token",
    "cls_token",
    "mask_token",
  ]) {
    const s = content(raw[k]);
    if (s !== undefined) vars.set(k, PStr.of(s));
  }
  const extra = raw.additional_special_tokens;
  if (Array.isArray(extra))
    vars.set("additional_special_tokens", new PList(extra.map((x) => PStr.of(content(x) ?? ""))));
  return vars;
}

/** Splits text on text pieces: pieces become IDs, the rest goes to `rest`. */
function splitPieces(
  text: string,
  scanner: SpecialScanner | undefined,
  sink: ChatSink,
  message: number | null,
  rest: (t: string) => void,
): void {
  if (scanner === undefined) {
    rest(text);
    return;
  }
  let from = 0;
  for (const m of scanner.scan(text)) {
    if (m.index > from) rest(text.slice(from, m.index));
    sink.reserved(m.id, message, "text-piece");
    from = m.index + m.token.length;
  }
  if (from < text.length) rest(text.slice(from));
}

/**
 * The IDs placed with HF's lstrip / rstrip (./strip-sink.ts): reserved tokens, and text pieces
 * matched in the sink stream (`pieces`); undefined when there are none (no filter at all).
 */
function stripSets(
  tokens: readonly AddedToken[],
  reserved: ReadonlyMap<string, number>,
  pieces: ReadonlyMap<string, number>,
): StripSets | undefined {
  const lstrip = new Set<number>();
  const rstrip = new Set<number>();
  for (const t of tokens) {
    if (t.lstrip !== true && t.rstrip !== true) continue;
    const id = reserved.get(t.content) ?? pieces.get(t.content);
    if (id !== t.id) continue;
    if (t.lstrip === true) lstrip.add(id);
    if (t.rstrip === true) rstrip.add(id);
  }
  return lstrip.size + rstrip.size === 0 ? undefined : { lstrip, rstrip };
}

export function createTemplateTokenizer(parts: {
  readonly textModel: TextModel;
  readonly config: TokenizerConfig;
  readonly addedTokens: readonly AddedToken[];
  readonly templates: TemplateSources;
  readonly options?: TemplateTokenizerOptions;
  readonly generationEosIds?: readonly number[];
}): TemplateTokenizer {
  const { textModel, config, templates } = parts;
  const options = parts.options ?? {};
  const sources = [templates.default, ...(templates.toolUse === undefined ? [] : [templates.toolUse])];
  const { reserved, textPieces } = splitAddedTokens(parts.addedTokens, sources);
  const scanner = createSpecialScanner(reserved);
  // The spjson model matches text pieces itself over the whole encoder run (across provenance
  // boundaries, as HF does: caller "\n\n\n" + template "\n\n" is ONE "\n"x5 piece).
  const pieceScanner =
    textPieces.size > 0 && textModel.family !== "sentencepiece-json"
      ? createSpecialScanner(textPieces)
      : undefined;
  const nameById = new Map<number, string>();
  for (const t of parts.addedTokens) nameById.set(t.id, t.content);
  const strip = stripSets(parts.addedTokens, reserved, pieceScanner === undefined ? new Map() : textPieces);
  const programs = new Map<string, ProgramNode>();
  const program = (src: string): ProgramNode => {
    let p = programs.get(src);
    if (p === undefined) {
      p = compileTemplate(src);
      programs.set(src, p);
    }
    return p;
  };
  const vars = specialTokenVars(config);
  const defaultPolicy = checkPolicy(options.specialText);
  // The render options, built once (not two object spreads per request).
  const renderOptions = {
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.now === undefined ? {} : { now: options.now }),
  };
  const render = (request: ChatRequest): TemplateRender => {
    // A request that is not an object reaches renderChatTemplate's validation (invalid-conversation).
    const tools =
      typeof request === "object" && request !== null ? (request as { tools?: unknown }).tools : undefined;
    const hasTools = Array.isArray(tools) && tools.length > 0;
    const src = hasTools && templates.toolUse !== undefined ? templates.toolUse : templates.default;
    return renderChatTemplate(program(src), request, vars, renderOptions);
  };
  // The builder's own encoder call (chat/builder.ts encodeRun), for the template-run pieces
  // that are whole encoder runs; only when toSink's sink is the builder itself (no strip filter
  // in front, no text-piece split).
  const encodeUnit = (text: string): number[] => {
    if (textModel.encodeInto === undefined) return [...textModel.encode(text)];
    const out: number[] = [];
    textModel.encodeInto(text, out);
    return out;
  };
  const templateRuns = createTemplateRunCache(
    scanner,
    strip === undefined && pieceScanner === undefined ? encodeUnit : undefined,
  );
  // What emitRuns does (./chat.ts), without a wrapper sink of closures per request: template
  // runs through the run cache (reserved strings -> IDs), caller runs to sink.caller; with text
  // pieces, both split on them first.
  const toSink = (r: TemplateRender, sink: ChatSink): void => {
    const { runs, origins } = r.output;
    for (let i = 0; i < runs.length; i++) {
      const text = runs[i] as string;
      const origin = origins[i] as number;
      if (origin === TEMPLATE) {
        if (pieceScanner === undefined)
          templateRuns.emit(text, null, "template", sink, i === runs.length - 1);
        else splitPieces(text, pieceScanner, sink, null, (x) => templateRuns.emit(x, null, "template", sink));
        continue;
      }
      const f = r.origins.get(origin);
      const top = r.origins.top(origin);
      if (pieceScanner === undefined) sink.caller(text, f.message, top, f);
      else splitPieces(text, pieceScanner, sink, f.message, (x) => sink.caller(x, f.message, top, f));
    }
  };
  const builders = new BuilderSpare(textModel, scanner);
  const reservedIds = new Set(reserved.values());
  // Text pieces decoded as their own text, but for a SentencePiece-converted tokenizer.json those
  // its vocabulary holds under the same ID and spelling: they go through the model's decoder
  // chain with their neighbours, as HF decodes added tokens (Gemma's "▁▁" is two spaces, not
  // "▁▁"). A byte-level model's decoder would drop a piece's characters outside its alphabet
  // (GPT-NeoX's "   "), where HF and llama.cpp keep the piece's text.
  const pieceById = new Map<number, string>();
  const chained = (text: string, id: number) =>
    textModel.family === "sentencepiece-json" && id < textModel.vocabSize && textModel.idToPiece(id) === text;
  for (const [text, id] of textPieces) if (!chained(text, id)) pieceById.set(id, text);
  // What "skip" keeps of a reserved ID: the text of a non-special token that is not shaped like a
  // marker (DeepSeek LLM's single letters such as "ü", reserved only so caller text never makes
  // them), as HF's skip_special_tokens keeps it; special and marker-shaped ones are dropped.
  const keptWhenSkipped = new Map<number, string>();
  for (const t of parts.addedTokens)
    if (!t.special && reservedIds.has(t.id) && !isMarkerShaped(t.content))
      keptWhenSkipped.set(t.id, t.content);
  let vocabEnd = textModel.vocabSize;
  for (const t of parts.addedTokens) if (t.id >= vocabEnd) vocabEnd = t.id + 1;
  const encodeText = (text: string, o: SpecialTextOptions, audit: boolean): TextEncoding => {
    const policy = policyOf(o, defaultPolicy);
    if (typeof text !== "string")
      throw new TokenizerError("invalid-argument", "encodeText: text must be a string");
    rejectReserved(scanner, text, policy);
    const ids: number[] = [];
    const rest = (t: string): void => {
      for (const id of textModel.encode(t)) ids.push(id);
    };
    if (pieceScanner === undefined) rest(text);
    else {
      let from = 0;
      for (const m of pieceScanner.scan(text)) {
        if (m.index > from) rest(text.slice(from, m.index));
        ids.push(m.id);
        from = m.index + m.token.length;
      }
      if (from < text.length) rest(text.slice(from));
    }
    return { ids, audit: audit && policy !== "reject" ? scanner.scan(text) : [] };
  };
  return Object.freeze({
    format: "template" as const,
    textModel,
    config,
    templates,
    reserved,
    textPieces,
    nameById,
    scanner,
    generationEosIds: Object.freeze([...(parts.generationEosIds ?? [])]),
    encodeChat(request: ChatRequest, o: SpecialTextOptions = {}): TemplateEncoding {
      const policy = policyOf(o, defaultPolicy);
      const r = render(request);
      const b = builders.take(policy);
      try {
        if (strip === undefined) toSink(r, b);
        else {
          const s = new StripSink(b, scanner, strip);
          toSink(r, s);
          s.finish();
        }
        const e = b.finish();
        return { ids: e.ids, spans: e.spans, audit: e.audit, structure: r.structure };
      } finally {
        builders.give(b);
      }
    },
    renderChat(request: ChatRequest): string {
      return render(request).output.text;
    },
    encodeText(text: string, o: SpecialTextOptions = {}): TextEncoding {
      return encodeText(text, o, true);
    },
    countTokens(text: string, o: SpecialTextOptions = {}): number {
      return encodeText(text, o, false).ids.length;
    },
    decode(ids: readonly number[], o: DecodeOptions = {}): string {
      const mode = o.specialTokens ?? "skip";
      if (mode !== "show" && mode !== "skip")
        throw new TokenizerError("invalid-argument", `decode: specialTokens must be "show" or "skip"`);
      if (!Array.isArray(ids)) throw new TokenizerError("invalid-argument", "decode: ids must be an array");
      let out = "";
      let run: number[] = [];
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i];
        if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= vocabEnd)
          throw new TokenizerError(
            "invalid-argument",
            `decode: ids[${i}] is not a token ID of this tokenizer (0..${vocabEnd - 1})`,
            { index: i },
          );
        const piece = pieceById.get(id);
        if (piece === undefined && !reservedIds.has(id) && id < textModel.vocabSize) {
          run.push(id);
          continue;
        }
        if (run.length > 0) out += textModel.decode(run);
        run = [];
        if (piece !== undefined) out += piece;
        else if (mode === "show") out += nameById.get(id) ?? "";
        else out += keptWhenSkipped.get(id) ?? "";
      }
      if (run.length > 0) out += textModel.decode(run);
      return out;
    },
    renderProvenance(request: ChatRequest): ProvenanceRun[] {
      const r = render(request);
      const runs: ProvenanceRun[] = [];
      r.output.forEachRun((text, origin) => {
        const f = r.origins.get(origin);
        runs.push({
          text,
          origin: origin === TEMPLATE ? "template" : "caller",
          message: origin === TEMPLATE ? null : f.message,
          field: f.field,
        });
      });
      return runs;
    },
  });
}
