// Slowloris and malicious upstreams against a REAL server process on 127.0.0.1, measured from
// outside: the child's resident memory (VmRSS and its peak VmHWM, from /proc) and how long the
// hostile connections stay open. The slowloris server is @chatwire/server's compiled dist/ in a
// child with short read timeouts (the `chatwire serve` bin has no option for them); the upstream
// cases run the `chatwire serve` bin itself with its defaults. Linux only (/proc). The numbers
// are printed (one line each) for the record; the assertions are bounds.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { hostileUpstream } from "./hostile-upstreams.ts";

const serverDir = resolve(import.meta.dirname, "..");
const bin = resolve(serverDir, "../cli/bin/chatwire.js");
const MiB = 1024 * 1024;

const children: ChildProcess[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  for (const c of closers.splice(0)) await c();
});

/** VmRSS and VmHWM (peak) of a process, in MiB. */
function memory(pid: number): { rss: number; peak: number } {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** Spawns a child that prints one `listening on URL` / URL line; resolves the URL and the child. */
function spawnServer(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string; pid: number }> {
  const child = spawn(process.execPath, args, { cwd: serverDir, env, stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  return new Promise((res, rej) => {
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m?.[1] !== undefined && child.pid !== undefined) res({ url: m[1], pid: child.pid });
    });
    child.once("exit", (code) => rej(new Error(`server exited ${code}`)));
  });
}

// The child: the compiled server with short read timeouts, a replay engine, no log.
const SLOW_SERVER = `
const { createChatwireServer, createReplayEngine } = await import(${JSON.stringify(pathToFileURL(resolve(serverDir, "dist/index.js")).href)});
const { loadTokenizerSync } = await import("@chatwire/tokenizer/node");
const s = createChatwireServer({
  tokenizer: loadTokenizerSync("qwen3"),
  engine: createReplayEngine({ script: () => [] }),
  modelId: "m",
  limits: JSON.parse(process.env.LIMITS),
  log: () => {},
});
process.stdout.write((await s.listen(0)) + "\\n");
`;

describe.skipIf(!existsSync("/proc/self/status"))("a real server under attack (127.0.0.1)", () => {
  it("150 half-sent 4 MiB bodies: closed within the read time limit, memory held bounded by the budget", async () => {
    const limits = { headersTimeoutMs: 1_000, requestReadTimeoutMs: 3_000 };
    const { url, pid } = await spawnServer(["--input-type=module", "-e", SLOW_SERVER], {
      ...process.env,
      LIMITS: JSON.stringify(limits),
    });
    const port = Number(new URL(url).port);
    await (await fetch(`${url}/health`)).text();
    const before = memory(pid);
    const t0 = performance.now();
    const part = Buffer.alloc(2 * MiB, "x"); // 2 of the 4 declared MiB, then nothing
    const results = await Promise.all(
      Array.from(
        { length: 150 },
        () =>
          new Promise<{ status: string; ms: number }>((done) => {
            const s = connect(port, "127.0.0.1");
            let head = "";
            s.setEncoding("utf8");
            s.on("data", (c: string) => {
              head += c;
            });
            s.on("error", () => {});
            s.on("close", () => done({ status: head.slice(9, 12), ms: performance.now() - t0 }));
            s.write(
              `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${4 * MiB}\r\n\r\n`,
            );
            s.write(part);
            // The socket is closed by the server; a client that never closes is what this models.
            setTimeout(() => s.destroy(), 20_000).unref();
          }),
      ),
    );
    const after = memory(pid);
    const times = results.map((r) => r.ms).sort((a, b) => a - b);
    const slowest = times.at(-1) ?? 0;
    const median = times[times.length >> 1] ?? 0;
    const count = (st: string) => results.filter((r) => r.status === st).length;
    console.log(
      `slowloris: 150 x 2 MiB of 4 MiB bodies: closed after ${(median / 1000).toFixed(1)} s median, ` +
        `all in ${(slowest / 1000).toFixed(1)} s ` +
        `(read limit ${limits.requestReadTimeoutMs / 1000} s); ${count("408")} x 408, ${count("503")} x 503 ` +
        `server-busy, ${150 - count("408") - count("503")} other (reset); RSS ${before.rss.toFixed(0)} -> peak ` +
        `${after.peak.toFixed(0)} MiB (+${(after.peak - before.rss).toFixed(0)})`,
    );
    // Generous: the machine running the tests may be shared (the sender competes for the CPU).
    expect(slowest).toBeLessThan(limits.requestReadTimeoutMs + 15_000);
    // Every connection was closed by the server (the client's own cut comes at 20 s): with a
    // 408 or 503 answer, or (a few, "other") reset while the client was still sending.
    expect(count("408")).toBeGreaterThan(0);
    // The pre-slot budget is 64 MiB (16 x 4 MiB); 300 MiB were offered. The rest is garbage not
    // yet collected (bodies read and dropped after a 503) and the connections themselves.
    expect(after.peak - before.rss).toBeLessThan(160);
    const ok = await fetch(`${url}/health`);
    expect(ok.status).toBe(200);
  }, 90_000);

  for (const mode of ["error-huge", "error-endless"] as const) {
    it(`chatwire serve --engine vllm, upstream ${mode === "error-huge" ? "300 MB" : "never-ending"} error body: 502, memory bounded`, async () => {
      const up = await hostileUpstream(mode, { hugeBytes: 300 * MiB });
      closers.push(() => up.close());
      const { url, pid } = await spawnServer([
        bin,
        "serve",
        "--port",
        "0",
        "--tokenizer",
        "qwen3",
        "--engine",
        "vllm",
        "--upstream",
        up.url,
      ]);
      const before = memory(pid);
      const t0 = performance.now();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await fetch(`${url}/v1/chat/completions`, {
          method: "POST",
          body: JSON.stringify({ model: "chatwire-vllm", messages: [{ role: "user", content: "hi" }] }),
        });
        statuses.push(r.status);
        await r.text();
      }
      const ms = (performance.now() - t0) / 5;
      const after = memory(pid);
      console.log(
        `upstream ${mode}: 5 requests -> ${statuses.join(",")} in ${ms.toFixed(0)} ms each; upstream wrote ` +
          `${(up.written() / MiB).toFixed(1)} MiB in all; RSS ${before.rss.toFixed(0)} -> peak ${after.peak.toFixed(0)} MiB`,
      );
      expect(statuses).toEqual([502, 502, 502, 502, 502]);
      expect(after.peak - before.rss).toBeLessThan(64);
      expect(up.written()).toBeLessThan(5 * 8 * MiB);
    }, 90_000);
  }
});
