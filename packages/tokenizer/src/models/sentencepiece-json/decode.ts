// The decoder chain of a SentencePiece-converted tokenizer.json (a re-implementation of HF
// tokenizers' decoders, checked against the Rust crate by test/spjson-crosscheck.test.ts):
// each step maps the token list, then the tokens are joined. Plus the stream decoder's table.
//
// ByteFallback (tokenizers/src/decoders/byte_fallback.rs): a maximal run of <0xNN> tokens
// becomes its bytes when they are valid UTF-8 as a whole, else ONE U+FFFD PER BYTE of the run
// (so [E4 BD A0 FF] is four U+FFFD, not "你" + U+FFFD). The stream table can only say
// "per-byte" (SentencePiece's rule), which agrees except for a run that mixes valid sequences
// with invalid bytes; the template stream decoder resolves whole runs in front of it
// (stream-decoder template-decoding/byte-run.ts, docs/templates.md "Decoding").

import { type DecodeTable, TokenKind } from "../text-model.ts";
import type { DecoderStep } from "./spec.ts";

const REPLACEMENT = "\uFFFD";

/** The byte of a "<0xNN>" token as Rust's u8::from_str_radix(&token[3..5], 16) reads it, or -1. */
export function byteOfToken(token: string): number {
  if (token.length !== 6 || !token.startsWith("<0x") || token.charCodeAt(5) !== 0x3e) return -1;
  const hex = token.slice(3, 5);
  if (!/^(?:[0-9A-Fa-f]{2}|\+[0-9A-Fa-f])$/.test(hex)) return -1;
  return Number.parseInt(hex.replace("+", ""), 16);
}

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function byteFallback(tokens: readonly string[]): string[] {
  const out: string[] = [];
  const run: number[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    try {
      out.push(fatal.decode(Uint8Array.from(run)));
    } catch {
      for (let i = 0; i < run.length; i++) out.push(REPLACEMENT);
    }
    run.length = 0;
  };
  for (const t of tokens) {
    const b = byteOfToken(t);
    if (b >= 0) run.push(b);
    else {
      flush();
      out.push(t);
    }
  }
  flush();
  return out;
}

function strip(token: string, content: string, start: number, stop: number): string {
  const chars = [...token];
  let from = 0;
  for (let i = 0; i < Math.min(start, chars.length); i++) {
    if (chars[i] !== content) break;
    from = i + 1;
  }
  let to = chars.length;
  for (let i = 0; i < stop && chars.length - i - 1 >= from; i++) {
    if (chars[chars.length - i - 1] !== content) break;
    to = chars.length - i - 1;
  }
  return chars.slice(from, to).join("");
}

/** HF Decoder::decode: the chain over the token strings, then their concatenation. */
export function decodeTokens(steps: readonly DecoderStep[], tokens: readonly string[]): string {
  let list: readonly string[] = tokens;
  for (const s of steps) {
    if (s.kind === "replace") list = list.map((t) => t.split(s.from).join(s.to));
    else if (s.kind === "metaspace")
      // HF Metaspace::decode_chain: every replacement character becomes " ", except in the FIRST
      // token, where each one is dropped (prepend_scheme other than "never").
      list = list.map((t, i) => t.split(s.replacement).join(i === 0 && s.stripFirst ? "" : " "));
    else if (s.kind === "byte-fallback") list = byteFallback(list);
    else if (s.kind === "fuse") list = [list.join("")];
    else list = list.map((t) => strip(t, s.content, s.start, s.stop));
  }
  return list.join("");
}

export interface SpDecodeSource {
  readonly vocabSize: number;
  readonly blocked: ReadonlySet<number>;
  idToPiece(id: number): string | undefined;
}

/**
 * The stream decoder's table: blocked IDs and IDs without a piece are Control (removed before
 * the chain, as HF's skip_special_tokens removes special tokens: they do not end a byte run);
 * a piece the chain's ByteFallback turns into a byte is Bytes; every other piece is Text (its
 * per-token steps applied). A Strip after Fuse acts on the start of the whole output: textAtStart.
 */
export function buildSpDecodeTable(model: SpDecodeSource, steps: readonly DecoderStep[]): DecodeTable {
  const size = model.vocabSize;
  const kind = new Uint8Array(size).fill(TokenKind.Control);
  const text: string[] = new Array<string>(size).fill("");
  const bytes: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(size).fill(undefined);
  const fuse = steps.findIndex((s) => s.kind === "fuse");
  const perToken = fuse < 0 ? steps : steps.slice(0, fuse);
  const startStrip = steps.find((s) => s.kind === "strip");
  const meta = steps.find((s) => s.kind === "metaspace");
  let atStart: string[] = text;
  if (startStrip !== undefined && startStrip.kind === "strip" && startStrip.start > 0) atStart = [];
  if (meta !== undefined && meta.kind === "metaspace" && meta.stripFirst) atStart = [];
  for (let id = 0; id < size; id++) {
    const piece = model.blocked.has(id) ? undefined : model.idToPiece(id);
    let t = piece;
    let byte = -1;
    let first: string | undefined;
    for (const s of perToken) {
      if (t === undefined) break;
      if (s.kind === "metaspace") {
        first = t.split(s.replacement).join(s.stripFirst ? "" : " ");
        t = t.split(s.replacement).join(" ");
      } else if (s.kind === "replace") t = t.split(s.from).join(s.to);
      else if (s.kind === "byte-fallback") {
        byte = byteOfToken(t);
        if (byte >= 0) break;
      }
    }
    if (t === undefined) {
      if (atStart !== text) atStart.push("");
      continue;
    }
    if (byte >= 0) {
      kind[id] = TokenKind.Bytes;
      bytes[id] = Uint8Array.of(byte);
    } else {
      kind[id] = TokenKind.Text;
      text[id] = t;
    }
    if (atStart !== text && first !== undefined) atStart.push(byte < 0 ? first : "");
    else if (atStart !== text) {
      const s = startStrip as { content: string };
      atStart.push(byte < 0 && t.startsWith(s.content) ? t.slice(s.content.length) : byte < 0 ? t : "");
    }
  }
  return {
    size,
    kind,
    text,
    textAtStart: atStart,
    bytes,
    invalidUtf8: "per-byte",
    startEnds: atStart === text ? "never" : "first-non-control",
  };
}
