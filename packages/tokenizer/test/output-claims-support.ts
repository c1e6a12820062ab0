// Shared by the output-<format>.test.ts suites: every chat template of ../shared (templates and
// templates-extra) probed once over one small vocabulary, so a recognizer can be shown to claim
// its own templates and no other. The vocabulary is the 256 byte symbols (any text encodes)
// plus, as special added tokens, every marker string of test-vectors/peer-parse/formats.json and
// the usual turn tokens: each template finds the reserved strings it writes, as a stand-in
// vocabulary does for the peer-parse scorer.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import {
  type FormatEntry,
  formats,
  loadFormat,
  templateDir,
} from "../../../test-vectors/peer-parse/score.ts";
import { specialAddedToken } from "../../../test-vectors/peer-parse/vocabulary-files.ts";
import {
  type AddedToken,
  createTemplateTokenizer,
  probeTemplate,
  type TemplateTokenizer,
  templateFromFiles,
} from "../src/index.ts";
import { byteSymbolVocab } from "./bytelevel-support.ts";

const TURN_TOKENS = [
  "<|begin_of_text|>",
  "<|start_header_id|>",
  "<|end_header_id|>",
  "<|eot_id|>",
  "<|eom_id|>",
  "<|python_tag|>",
  "<|endoftext|>",
  "<bos>",
  "<eos>",
  "<start_of_turn>",
  "<end_of_turn>",
  "<|start|>",
  "<|message|>",
  "<|channel|>",
  "<|return|>",
  "<|call|>",
];

/** The small vocabulary's tokenizer.json. */
function tokenizerJson(): string {
  const vocab = byteSymbolVocab();
  const markers = new Set<string>(TURN_TOKENS);
  for (const e of Object.values(formats().templates)) for (const m of e.vocabulary.markers) markers.add(m);
  const added = [...markers].map((content, i) => specialAddedToken(256 + i, content));
  return JSON.stringify({
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: "ByteLevel" },
    model: { type: "BPE", dropout: null, vocab, merges: [] },
  });
}

/** Every template file of ../shared: "templates/x.jinja" -> its text ([] when absent). */
export function sharedTemplates(): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of ["templates", "templates-extra"] as const) {
    const path = templateDir(dir);
    if (!existsSync(path)) continue;
    for (const f of readdirSync(path).sort())
      if (f.endsWith(".jinja")) out.set(`${dir}/${f}`, readFileSync(join(path, f), "utf8"));
  }
  return out;
}

let cache: Map<string, string> | undefined;

/**
 * The derived output name of every shared template over the small vocabulary ("refused" when
 * the template refuses the probe's conversations). Computed once per test process.
 */
export function derivedNames(): ReadonlyMap<string, string> {
  if (cache !== undefined) return cache;
  const json = tokenizerJson();
  const names = new Map<string, string>();
  for (const [file, template] of sharedTemplates()) {
    try {
      const tok = templateFromFiles(
        {
          "tokenizer.json": json,
          "tokenizer_config.json": JSON.stringify({
            chat_template: template,
            bos_token: "<s>",
            eos_token: "</s>",
          }),
        },
        { now: () => new Date(2024, 6, 26) },
      );
      names.set(file, probeTemplate(tok).output.name);
    } catch {
      names.set(file, "refused");
    }
  }
  cache = names;
  return names;
}

/** `template` over `base`'s text model and config with these added tokens, on the probe's fixed date. */
export function overBase(
  base: TemplateTokenizer,
  addedTokens: readonly AddedToken[],
  template: string,
): TemplateTokenizer {
  return createTemplateTokenizer({
    textModel: base.textModel,
    config: base.config,
    addedTokens,
    templates: { default: template },
    options: { now: () => new Date(2024, 6, 26) },
  });
}

/** Whether the peer-parse entry `key` exists and its template file is in ../shared (else the suite skips). */
export function entryPresent(key: string): boolean {
  const entry = formats().templates[key];
  return entry !== undefined && existsSync(join(templateDir(entry.template.dir), entry.template.file));
}

/** The template of the peer-parse entry `key` over its vocabulary, and its probe. */
export function probeEntry(key: string): { tok: TemplateTokenizer; probe: ReturnType<typeof probeTemplate> } {
  const entry: FormatEntry | undefined = formats().templates[key];
  if (entry === undefined) throw new Error(`no ${key} entry`);
  const { tok } = loadFormat(entry);
  return { tok, probe: probeTemplate(tok) };
}

/** The shared templates whose derived output name includes `fragment` ("file: name" with `withName`). */
export function claimedBy(fragment: string, withName = false): string[] {
  return [...derivedNames()]
    .filter(([, name]) => name.includes(fragment))
    .map(([f, name]) => (withName ? `${f}: ${name}` : f));
}

type DerivedGrammar = ReturnType<typeof probeTemplate>["output"]["grammar"];

/** The grammar has a block with these fields, opened by the marker `open` and closed by `close`. */
export function expectBlock(
  grammar: DerivedGrammar,
  open: string,
  close: string,
  block: NonNullable<DerivedGrammar["blocks"]>[number],
): void {
  expect(grammar.markers[open], open).toEqual({ move: "block-open", block: block.name });
  expect(grammar.markers[close], close).toEqual({ move: "block-close", block: block.name });
  expect(grammar.blocks).toContainEqual(block);
}
