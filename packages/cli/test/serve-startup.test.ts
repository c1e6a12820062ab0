// `chatwire serve` startup failures (docs/cli-contract.md "serve"): each is one typed stderr line
// and exit 2, never `internal-error`: an address it cannot listen on is `listen-failed` naming
// the host:port and the system's reason; a --format the files do not fit is `format-mismatch`
// (as for the JSONL commands); an engine that cannot start is `engine-unavailable`, a missing
// or malformed engine option a usage error. All fail before serving, so each runs main() of the
// compiled bundle in this process (support.ts runMain); serve through the bin is in the other
// serve suites.
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { runMain } from "./support.ts";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** The one stderr line of a startup failure of `type` (exit 2, nothing on stdout). */
async function startupError(args: string[], type: string): Promise<string> {
  const r = await runMain(["serve", ...args]);
  expect(r.code, args.join(" ")).toBe(2);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^chatwire serve: ${type}: `));
  return lines[0] as string;
}

/** A port something else listens on (until the test ends), or, closed at once, one nothing does. */
async function port(keep: boolean): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
  const closed = () => new Promise<void>((res) => server.close(() => res()));
  const address = server.address();
  if (keep) cleanup.push(closed);
  else await closed();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("chatwire serve: an address it cannot listen on is listen-failed", () => {
  it("a port in use: the address and the system's reason", async () => {
    const busy = await port(true);
    const line = await startupError(["--port", String(busy)], "listen-failed");
    expect(line).toBe(
      `chatwire serve: listen-failed: cannot listen on "127.0.0.1:${busy}": the address is already in use (EADDRINUSE)`,
    );
  });
  it("a host that does not resolve", async () => {
    const line = await startupError(["--port", "0", "--host", "999.1.1.1"], "listen-failed");
    expect(line).toContain('cannot listen on "999.1.1.1:0": ');
  });
});

describe("chatwire serve --format a family the files do not fit: format-mismatch", () => {
  it("the built-in qwen3 with --format internlm2", async () => {
    const line = await startupError(["--port", "0", "--format", "internlm2"], "format-mismatch");
    expect(line).toContain("--format internlm2 does not match");
    expect(line).toContain("which are qwen3");
  });
  it.skipIf(!haveFixtures())("chatglm3 files with --format qwen3", async () => {
    const glm = fixturePath("chatglm3");
    const line = await startupError(
      ["--port", "0", "--tokenizer", glm, "--format", "qwen3"],
      "format-mismatch",
    );
    expect(line).toContain("which are chatglm3");
  });
});

describe("chatwire serve: engine options and an engine that cannot start", () => {
  it("--engine vllm / sglang without --upstream, llama-cpp without --model: usage", async () => {
    expect(await startupError(["--engine", "vllm"], "usage")).toContain("--engine vllm needs --upstream URL");
    await startupError(["--engine", "sglang"], "usage");
    expect(await startupError(["--engine", "llama-cpp"], "usage")).toContain("needs --model");
  });
  it("an option of another engine is refused, not ignored", async () => {
    expect(await startupError(["--upstream", "http://127.0.0.1:1"], "usage")).toContain(
      "--upstream is an option of --engine vllm / sglang, not replay",
    );
    expect(await startupError(["--engine", "replay", "--model", "x.gguf"], "usage")).toContain(
      "--model is an option of --engine llama-cpp, not replay",
    );
    await startupError(["--engine", "replay", "--threads", "2"], "usage");
    expect(
      await startupError(
        ["--engine", "vllm", "--upstream", "http://127.0.0.1:1", "--replay-delay-ms", "5"],
        "usage",
      ),
    ).toContain("--replay-delay-ms is an option of --engine replay, not vllm");
  });
  it("an --upstream that is not an http(s) URL: invalid-option-value, before the tokenizer loads", async () => {
    const line = await startupError(
      ["--tokenizer", "/nonexistent", "--engine", "vllm", "--upstream", "ftp://x"],
      "invalid-option-value",
    );
    expect(line).toContain('--upstream takes an http:// or https:// URL, got "ftp://x"');
  });
  it("an upstream nothing listens on: engine-unavailable", async () => {
    const upstream = `http://127.0.0.1:${await port(false)}`;
    const line = await startupError(["--engine", "vllm", "--upstream", upstream], "engine-unavailable");
    expect(line).toContain(`cannot reach ${upstream}`);
  });
});
