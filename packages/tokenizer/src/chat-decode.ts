// ChatTokenizer.decode: IDs back to text with the format's reserved IDs shown as their names
// ("show") or dropped ("skip"). In both modes each run of ordinary IDs between reserved IDs is
// decoded as ONE reference decode call (textModel.decode), because the formats encode the text
// between markers with separate encoder calls (docs/formats.md); e.g. a SentencePiece run after
// a marker decodes with the dummy-prefix rule at its start. Note: "skip" drops EVERY reserved
// ID, including Qwen3's non-special <think>/<tool_call> that HF's skip_special_tokens keeps.
// Linear in the number of IDs; bad input is TokenizerError("invalid-argument").

import type { ReservedRegistry } from "./chat/reserved.ts";
import { TokenizerError } from "./errors.ts";
import type { TextModel } from "./models/text-model.ts";

export type SpecialTokensMode = "show" | "skip";

export interface DecodeOptions {
  /** Reserved IDs: "skip" (default) drops them, "show" writes their names (e.g. "<|im_end|>"). */
  readonly specialTokens?: SpecialTokensMode;
}

function badIds(message: string, index?: number): TokenizerError {
  return new TokenizerError("invalid-argument", message, index === undefined ? {} : { index });
}

export function decodeIds(
  textModel: TextModel,
  registry: ReservedRegistry,
  ids: readonly number[],
  options: DecodeOptions = {},
): string {
  const mode = options.specialTokens ?? "skip";
  if (mode !== "show" && mode !== "skip")
    throw badIds(`decode: specialTokens must be "show" or "skip", not ${JSON.stringify(mode)}`);
  if (!Array.isArray(ids)) throw badIds("decode: ids must be an array of token IDs");
  const end = registry.vocabEnd;
  let out = "";
  let run: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= end)
      throw badIds(`decode: ids[${i}] is not a token ID of this tokenizer (0..${end - 1})`, i);
    if (!registry.ids.has(id)) {
      if (id >= textModel.vocabSize)
        throw badIds(`decode: ids[${i}] is not a token ID of this tokenizer's text model`, i);
      run.push(id);
      continue;
    }
    if (run.length > 0) out += textModel.decode(run);
    run = [];
    if (mode === "show") out += registry.nameById.get(id) ?? "";
  }
  if (run.length > 0) out += textModel.decode(run);
  return out;
}
