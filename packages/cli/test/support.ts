// Shared by the CLI suites: runs the real bin (packages/cli/bin/chatwire.js, which runs the
// compiled dist/ exactly as the published package does) with JSON lines on stdin.
import { type ChildProcessByStdio, spawn, spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
/** The bin, relative to repoRoot (the working directory of every run). */
export const BIN = "packages/cli/bin/chatwire.js";

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Every non-empty stdout line parsed as JSON (parsed on first use: a non-JSON line throws then). */
  readonly out: Record<string, unknown>[];
}

/** stdin for `lines`: a string is written as is (raw, possibly invalid JSON), anything else as JSON. */
export function jsonLines(lines: readonly unknown[]): string {
  return lines.map((l) => `${typeof l === "string" ? l : JSON.stringify(l)}\n`).join("");
}

/** Every non-empty line of a JSON-lines output, parsed. */
export function parseLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Runs `chatwire <args>` to completion with `input` on stdin (lines as jsonLines, or bytes as given). */
export function runCli(
  args: readonly string[],
  input: readonly unknown[] | string | Buffer = [],
  timeout = 60_000,
): CliRun {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: repoRoot,
    input: Array.isArray(input) ? jsonLines(input) : (input as string | Buffer),
    encoding: "utf8",
    timeout,
    maxBuffer: 1 << 28,
  });
  let out: Record<string, unknown>[] | undefined;
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    get out() {
      out ??= parseLines(r.stdout);
      return out;
    },
  };
}

export interface ServeProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** The base URL from the `listening on` line; rejects when the process exits first. */
  readonly ready: Promise<string>;
  readonly exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** Starts `chatwire serve <args>` (the caller stops it: kill, then await `exited`). */
export function startServe(args: readonly string[]): ServeProcess {
  const child = spawn(process.execPath, [BIN, "serve", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (c: string) => {
    err += c;
  });
  const ready = new Promise<string>((res, rej) => {
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m?.[1]) res(m[1]);
    });
    child.once("exit", (code) => rej(new Error(`serve exited ${code}: ${err}`)));
  });
  const exited = new Promise<number | null>((res) => child.once("exit", (code) => res(code)));
  return { child, ready, exited, stdout: () => out, stderr: () => err };
}
