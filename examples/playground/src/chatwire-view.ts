// chatwire's column: encodeChat's IDs, each with its origin (from `spans`), whether it is a
// reserved ID, and whether it spells part of a string the audit reported (caller text that
// looked like a reserved token and was encoded as ordinary text).
import type { ChatAuditEntry, ChatEncoding, ChatSpan } from "@chatwire/tokenizer";
import { type Origin, originOfField, spanPerToken } from "./origin.ts";
import type { PageTokenizer } from "./page-tokenizer.ts";
import { tokenBytes, tokenLabel } from "./token-label.ts";

export interface ChatwireCell {
  readonly id: number;
  readonly label: string;
  readonly origin: Origin;
  readonly reserved: boolean;
  readonly audit: boolean;
  /** e.g. "message 1 content". */
  readonly where: string;
}

function whereOf(span: ChatSpan | undefined): string {
  if (span === undefined) return "?";
  return span.message === null ? span.field : `message ${span.message} ${span.field}`;
}

/** The audit entries a span's tokens can hold ("tools" covers "tools[0]", and so on). */
function auditFor(span: ChatSpan, audit: readonly ChatAuditEntry[]): string[] {
  return audit
    .filter((a) => a.message === span.message && (a.field === span.field || a.field.startsWith(span.field)))
    .map((a) => a.token);
}

/**
 * Marks tokens [span.start, span.end) whose bytes overlap an occurrence of an audited string in
 * the span's decoded bytes. Linear in the span's bytes times the (short) audited strings.
 */
function markAudit(
  tok: PageTokenizer,
  ids: readonly number[],
  span: ChatSpan,
  tokens: string[],
  out: Uint8Array,
) {
  const utf8 = new TextEncoder();
  const parts = ids.slice(span.start, span.end).map((id) => tokenBytes(tok, id, utf8));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const bytes = new Uint8Array(total);
  const owner = new Int32Array(total);
  let at = 0;
  parts.forEach((p, k) => {
    bytes.set(p, at);
    owner.fill(span.start + k, at, at + p.length);
    at += p.length;
  });
  for (const token of new Set(tokens)) {
    const needle = utf8.encode(token);
    for (let i = 0; i + needle.length <= total; i++) {
      let j = 0;
      while (j < needle.length && bytes[i + j] === needle[j]) j++;
      if (j < needle.length) continue;
      for (let b = i; b < i + needle.length; b++) out[owner[b] as number] = 1;
    }
  }
}

export function chatwireCells(tok: PageTokenizer, enc: ChatEncoding): ChatwireCell[] {
  const perToken = spanPerToken(enc.spans, enc.ids.length);
  const audited = new Uint8Array(enc.ids.length);
  for (const span of enc.spans) {
    if (originOfField(span.field) !== "caller") continue;
    const tokens = auditFor(span, enc.audit);
    if (tokens.length > 0) markAudit(tok, enc.ids, span, tokens, audited);
  }
  return enc.ids.map((id, i) => {
    const span = perToken[i];
    return {
      id,
      label: tokenLabel(tok, id),
      origin: span === undefined ? "caller" : originOfField(span.field),
      reserved: tok.reservedIds.has(id),
      audit: audited[i] === 1,
      where: whereOf(span),
    };
  });
}
