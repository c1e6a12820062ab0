// Loads a model directory for the "template" format: tokenizer.json (byte-level BPE; every added
// token blocked in the ordinary encoder), tokenizer_config.json, and the chat template —
// `options.chatTemplate` (the CLI's --chat-template FILE), else chat_template.jinja beside the
// config, else the config's `chat_template` (a string, or a named list: "default", plus
// "tool_use" chosen when the request has tools, as transformers does).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadByteLevelModel, scanTokenizerJson } from "../bytelevel/index.ts";
import { parseTokenizerConfig } from "../config.ts";
import { TokenizerError } from "../errors.ts";
import type { AddedToken } from "./reserved-set.ts";
import {
  createTemplateTokenizer,
  type TemplateSources,
  type TemplateTokenizer,
  type TemplateTokenizerOptions,
} from "./tokenizer.ts";

export interface TemplateLoadOptions extends TemplateTokenizerOptions {
  /** Template source text overriding the directory's. */
  readonly chatTemplate?: string;
}

function read(path: string): string {
  if (!existsSync(path)) throw new TokenizerError("file-not-found", `${path} does not exist`, { file: path });
  try {
    return readFileSync(path, "utf8");
  } catch {
    throw new TokenizerError("bad-tokenizer-file", `${path} cannot be read`, { file: path });
  }
}

/** The config's chat_template as sources (string or named list). */
export function templateSources(
  raw: Readonly<Record<string, unknown>>,
  file: string,
): TemplateSources | undefined {
  const v = raw.chat_template;
  if (typeof v === "string") return { default: v };
  if (Array.isArray(v)) {
    const named = new Map<string, string>();
    for (const e of v) {
      const name = (e as { name?: unknown }).name;
      const template = (e as { template?: unknown }).template;
      if (typeof name === "string" && typeof template === "string") named.set(name, template);
    }
    const dflt = named.get("default");
    const toolUse = named.get("tool_use");
    if (dflt === undefined && toolUse === undefined)
      throw new TokenizerError("bad-tokenizer-file", `${file}: chat_template list has no "default" entry`, {
        file,
        field: "chat_template",
      });
    return { default: dflt ?? (toolUse as string), ...(toolUse === undefined ? {} : { toolUse }) };
  }
  return undefined;
}

export function loadTemplateTokenizerSync(dir: string, options: TemplateLoadOptions = {}): TemplateTokenizer {
  const configPath = join(dir, "tokenizer_config.json");
  const config = parseTokenizerConfig(read(configPath), configPath);
  const jinjaPath = join(dir, "chat_template.jinja");
  const templates: TemplateSources | undefined =
    options.chatTemplate !== undefined
      ? { default: options.chatTemplate }
      : existsSync(jinjaPath)
        ? { default: read(jinjaPath) }
        : templateSources(config.raw, configPath);
  if (templates === undefined)
    throw new TokenizerError(
      "file-not-found",
      `${dir} has no chat template (chat_template.jinja or tokenizer_config.json chat_template)`,
      {
        file: configPath,
      },
    );
  const modelFile = join(dir, "tokenizer.json");
  if (!existsSync(modelFile)) {
    throw new TokenizerError(
      existsSync(join(dir, "tokenizer.model")) ? "bad-tokenizer-file" : "file-not-found",
      `${modelFile} does not exist (the template format reads tokenizer.json; tokenizer.model alone is not supported yet)`,
      { file: modelFile },
    );
  }
  const text = read(modelFile);
  const scanned = scanTokenizerJson(text);
  let json: unknown;
  try {
    json = scanned?.rest ?? JSON.parse(text);
  } catch (e) {
    throw new TokenizerError(
      "bad-tokenizer-file",
      `${modelFile} is not valid JSON: ${e instanceof Error ? e.message : ""}`,
      {
        file: modelFile,
      },
    );
  }
  const added = new Map<number, AddedToken>();
  const list = (json as { added_tokens?: unknown }).added_tokens;
  if (Array.isArray(list))
    for (const t of list) {
      const { id, content, special } = t as { id?: unknown; content?: unknown; special?: unknown };
      if (typeof id === "number" && typeof content === "string")
        added.set(id, { id, content, special: special === true });
    }
  for (const t of config.addedTokens) if (!added.has(t.id)) added.set(t.id, t);
  // apply_chat_template encodes with add_special_tokens=False: the post-processor (Llama 3's
  // TemplateProcessing that adds <|begin_of_text|>) never runs, so it is not loaded either.
  if (typeof json === "object" && json !== null && "post_processor" in json)
    json = { ...(json as Record<string, unknown>), post_processor: null };
  const textModel = loadByteLevelModel(json as object, {
    file: modelFile,
    blocked: new Set(added.keys()),
    ...(scanned === undefined ? {} : { scanned }),
  });
  return createTemplateTokenizer({
    textModel,
    config,
    addedTokens: [...added.values()].sort((a, b) => a.id - b.id),
    templates,
    options,
  });
}
