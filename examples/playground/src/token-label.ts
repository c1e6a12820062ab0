// A short display label per token ID, from the decode table: reserved IDs by name, text with
// whitespace made visible, raw bytes as hex. Display only.
import { TokenKind } from "@chatwire/tokenizer";
import type { PageTokenizer } from "./page-tokenizer.ts";

const VISIBLE: Readonly<Record<string, string>> = { " ": "·", "\n": "↵", "\t": "→", "\r": "␍" };

export function tokenLabel(page: PageTokenizer, id: number): string {
  const name = page.nameById.get(id);
  if (name !== undefined) return name;
  const tok = page.tok;
  const t = tok.textModel.decodeTable;
  if (id < 0 || id >= t.size) return "?";
  switch (t.kind[id]) {
    case TokenKind.Text:
      return (t.text[id] ?? "").replace(/[ \n\t\r]/g, (c) => VISIBLE[c] ?? c);
    case TokenKind.Bytes:
      return [...(t.bytes[id] ?? [])].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("");
    default:
      return tok.textModel.idToPiece(id) ?? "∅";
  }
}

/** The UTF-8 bytes a token contributes to decoded text (reserved and control IDs: none). */
export function tokenBytes(page: PageTokenizer, id: number, utf8: TextEncoder): Uint8Array {
  const t = page.tok.textModel.decodeTable;
  if (id < 0 || id >= t.size || page.reservedIds.has(id)) return new Uint8Array(0);
  if (t.kind[id] === TokenKind.Text) return utf8.encode(t.text[id] ?? "");
  return t.bytes[id] ?? new Uint8Array(0);
}
