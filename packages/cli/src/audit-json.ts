// The audit entries of an encode-chat answer, with the fields docs/cli-contract.md names (an
// entry of the library may carry more; the answer keeps to the contract).
import type { ChatAuditEntry } from "@chatwire/tokenizer";

export interface AuditJson {
  readonly message: number | null;
  readonly field: string;
  readonly token: string;
  readonly index: number;
  readonly id: number;
}

export function auditJson(audit: readonly ChatAuditEntry[]): AuditJson[] {
  return audit.map((a) => ({ message: a.message, field: a.field, token: a.token, index: a.index, id: a.id }));
}
