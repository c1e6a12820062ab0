// `chatwire serve` limit options (docs/cli-contract.md "serve"): each is listed by --help, a bad
// value (of these and of every other count, time and --port) is one exit-2
// `invalid-option-value` line before anything loads, and a good one reaches
// the server or engine (a short headers timeout answers 408 sooner than the default; a short
// upstream idle time turns a stalled vLLM upstream into 504 engine-timeout). Servers run the real
// bin (a process: its port, signals and stderr log); --help and the refused values, answered
// before anything listens, run main() of the same bundle in this process (support.ts runMain).
// serve's exit 2 through the bin is in serve-unknown-fields.test.ts.
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { hostileUpstream } from "../../server/test/hostile-upstreams.ts";
import { runMain, startServe as serve } from "./support.ts";

const NEW = [
  "headers-timeout-ms",
  "request-read-timeout-ms",
  "max-connections",
  "max-pending-body-bytes",
  "upstream-idle-timeout-ms",
];

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function startServe(args: string[]): Promise<string> {
  const s = serve(["--port", "0", "--tokenizer", "qwen3", ...args]);
  cleanup.push(() => {
    s.child.kill("SIGKILL");
    return s.exited.then(() => undefined);
  });
  return s.ready;
}

describe("chatwire serve limit options", () => {
  it("--help lists each limit option with its default", async () => {
    const r = await runMain(["serve", "--help"]);
    expect(r.code).toBe(0);
    for (const name of NEW) expect(r.stdout).toMatch(new RegExp(`--${name} N\\n .*\\(default [^)]+\\)`));
  });

  it("bad values exit 2 with one invalid-option-value line, before the tokenizer loads", async () => {
    const bad = [
      ["--headers-timeout-ms", "0"],
      ["--request-read-timeout-ms", "-5"],
      ["--request-read-timeout-ms", "2147483648"], // node would fire such a timer at once
      ["--upstream-idle-timeout-ms", "2147483648"],
      ["--max-connections", "0"],
      ["--max-connections", "1.5"],
      ["--max-pending-body-bytes", "1000"], // below the default 4 MiB body limit
      ["--max-body-bytes", "2000", "--max-pending-body-bytes", "1999"],
      ["--upstream-idle-timeout-ms", "soon"],
      // Every other time and count takes the same check (each a one-line invalid-option-value).
      ["--timeout-ms", "2147483648"],
      ["--timeout-ms", "0"],
      ["--replay-delay-ms", "2147483648"],
      ["--replay-delay-ms", "-1"],
      ["--max-concurrent", "0"],
      ["--max-tokens", "0"],
      ["--max-model-len", "0"],
      ["--max-body-bytes", "0"],
      ["--threads", "0"],
      ["--max-queue", "-1"],
      ["--port", "65536"],
      ["--port", "-1"],
    ];
    for (const args of bad) {
      // A tokenizer that does not exist: had the value been accepted, the error would name it.
      const r = await runMain(["serve", "--tokenizer", "/nonexistent", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^chatwire serve: invalid-option-value: --/);
      expect(lines[0]).toContain(args.at(-2));
    }
  });

  it("--timeout-ms 2147483647 (the longest) is accepted: a request is answered, not timed out", async () => {
    const url = await startServe(["--timeout-ms", "2147483647", "--max-queue", "0"]);
    const r = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "chatwire-replay", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(r.status).toBe(200);
    await r.text();
  });

  it("--max-pending-body-bytes equal to --max-body-bytes is accepted", async () => {
    const url = await startServe(["--max-body-bytes", "2000", "--max-pending-body-bytes", "2000"]);
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });

  it("--headers-timeout-ms: half-sent headers get 408 at the given time, not the default 10 s", async () => {
    const url = new URL(
      await startServe(["--headers-timeout-ms", "300", "--request-read-timeout-ms", "600"]),
    );
    const t0 = performance.now();
    const answer = await new Promise<string>((res, rej) => {
      const s = connect(Number(url.port), url.hostname, () =>
        s.write("POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\n"),
      );
      let got = "";
      s.setEncoding("utf8").on("data", (c: string) => {
        got += c;
      });
      s.on("close", () => res(got));
      s.on("error", rej);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it("--upstream-idle-timeout-ms: a stalled vLLM upstream is 504 engine-timeout at the given time", async () => {
    const up = await hostileUpstream("stall-before");
    cleanup.push(() => up.close());
    // The upstream's model named up front ("m", what its /v1/models lists): startup would otherwise
    // ask for it under the same 300 ms, which a loaded machine can miss before the stall is reached.
    const url = await startServe([
      "--engine",
      "vllm",
      "--upstream",
      up.url,
      "--upstream-model",
      "m",
      "--upstream-idle-timeout-ms",
      "300",
    ]);
    const t0 = performance.now();
    const r = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "chatwire-vllm",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      }),
    });
    const body = (await r.json()) as { error: { code: string } };
    expect([r.status, body.error.code]).toEqual([504, "engine-timeout"]);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});
