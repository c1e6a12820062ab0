// `chatwire serve --unknown-fields` (docs/cli-contract.md "serve"): reject by default (400),
// ignore serves the request and names the dropped fields in the x-chatwire-ignored-fields header
// and the stderr log line; a bad value is one exit-2 line. Through the real bin.
import { spawn, spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = "packages/cli/bin/chatwire.js";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function startServe(args: string[]): { ready: Promise<string>; stderr: () => string } {
  const child = spawn(
    process.execPath,
    [bin, "serve", "--port", "0", "--tokenizer", "qwen3", "--engine", "replay", ...args],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  cleanup.push(() => {
    child.kill("SIGKILL");
    return exited;
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
  return { ready, stderr: () => err };
}

const BODY = JSON.stringify({
  model: "chatwire-replay",
  messages: [{ role: "user", content: "weather?", x_trace: "t1" }],
  foo: 1,
});

const post = (url: string) => fetch(`${url}/v1/chat/completions`, { method: "POST", body: BODY });

describe("chatwire serve --unknown-fields", () => {
  it("default (reject): an unknown field is a 400", async () => {
    const s = startServe([]);
    const r = await post(await s.ready);
    expect(r.status).toBe(400);
    expect(r.headers.get("x-chatwire-ignored-fields")).toBeNull();
  });

  it("ignore: served; the header and the log line name the dropped fields", async () => {
    const s = startServe(["--unknown-fields", "ignore"]);
    const r = await post(await s.ready);
    expect(r.status).toBe(200);
    await r.json();
    expect(r.headers.get("x-chatwire-ignored-fields")).toBe("foo,messages[0].x_trace");
    // The log line is written once the response is done; wait for it.
    for (let i = 0; i < 50 && !s.stderr().includes("\n"); i++)
      await new Promise((res) => setTimeout(res, 20));
    const line = JSON.parse(s.stderr().trim().split("\n").at(-1) ?? "{}") as { ignored_fields?: string[] };
    expect(line.ignored_fields).toEqual(["foo", "messages[0].x_trace"]);
  });

  it("a bad value exits 2 with one invalid-option-value line", () => {
    const r = spawnSync(process.execPath, [bin, "serve", "--port", "0", "--unknown-fields", "maybe"], {
      cwd: root,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("invalid-option-value");
  });
});
