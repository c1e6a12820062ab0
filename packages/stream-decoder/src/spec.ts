// The compiled, immutable decoder spec: every table the hot path reads, resolved once per
// (text model, format) and shared by all streams. The per-token work is then one array
// read (the ID's class) and one switch on a small integer.
import {
  CHATGLM3_EOS,
  CHATGLM3_IDS,
  CHATGLM3_RESERVED,
  type DecodeTable,
  type FormatName,
  GPTOSS_EOS,
  GPTOSS_FIRST_ADDED,
  GPTOSS_IDS,
  GPTOSS_LAST_ADDED,
  GPTOSS_RESERVED,
  INTERNLM2_EOS,
  INTERNLM2_IDS,
  INTERNLM2_RESERVED,
  type LegacyFormatName,
  QWEN3_EOS,
  QWEN3_FIRST_ADDED,
  QWEN3_IDS,
  QWEN3_LAST_ADDED,
  QWEN3_RESERVED,
  type TextModel,
  TokenKind,
} from "@chatwire/tokenizer";

/** ID classes. Text classes first; markers are format-neutral roles. */
export const Cls = {
  /** Text piece not ending in "\n". */
  Text: 0,
  /** Text piece ending in "\n" (only matters where the format strips newlines). */
  TextNl: 1,
  /** Raw bytes (byte fallback / partial UTF-8 tokens). */
  Bytes: 2,
  /** Decodes to "" (control pieces, empty text). */
  Control: 3,
  /** Not an ID of this model. */
  OutOfRange: 4,
  /** An EOS ID that is not one of the format's markers (e.g. a caller-chosen text ID). */
  EosPlain: 5,
  MsgStart: 6,
  MsgEnd: 7,
  ActionStart: 8,
  KindPlugin: 9,
  KindInterpreter: 10,
  ActionEnd: 11,
  ToolCall: 12,
  ToolCallEnd: 13,
  Think: 14,
  ThinkEnd: 15,
  /** ChatGLM3 <|assistant|> / <|user|> / <|observation|>: a new segment with that role. */
  Role: 16,
  /** End of text (</s>, <|endoftext|>): a stop if it is EOS, else misplaced. */
  EndOfText: 17,
  /** Any other reserved ID (BOS, [MASK], sop, <tool_response>, ...): never valid in a generation. */
  Misplaced: 18,
} as const;

export interface DecoderSpecOptions {
  /** Replaces the format's EOS IDs (default: reserved.ts). E.g. [] to decode several messages. */
  readonly eosIds?: readonly number[];
  /** Qwen3: the prompt already opened <think> (thinking-only models), so decoding starts in reasoning. */
  readonly startInReasoning?: boolean;
}

/** A native family, or "template": a grammar found by probing a chat template (./template-spec.ts). */
export type DecoderFormat = FormatName | "template";

export interface DecoderSpec {
  readonly format: DecoderFormat;
  /** Class per ID, for IDs in [0, classes.length). */
  readonly classes: Uint8Array;
  /** 1 where the ID is an EOS ID. */
  readonly eos: Uint8Array;
  readonly eosIds: readonly number[];
  readonly text: readonly string[];
  readonly textAtStart: readonly string[];
  readonly bytes: readonly (Uint8Array | undefined)[];
  readonly invalidUtf8: "per-byte" | "maximal-subpart";
  readonly startEnds: DecodeTable["startEnds"];
  /** SentencePiece flushes held bytes at ANY non-byte piece; byte-level only at text. */
  readonly controlFlushes: boolean;
  /** Role name per ChatGLM3 role marker. */
  readonly roleOf: ReadonlyMap<number, string>;
  /** Display name per reserved ID (error messages). */
  readonly reservedName: ReadonlyMap<number, string>;
  readonly startInReasoning: boolean;
}

/** The decoder class of each reserved ID that has a role in the format's grammar; [id, class]. */
function markerClasses(format: LegacyFormatName): Array<readonly [number, number]> {
  const C = Cls;
  switch (format) {
    case "internlm2": {
      const I = INTERNLM2_IDS;
      return [
        [I.bos, C.Misplaced],
        [I.eos, C.EndOfText],
        [I.imStart, C.MsgStart],
        [I.imEnd, C.MsgEnd],
        [I.actionStart, C.ActionStart],
        [I.actionEnd, C.ActionEnd],
        [I.plugin, C.KindPlugin],
        [I.interpreter, C.KindInterpreter],
      ];
    }
    case "chatglm3": {
      const G = CHATGLM3_IDS;
      return [
        [G.eos, C.EndOfText],
        [G.mask, C.Misplaced],
        [G.gmask, C.Misplaced],
        [G.smask, C.Misplaced],
        [G.sop, C.Misplaced],
        [G.eop, C.Misplaced],
        [G.system, C.Misplaced],
        [G.user, C.Role],
        [G.assistant, C.Role],
        [G.observation, C.Role],
      ];
    }
    case "qwen3": {
      const Q = QWEN3_IDS;
      const out: Array<readonly [number, number]> = [];
      for (let id = QWEN3_FIRST_ADDED; id <= QWEN3_LAST_ADDED; id++) out.push([id, C.Misplaced]);
      out.push(
        [Q.endOfText, C.EndOfText],
        [Q.imStart, C.MsgStart],
        [Q.imEnd, C.MsgEnd],
        [Q.toolCall, C.ToolCall],
        [Q.toolCallEnd, C.ToolCallEnd],
        [Q.think, C.Think],
        [Q.thinkEnd, C.ThinkEnd],
      );
      return out;
    }
    case "gpt-oss": {
      // The harmony grammar (./harmony-decoder.ts) reads the marker IDs themselves.
      const out: Array<readonly [number, number]> = [];
      for (let id = GPTOSS_FIRST_ADDED; id <= GPTOSS_LAST_ADDED; id++) out.push([id, C.Misplaced]);
      out.push(
        [GPTOSS_IDS.endOfText, C.EndOfText],
        [GPTOSS_IDS.start, C.MsgStart],
        [GPTOSS_IDS.end, C.MsgEnd],
      );
      return out;
    }
  }
}

/** Token names come from the reserved tables of @chatwire/tokenizer (one source of truth). */
const RESERVED_TABLE: Readonly<Record<LegacyFormatName, ReadonlyArray<readonly [string, number]>>> = {
  internlm2: INTERNLM2_RESERVED,
  chatglm3: [["</s>", CHATGLM3_IDS.eos], ...CHATGLM3_RESERVED],
  qwen3: QWEN3_RESERVED,
  "gpt-oss": GPTOSS_RESERVED,
};

const DEFAULT_EOS: Readonly<Record<LegacyFormatName, readonly number[]>> = {
  internlm2: INTERNLM2_EOS,
  chatglm3: CHATGLM3_EOS,
  qwen3: QWEN3_EOS,
  "gpt-oss": GPTOSS_EOS,
};

export function compileDecoderSpec(
  model: TextModel,
  formatName: FormatName,
  options: DecoderSpecOptions = {},
): DecoderSpec {
  // Families are strings now (core-tok); these static tables only know the first four.
  if (!Object.hasOwn(DEFAULT_EOS, formatName))
    throw new TypeError(`no static decoder tables for ${formatName}`);
  const format = formatName as LegacyFormatName;
  const reservedName = new Map<number, string>();
  for (const [name, id] of RESERVED_TABLE[format]) reservedName.set(id, name);
  return buildDecoderSpec(model, format, markerClasses(format), reservedName, {
    eosIds: options.eosIds ?? DEFAULT_EOS[format],
    startInReasoning: options.startInReasoning === true && format === "qwen3",
  });
}

/** The shared table builder: text classes from the decode table, then the format's markers. */
export function buildDecoderSpec(
  model: TextModel,
  format: DecoderFormat,
  markers: ReadonlyArray<readonly [number, number]>,
  reservedName: ReadonlyMap<number, string>,
  options: { readonly eosIds: readonly number[]; readonly startInReasoning: boolean },
): DecoderSpec {
  const table = model.decodeTable;
  const eosIds = [...options.eosIds];
  let end = table.size;
  for (const [id] of markers) end = Math.max(end, id + 1);
  for (const id of eosIds) {
    if (!Number.isInteger(id) || id < 0) throw new TypeError(`EOS id ${id} is not a non-negative integer`);
    end = Math.max(end, id + 1);
  }
  const classes = new Uint8Array(end).fill(Cls.OutOfRange);
  for (let id = 0; id < table.size; id++) {
    const k = table.kind[id];
    if (k === TokenKind.Bytes) classes[id] = Cls.Bytes;
    else if (k === TokenKind.Text) {
      const t = table.text[id] ?? "";
      const t0 = table.textAtStart[id] ?? "";
      if (t === "" && t0 === "") classes[id] = Cls.Control;
      else classes[id] = t.endsWith("\n") || t0.endsWith("\n") ? Cls.TextNl : Cls.Text;
    } else classes[id] = Cls.Control;
  }
  const roleOf = new Map<number, string>();
  for (const [id, cls] of markers) {
    classes[id] = cls;
    if (cls === Cls.Role) roleOf.set(id, (reservedName.get(id) as string).slice(2, -2));
  }
  const eos = new Uint8Array(end);
  for (const id of eosIds) {
    eos[id] = 1;
    const c = classes[id] as number;
    if (c <= Cls.OutOfRange) classes[id] = Cls.EosPlain;
  }
  return Object.freeze({
    format,
    classes,
    eos,
    eosIds: Object.freeze(eosIds),
    text: table.text,
    textAtStart: table.textAtStart,
    bytes: table.bytes,
    invalidUtf8: table.invalidUtf8,
    startEnds: table.startEnds,
    controlFlushes: model.family === "sentencepiece",
    roleOf,
    reservedName,
    startInReasoning: options.startInReasoning,
  });
}
