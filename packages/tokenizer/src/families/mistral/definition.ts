// Mistral (mistral-common's instruct tokenizers): the family as data, one definition per
// tokenizer version. The SentencePiece files of every version keep the control pieces at the
// same IDs (./tokens.ts), fixed here and checked against the file's pieces at load; the
// renderer is ./render.ts, the decoder grammar ./grammar.ts.
import type { FamilyDefinition } from "../definition.ts";
import { grammar } from "./grammar.ts";
import { renderMistral } from "./render.ts";
import { KEYS_OF, type MistralKey, type MistralVersion, SPM_IDS, type SpmVersion, TOKENS } from "./tokens.ts";

/** The Mistral model file of each version as Mistral's repositories name it. */
export const MODEL_FILE_OF: Readonly<Record<SpmVersion, string>> = {
  1: "tokenizer.model.v1",
  2: "tokenizer.model.v2",
  3: "tokenizer.model.v3",
  7: "tokenizer.model.v7",
};

/**
 * Version `v`'s render: a call to renderMistral per render, not a renderer made here (the
 * definitions load with the package, ./render.ts with the first Mistral render).
 */
function renderOf(v: MistralVersion): FamilyDefinition<MistralKey>["render"] {
  return (request, sink, ids) => renderMistral(v, request, sink, ids);
}

function definitionOf(v: SpmVersion): FamilyDefinition<MistralKey> {
  const keys = KEYS_OF[v];
  const fixedIds: Partial<Record<MistralKey, number>> = {};
  for (const k of keys) if (k in SPM_IDS) fixedIds[k] = SPM_IDS[k as keyof typeof SPM_IDS];
  return {
    name: `mistral-v${v}`,
    title: `Mistral (tokenizer v${v})`,
    tokens: TOKENS,
    optionalTokens: (Object.keys(TOKENS) as MistralKey[]).filter((k) => !keys.includes(k)),
    fixedIds,
    detect: { modelFiles: [MODEL_FILE_OF[v]], priority: 10 },
    reserved: { allAddedTokens: true, vocabSize: v === 1 ? 32000 : 32768 },
    eos: ["eos"],
    render: renderOf(v),
    grammar: grammar(v),
  };
}

/**
 * The tekken tokenizers of a version: the same rendering over a tekken.json whose special-token
 * table gives the IDs (resolved by string, every entry reserved).
 */
function tekkenDefinitionOf(v: MistralVersion): FamilyDefinition<MistralKey> {
  const keys = KEYS_OF[v];
  return {
    name: `mistral-tekken-v${v}`,
    title: `Mistral (tekken tokenizer v${v})`,
    tokens: TOKENS,
    optionalTokens: (Object.keys(TOKENS) as MistralKey[]).filter((k) => !keys.includes(k)),
    detect: { modelFiles: ["tekken.json"], modelVersions: [`v${v}`], priority: 10 },
    // The "<SPECIAL_N>" fillers of the table are reserved but are names no format writes: caller
    // text spelling one is plain text, not audited as a marker.
    reserved: { allAddedTokens: true, notAudited: FILLERS },
    eos: ["eos"],
    render: renderOf(v),
    grammar: grammar(v),
  };
}

/** mistral-common's names for the unused special-token IDs (tekken files have 1000 IDs at most). */
const FILLERS: readonly string[] = Array.from({ length: 1000 }, (_, i) => `<SPECIAL_${i}>`);

export const definitions: readonly FamilyDefinition<MistralKey>[] = [
  ...([1, 2, 3, 7] as const).map(definitionOf),
  ...([3, 7, 11, 13] as const).map(tekkenDefinitionOf),
];
