// Picks the family of a set of tokenizer files from the definitions' Detection data alone
// (families/index.ts): the families are tried by Detection.priority (higher first, list order
// among equals); the first whose conditions all hold (or those of one of its alternatives) wins.
// Linear in the files' added tokens and template length; no family is named here.

import { quote, TokenizerError } from "../errors.ts";
import type { AddedTokenDecl, TokenizerConfig } from "../load/config.ts";
import type { Detection, FamilyDefinition } from "./definition.ts";
import { FAMILIES } from "./index.ts";

export interface DetectionInput {
  readonly config: TokenizerConfig;
  /** Added tokens of the config and of tokenizer.json (when read). */
  readonly addedTokens: readonly AddedTokenDecl[];
  /** Every chat template source of the files (config chat_template entries, chat_template.jinja). */
  readonly templates: readonly string[];
  /** The name of the model file the files present (Detection.modelFiles). */
  readonly modelFile?: string;
  /** The version the model file states (tekken.json config.version; Detection.modelVersions). */
  readonly modelVersion?: string;
  /** The model file as errors name it (a path or URL; default modelFile). */
  readonly modelLabel?: string;
}

function holds(d: Detection, input: DetectionInput, byId: ReadonlyMap<number, string>): boolean {
  const cls = input.config.tokenizerClass;
  if (
    d.tokenizerClass !== undefined &&
    !d.tokenizerClass.some((c) => (c === "" ? cls === undefined || cls === "" : cls?.startsWith(c) === true))
  )
    return false;
  for (const t of d.addedTokens ?? []) {
    const ok =
      t.id === undefined
        ? input.addedTokens.some((a) => a.content === t.content)
        : byId.get(t.id) === t.content;
    if (!ok) return false;
  }
  if (
    d.modelFiles !== undefined &&
    (input.modelFile === undefined || !d.modelFiles.includes(input.modelFile))
  )
    return false;
  if (
    d.modelVersions !== undefined &&
    (input.modelVersion === undefined || !d.modelVersions.includes(input.modelVersion))
  )
    return false;
  const needs = d.templateIncludes ?? [];
  if (needs.length > 0 && !input.templates.some((src) => needs.every((s) => src.includes(s)))) return false;
  const ifAny = d.templateIfPresentIncludes ?? [];
  if (
    ifAny.length > 0 &&
    input.templates.length > 0 &&
    !input.templates.some((src) => ifAny.every((s) => src.includes(s)))
  )
    return false;
  return true;
}

function matches(d: Detection, input: DetectionInput, byId: ReadonlyMap<number, string>): boolean {
  return holds(d, input, byId) || (d.alternatives ?? []).some((a) => holds(a, input, byId));
}

/** The detected family; TokenizerError("unknown-format") listing the known ones. */
export function detectFamily(
  input: DetectionInput,
  families: readonly FamilyDefinition[] = FAMILIES,
): FamilyDefinition {
  const byId = new Map<number, string>();
  for (const t of input.addedTokens) if (!byId.has(t.id)) byId.set(t.id, t.content);
  const ordered = families
    .map((f, i) => ({ f, i }))
    .sort((a, b) => (b.f.detect.priority ?? 0) - (a.f.detect.priority ?? 0) || a.i - b.i);
  for (const { f } of ordered) if (matches(f.detect, input, byId)) return f;
  const names = families.map((f) => f.name);
  const { file, why } = noMatch(input, families);
  throw new TokenizerError("unknown-format", `${file}: ${why}; pass a format: ${names.join(", ")}`, {
    file,
    formats: names,
  });
}

/**
 * What an unknown-format error names: a model file the families tell apart by the version it
 * states (tekken.json), with a version none of them reads; else the config's tokenizer class.
 */
function noMatch(
  input: DetectionInput,
  families: readonly FamilyDefinition[],
): { file: string; why: string } {
  const model = input.modelFile;
  const versions: string[] = [];
  if (model !== undefined && input.modelVersion !== undefined)
    for (const f of families)
      for (const d of [f.detect, ...(f.detect.alternatives ?? [])])
        if (d.modelFiles?.includes(model) === true)
          for (const v of d.modelVersions ?? []) if (!versions.includes(v)) versions.push(v);
  if (versions.length > 0)
    return {
      file: input.modelLabel ?? (model as string),
      why: `version ${quote(String(input.modelVersion))} is not one a format reads (${versions.join(", ")})`,
    };
  const cls = input.config.tokenizerClass;
  return {
    file: input.config.file,
    why:
      cls === undefined || cls === null
        ? "cannot tell the chat format (no tokenizer_class, and no family's tokens are in the vocabulary)"
        : `cannot tell the chat format (tokenizer_class ${quote(String(cls))})`,
  };
}

/** The family called `name`; TokenizerError("unknown-format") listing the known ones. */
export function familyByName(
  name: string,
  families: readonly FamilyDefinition[] = FAMILIES,
): FamilyDefinition {
  const f = typeof name === "string" ? families.find((d) => d.name === name) : undefined;
  if (f !== undefined) return f;
  const names = families.map((d) => d.name);
  throw new TokenizerError(
    "unknown-format",
    `unknown format ${quote(String(name))}; expected one of ${names.join(", ")}`,
    { formats: names },
  );
}
