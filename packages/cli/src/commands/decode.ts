// decode: {"ids": [...]} or {"chunks": [[...], ...]} -> {"events": [...]} (docs/cli-contract.md
// "decode"). The tokens after the prompt, fed one ID at a time (or one pushMany per chunk) to a
// fresh decoder. The spec is compiled once per process and per start state: a line whose
// prompt-side settings (chat_template_kwargs, tools) make the generation prompt open the
// grammar's start block (e.g. <think>) starts decoding inside it. --explain prints the output
// format instead (./decode-explain.ts) and reads no input.

import {
  compileDecoderSpecFor,
  compileTemplateDecoderSpec,
  createDecoder,
  type DecoderEvent,
  type DecoderOptions,
  type DecoderSpec,
  type DecoderSpecOptions,
  eventHandler,
  MAX_STOP_STRING_LENGTH,
  MAX_STOP_STRINGS,
  promptOpensStartBlock,
} from "@chatwire/stream-decoder";
import { type ChatRequest, probeTemplate, type TextModel, TokenizerError } from "@chatwire/tokenizer";
import { getFlag, getInt, getInts, getStrings, type ParsedOptions, UsageError } from "../args.ts";
import type { Command } from "../command.ts";
import { stringifyLine } from "../json-out.ts";
import { CHAT_FORMAT_OPTION, CHAT_TEMPLATE_OPTION, loadChatTokenizerOption } from "../template-option.ts";
import { TOKENIZER_OPTIONS } from "../tokenizer-option.ts";
import { type ExplainSource, explainLine } from "./decode-explain.ts";
import { burstsOfLine, kwargsOfLine } from "./decode-line.ts";
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
      min: 0,
      description: "a stop token ID, added to the format's EOS IDs (repeatable)",
    },
    "max-tokens": { kind: "int", min: 1, description: "stop after this many IDs" },
    "include-stop-str": { kind: "flag", description: "emit the matched stop string as text before the stop" },
    "stream-tool-calls": {
      kind: "flag",
      description: "also emit tool_call_name / tool_call_arguments events (OpenAI-style streaming)",
    },
    explain: {
      kind: "flag",
      description:
        "print the output format the decoder uses (derived from the chat template, or the family's grammar) as one JSON line; reads no input",
    },
  },
  jsonl: true,
  async prepare(opts, io) {
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
    const stopTokenIds = getInts(opts, "stop-token");
    const { tokenizer, specFor, explain } = await decoderSpecOption(opts);
    if (getFlag(opts, "explain")) {
      io.stdout.write(`${stringifyLine(explainLine(explain()))}\n`);
      return null;
    }
    // Every ID the model has, reserved ones included (they may sit above the text model's pieces).
    const idCount = specFor(undefined).classes.length;
    const outside = stopTokenIds.find((id) => id >= idCount);
    if (outside !== undefined)
      throw new UsageError(
        `--stop-token ${outside} is not an ID of the model (IDs 0..${idCount - 1})`,
        "stop-token-out-of-vocabulary",
      );
    const options: DecoderOptions = {
      stopStrings,
      stopTokenIds,
      includeStopString: getFlag(opts, "include-stop-str"),
      streamToolCalls: getFlag(opts, "stream-tool-calls"),
      ...(maxTokens === undefined ? {} : { maxTokens }),
    };
    // One decoder per start state reused across lines (reset per line): the events array is
    // swapped in. A line with "tools" gets its own decoder with the tools option.
    let events: DecoderEvent[] = [];
    const handler = eventHandler((e) => events.push(e));
    const shared = new Map<DecoderSpec, ReturnType<typeof createDecoder>>();
    return (input) => {
      const line = inputObject(input, ["ids", "chunks", "tools", "chat_template_kwargs"]);
      const bursts = burstsOfLine(line.ids, line.chunks);
      const tools = toolsOfLine(line.tools);
      const kwargs = kwargsOfLine(line.chat_template_kwargs);
      // The start state: the base spec's, unless the line's prompt-side settings are given;
      // then the generation prompt they render decides (a TokenizerError is this line's error).
      let spec = specFor(undefined);
      if (tools !== undefined || kwargs !== undefined) {
        const request = {
          messages: [{ role: "user", content: "Hi" }],
          add_generation_prompt: true,
          ...(tools === undefined ? {} : { tools }),
          ...(kwargs === undefined ? {} : { chat_template_kwargs: kwargs }),
        } as unknown as ChatRequest;
        spec = specFor(promptOpensStartBlock(spec, tokenizer.encodeChat(request).ids));
      }
      events = [];
      let decoder = shared.get(spec);
      if (tools !== undefined) decoder = createDecoder(spec, handler, { ...options, tools });
      else if (decoder === undefined) {
        decoder = createDecoder(spec, handler, options);
        shared.set(spec, decoder);
      }
      decoder.reset();
      if (bursts.chunked)
        for (const chunk of bursts.ids) {
          decoder.pushMany(chunk);
          if (decoder.stopped) break;
        }
      else
        for (const id of bursts.ids[0] ?? []) {
          decoder.push(id);
          if (decoder.stopped) break;
        }
      decoder.end();
      return { events };
    };
  },
};

interface ChatEncoder {
  readonly textModel: TextModel;
  encodeChat(request: ChatRequest): { readonly ids: readonly number[] };
}

/**
 * The spec of --format: a family's, or the probed template's (--format template / auto's
 * fallback), per start state (undefined: the format's default), compiled once each.
 */
async function decoderSpecOption(opts: ParsedOptions): Promise<{
  tokenizer: ChatEncoder;
  specFor: (startInReasoning: boolean | undefined) => DecoderSpec;
  /** What --explain prints (everything but the start state, which needs the spec). */
  explain: () => ExplainSource;
}> {
  const loaded = await loadChatTokenizerOption(opts, "neutralize");
  let compile: (o: DecoderSpecOptions) => DecoderSpec;
  let source: () => Omit<ExplainSource, "startsInReasoning">;
  if (loaded.kind === "native") {
    const tok = loaded.tokenizer;
    compile = (o) => compileDecoderSpecFor(tok, o);
    source = () => ({
      source: "native",
      name: tok.format,
      grammar: tok.family.grammar,
      ids: tok.tokenIds,
      names: tok.registry.nameById,
      evidence: [],
      eosIds: tok.registry.eosIds,
      endOfTurn: undefined,
    });
  } else {
    const tok = loaded.tokenizer;
    let probe: ReturnType<typeof probeTemplate>;
    try {
      probe = probeTemplate(tok);
    } catch (err) {
      if (!TokenizerError.isInstance(err)) throw err;
      throw new UsageError(
        `the chat template cannot be probed for its markers (${err.type}): ${err.message.split("\n")[0] ?? ""}`,
        "tokenizer-load-failed",
      );
    }
    compile = (o) => compileTemplateDecoderSpec(tok.textModel, probe, o);
    source = () => ({
      source: "template",
      name: probe.output.name,
      grammar: probe.output.grammar,
      ids: probe.output.ids,
      names: probe.names,
      evidence: probe.output.evidence,
      eosIds: probe.eosIds,
      endOfTurn: probe.endOfTurn ?? undefined,
    });
  }
  const specs = new Map<boolean | undefined, DecoderSpec>();
  const specFor = (startInReasoning: boolean | undefined): DecoderSpec => {
    let s = specs.get(startInReasoning);
    if (s === undefined) {
      s = compile(startInReasoning === undefined ? {} : { startInReasoning });
      specs.set(startInReasoning, s);
    }
    return s;
  };
  specFor(undefined);
  const tokenizer = loaded.tokenizer as ChatEncoder;
  const explain = (): ExplainSource => ({
    ...source(),
    startsInReasoning: startsInReasoning(tokenizer, specFor(undefined)),
  });
  return { tokenizer, specFor, explain };
}

/** Whether a one-message conversation's generation prompt opens the start block (undefined: refused). */
function startsInReasoning(tok: ChatEncoder, spec: DecoderSpec): boolean | undefined {
  const request = {
    messages: [{ role: "user", content: "Hi" }],
    add_generation_prompt: true,
  } as unknown as ChatRequest;
  try {
    return promptOpensStartBlock(spec, tok.encodeChat(request).ids);
  } catch (err) {
    if (TokenizerError.isInstance(err)) return undefined;
    throw err;
  }
}
