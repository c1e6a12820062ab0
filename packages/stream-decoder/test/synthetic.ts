// A small synthetic SentencePiece-like text model: IDs 0..2 are unk, bos, eos, 3..258 byte pieces,
// then the given text pieces ("▁" = space). Enough to drive every format's grammar without the real files.
import { type DecodeTable, type TextModel, TokenKind } from "@chatwire/tokenizer";

export interface Synthetic {
  readonly model: TextModel;
  /** Greedy longest-match encoding (not a real tokenizer: a way to get IDs for a string). */
  enc(text: string, atStart?: boolean): number[];
}

export function synthetic(pieces: readonly string[], dummyPrefix: boolean): Synthetic {
  const size = 259 + pieces.length;
  const kind = new Uint8Array(size);
  const text: string[] = new Array(size).fill("");
  const textAtStart: string[] = new Array(size).fill("");
  const bytes: (Uint8Array | undefined)[] = new Array(size).fill(undefined);
  kind[0] = TokenKind.Text;
  text[0] = textAtStart[0] = " ⁇ ";
  kind[1] = kind[2] = TokenKind.Control;
  for (let b = 0; b < 256; b++) {
    kind[3 + b] = TokenKind.Bytes;
    bytes[3 + b] = Uint8Array.of(b);
  }
  pieces.forEach((p, i) => {
    const id = 259 + i;
    kind[id] = TokenKind.Text;
    text[id] = p.replaceAll("▁", " ");
    textAtStart[id] = dummyPrefix && p.startsWith("▁") ? p.slice(1).replaceAll("▁", " ") : text[id];
  });
  const table: DecodeTable = {
    size,
    kind,
    text,
    textAtStart,
    bytes,
    invalidUtf8: "per-byte",
    startEnds: dummyPrefix ? "first-non-control" : "never",
  };
  // SentencePiece's default specials at 0..2 (unk, bos, eos), then the text pieces.
  const byPiece = new Map([
    ["<unk>", 0],
    ["<s>", 1],
    ["</s>", 2],
    ...pieces.map((p, i) => [p, 259 + i] as const),
  ]);
  const model: TextModel = {
    family: "sentencepiece",
    vocabSize: size,
    encode: () => {
      throw new Error("not used");
    },
    decode: () => {
      throw new Error("not used");
    },
    idToPiece: () => undefined,
    pieceToId: (p) => byPiece.get(p),
    blocked: new Set(),
    literalPieces: new Map(),
    decodeTable: table,
  };
  const utf8 = new TextEncoder();
  const enc = (s: string, atStart = false): number[] => {
    const src = (atStart && dummyPrefix ? " " : "") + s;
    const t = src.replaceAll(" ", "▁");
    const out: number[] = [];
    let i = 0;
    while (i < t.length) {
      let best = "";
      for (const p of pieces) if (p.length > best.length && t.startsWith(p, i)) best = p;
      if (best !== "") {
        out.push(byPiece.get(best) as number);
        i += best.length;
        continue;
      }
      const cp = t.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp === 0x2581 ? 0x20 : cp);
      for (const b of utf8.encode(ch)) out.push(3 + b);
      i += ch.length;
    }
    return out;
  };
  return { model, enc };
}

export const WORDS = [
  "▁Hello",
  "▁world",
  "Hello",
  "▁",
  "!",
  "```",
  "python",
  "tool_call",
  "(",
  ")",
  "=",
  '"',
  "get_weather",
  "interpreter",
  "▁name",
  "name",
  "environment",
  "assistant",
  "{",
  "}",
  ":",
  ",",
];
