// decode: {"ids": [...]} -> {"events": [...]} (docs/cli-contract.md "decode"). The tokens after
// the prompt, fed one ID at a time to a fresh decoder; the spec is compiled once per process.

import {
  compileDecoderSpecFor,
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  type DecoderSpec,
  eventHandler,
  MAX_STOP_STRING_LENGTH,
  MAX_STOP_STRINGS,
} from "@chatwire/stream-decoder";
import { probeTemplate, type TextModel, TokenizerError } from "@chatwire/tokenizer";
import { getFlag, getInt, getInts, getStrings, type ParsedOptions, UsageError } from "../args.ts";
import type { Command } from "../command.ts";
import { LineError } from "../command.ts";
import { CHAT_FORMAT_OPTION, CHAT_TEMPLATE_OPTION, loadChatTokenizerOption } from "../template-option.ts";
import { TOKENIZER_OPTIONS } from "../tokenizer-option.ts";
import { toolsOfLine } from "./decode-tools.ts";
import { inputObject } from "./input.ts";

export const command: Command = {
  name: "decode",
  summary: "decode generated token IDs into message/text/action/stop events",
  options: {
    ...TOKENIZER_OPTIONS,
    ...CHAT_FORMAT_OPTION,
    ...CHAT_TEMPLATE_OPTION,
    stop: { kind: "string[]", description: "a stop string (repeatable)" },
    "stop-token": {
      kind: "int[]",
      description: "a stop token ID, added to the format's EOS IDs (repeatable)",
    },
    "max-tokens": { kind: "int", description: "stop after this many IDs" },
    "include-stop-str": { kind: "flag", description: "emit the matched stop string as text before the stop" },
    "stream-tool-calls": {
      kind: "flag",
      description: "also emit tool_call_name / tool_call_arguments events (OpenAI-style streaming)",
    },
  },
  jsonl: true,
  async prepare(opts) {
    const stopStrings = getStrings(opts, "stop");
    if (stopStrings.includes(""))
      throw new UsageError("--stop takes a non-empty string", "invalid-option-value");
    // The decoder's documented limits (docs/decoder.md): a usage error here, not its TypeError.
    if (stopStrings.length > MAX_STOP_STRINGS)
      throw new UsageError(
        `at most ${MAX_STOP_STRINGS} --stop strings (got ${stopStrings.length})`,
        "invalid-option-value",
      );
    if (stopStrings.some((s) => s.length > MAX_STOP_STRING_LENGTH))
      throw new UsageError(
        `a --stop string is at most ${MAX_STOP_STRING_LENGTH} UTF-16 code units long`,
        "invalid-option-value",
      );
    const maxTokens = getInt(opts, "max-tokens");
    if (maxTokens !== undefined && maxTokens < 1)
      throw new UsageError("--max-tokens must be at least 1", "invalid-option-value");
    const stopTokenIds = getInts(opts, "stop-token");
    if (stopTokenIds.some((id) => id < 0))
      throw new UsageError("--stop-token takes a non-negative ID", "stop-token-out-of-vocabulary");
    const { tokenizer, spec } = await decoderSpecOption(opts);
    const vocabSize = tokenizer.textModel.vocabSize;
    const outside = stopTokenIds.find((id) => id >= vocabSize);
    if (outside !== undefined)
      throw new UsageError(
        `--stop-token ${outside} is not in the vocabulary (IDs 0..${vocabSize - 1})`,
        "stop-token-out-of-vocabulary",
      );
    const options: DecoderOptions = {
      stopStrings,
      stopTokenIds,
      includeStopString: getFlag(opts, "include-stop-str"),
      streamToolCalls: getFlag(opts, "stream-tool-calls"),
      ...(maxTokens === undefined ? {} : { maxTokens }),
    };
    // One decoder reused across lines (reset per line): the events array is swapped in. A line
    // with "tools" gets its own decoder with the tools option (the request's tools).
    let events: DecoderEvent[] = [];
    const handler = eventHandler((e) => events.push(e));
    const shared = createDecoder(spec, handler, options);
    return (input) => {
      const { ids, tools: toolsField } = inputObject(input, ["ids", "tools"]);
      if (!Array.isArray(ids))
        throw new LineError("invalid-input", '"ids" must be an array of token IDs', { field: "ids" });
      for (let i = 0; i < ids.length; i++) {
        if (!Number.isSafeInteger(ids[i])) {
          throw new LineError("invalid-input", `"ids"[${i}] is not an integer`, { field: "ids", index: i });
        }
      }
      const tools = toolsOfLine(toolsField);
      events = [];
      const decoder = tools === undefined ? shared : createDecoder(spec, handler, { ...options, tools });
      decoder.reset();
      for (const id of ids as number[]) {
        decoder.push(id);
        if (decoder.stopped) break;
      }
      decoder.end();
      return { events };
    };
  },
};

/** The spec of --format: a family's, or the probed template's (--format template / auto's fallback). */
async function decoderSpecOption(
  opts: ParsedOptions,
): Promise<{ tokenizer: { readonly textModel: TextModel }; spec: DecoderSpec }> {
  const loaded = await loadChatTokenizerOption(opts, "neutralize");
  if (loaded.kind === "native")
    return {
      tokenizer: loaded.tokenizer,
      spec: compileDecoderSpecFor(loaded.tokenizer),
    };
  try {
    return {
      tokenizer: loaded.tokenizer,
      spec: compileTemplateDecoderSpec(loaded.tokenizer.textModel, probeTemplate(loaded.tokenizer)),
    };
  } catch (err) {
    if (!TokenizerError.isInstance(err)) throw err;
    throw new UsageError(
      `the chat template cannot be probed for its markers (${err.type}): ${err.message.split("\n")[0] ?? ""}`,
      "tokenizer-load-failed",
    );
  }
}
