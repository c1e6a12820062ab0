// Shared by the CLI suites, two ways to run `chatwire <args>` with JSON lines on stdin:
// - runCli: the real bin (packages/cli/bin/chatwire.js) in a child process, which runs the
//   compiled dist/ exactly as the published package does: the exit code as the process ends,
//   pipes, signals, serve;
// - runMain: main() of the same compiled bundle (dist/bundle/main.js, loaded by Node as the bin
//   loads it) in this process, over in-memory streams: the same output without a new Node process
//   per run. Each suite says which one a case uses and why.
import { type ChildProcessByStdio, spawn, spawnSync } from "node:child_process";
import { createRequire, register } from "node:module";
import { dirname, resolve } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";

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
  return cliRun(r.status, r.stdout, r.stderr);
}

type Main = typeof import("../src/main.ts").main;

/** The bundle the bin imports (globalSetup builds it). */
const BUNDLE = resolve(repoRoot, "packages/cli/dist/bundle/main.js");

/**
 * Imports the bundle as the bin does. vitest's import() would resolve its @chatwire/* imports to
 * their TypeScript sources, and so would Node's here: vitest starts its workers with
 * `--conditions source` (and others), which a resolve hook takes back for imports made from a
 * package's dist/, leaving Node's default conditions, as the bin has them.
 */
function importBundle(): Promise<{ main: Main }> {
  const key = Symbol.for("chatwire.cli-test.dist-conditions");
  const registry = globalThis as { [key]?: true };
  if (registry[key] !== true) {
    registry[key] = true;
    const added: string[] = [];
    process.execArgv.forEach((a, i, all) => {
      if (a === "--conditions" || a === "-C") added.push(all[i + 1] ?? "");
      else if (a.startsWith("--conditions=")) added.push(a.slice("--conditions=".length));
    });
    const hooks = `
      const prefix = ${JSON.stringify(pathToFileURL(resolve(repoRoot, "packages")).href)} + "/";
      const added = new Set(${JSON.stringify(added)});
      export async function resolve(specifier, context, next) {
        const parent = context.parentURL ?? "";
        const fromDist = parent.startsWith(prefix) && parent.includes("/dist/") && !parent.includes("/node_modules/");
        if (!fromDist) return next(specifier, context);
        return next(specifier, { ...context, conditions: context.conditions.filter((c) => !added.has(c)) });
      }`;
    if (added.length > 0) register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  }
  const nativeImport = createRequire(import.meta.url)("./native-import.cjs") as (
    url: string,
  ) => Promise<{ main: Main }>;
  return nativeImport(pathToFileURL(BUNDLE).href);
}
let mainOf: Promise<Main> | undefined;

/** What a pipe hands a reader at a time (Linux: 64 KiB), so lines arrive cut as they would on stdin. */
const PIPE_CHUNK = 65_536;

function collector(): { stream: Writable; text: () => string } {
  const parts: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      done();
    },
  });
  // Decoded once at the end, as spawnSync decodes a child's output.
  return { stream, text: () => Buffer.concat(parts).toString("utf8") };
}

/**
 * runCli's run through main() in this process: `input` on a stdin stream in pipe-sized chunks,
 * stdout and stderr collected; code is what main resolves with (what the bin sets as the exit
 * code), or 1 with the error on stderr when it rejects (the bin's uncaught error).
 */
export async function runMain(
  args: readonly string[],
  input: readonly unknown[] | string | Buffer = [],
): Promise<CliRun> {
  mainOf ??= importBundle().then((m) => m.main);
  const main = await mainOf;
  const bytes = Buffer.isBuffer(input)
    ? input
    : Buffer.from(Array.isArray(input) ? jsonLines(input) : (input as string));
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += PIPE_CHUNK) chunks.push(bytes.subarray(i, i + PIPE_CHUNK));
  const stdout = collector();
  const stderr = collector();
  let code: number;
  try {
    code = await main(args, {
      stdin: Readable.from(chunks, { objectMode: false }),
      stdout: stdout.stream,
      stderr: stderr.stream,
    });
  } catch (err) {
    code = 1;
    stderr.stream.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  }
  return cliRun(code, stdout.text(), stderr.text());
}

function cliRun(code: number | null, stdout: string, stderr: string): CliRun {
  let out: Record<string, unknown>[] | undefined;
  return {
    code,
    stdout,
    stderr,
    get out() {
      out ??= parseLines(stdout);
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
