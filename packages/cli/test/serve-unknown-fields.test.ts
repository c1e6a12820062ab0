// `chatwire serve --unknown-fields` (docs/cli-contract.md "serve"): reject by default (400),
// ignore serves the request and names the dropped fields in the x-chatwire-ignored-fields header
// and the stderr log line; a bad value is one exit-2 line. Through the real bin.
import { afterEach, describe, expect, it } from "vitest";
import { runCli, startServe as serve } from "./support.ts";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function startServe(args: string[]): { ready: Promise<string>; stderr: () => string } {
  const s = serve(["--port", "0", "--tokenizer", "qwen3", "--engine", "replay", ...args]);
  cleanup.push(() => {
    s.child.kill("SIGKILL");
    return s.exited.then(() => undefined);
  });
  return s;
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
    const r = runCli(["serve", "--port", "0", "--unknown-fields", "maybe"], [], 30_000);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("invalid-option-value");
  });
});
