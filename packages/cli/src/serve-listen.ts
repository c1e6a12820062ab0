// `chatwire serve` listening on --host:--port. A listen failure (the address in use, a host name
// that does not resolve, a port that needs privileges) is the caller's to fix: the usage error
// `listen-failed` naming the address and the system's reason (exit 2), never `internal-error`.
import type { ChatwireServer } from "@chatwire/server";
import { UsageError } from "./args.ts";
import { quoteInput } from "./quote.ts";

/** The system's reason in words, for the codes a caller can cause; others keep Node's message. */
const REASONS: ReadonlyMap<string, string> = new Map([
  ["EADDRINUSE", "the address is already in use"],
  ["EACCES", "permission denied (ports below 1024 need privileges)"],
  ["EADDRNOTAVAIL", "the address is not one of this machine's"],
  ["ENOTFOUND", "the host name does not resolve"],
  ["EAI_AGAIN", "the host name cannot be resolved at the moment"],
]);

function reasonOf(err: unknown): string {
  const code = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  const known = typeof code === "string" ? REASONS.get(code) : undefined;
  if (known !== undefined) return `${known} (${code})`;
  return (err instanceof Error ? err.message : String(err)).split("\n")[0] ?? "";
}

/** Listens; resolves with the server's URL, or rejects with `listen-failed`. */
export async function listenOn(
  server: Pick<ChatwireServer, "listen">,
  port: number,
  host: string,
): Promise<string> {
  try {
    return await server.listen(port, host);
  } catch (err) {
    throw new UsageError(
      `cannot listen on ${quoteInput(`${host}:${port}`)}: ${reasonOf(err)}`,
      "listen-failed",
    );
  }
}
