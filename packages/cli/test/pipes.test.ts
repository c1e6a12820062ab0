// The JSONL loop as other programs drive it, per docs/cli-contract.md "Lines and pipes":
// - an answer comes as soon as its line is read (stdin left open);
// - lines end at "\n" only ("\r\n" accepted); a bare "\r" never splits a line;
// - --max-line-bytes: a longer line is one line-too-long error, then processing goes on;
// - a reader that goes away (`| head -1`): quiet exit, no EPIPE stack trace;
// - an answer nested deeper than JSON.stringify's recursion is still written.
// What only a process shows runs the real binary (node packages/cli/bin/chatwire.js) through
// pipes: stdin left open, a reader that goes away, the exit status then. The line rules (the
// 96 MiB line too) and the deep answer run main() of the same bundle in this process (support.ts
// runMain), its stdin fed in the 64 KiB chunks a pipe delivers.

import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { loadTokenizer } from "@chatwire/tokenizer/node";
import { describe, expect, it } from "vitest";
import { BIN, repoRoot as root, runMain } from "./support.ts";

/** Resolves with the next stdout line of `child` (fails after `ms`). */
function nextLine(
  child: ChildProcessWithoutNullStreams,
  state: { buf: string },
  ms: number,
): Promise<string> {
  return new Promise((res, rej) => {
    const check = (): boolean => {
      const nl = state.buf.indexOf("\n");
      if (nl === -1) return false;
      const line = state.buf.slice(0, nl);
      state.buf = state.buf.slice(nl + 1);
      clearTimeout(timer);
      child.stdout.off("data", onData);
      res(line);
      return true;
    };
    const onData = (d: Buffer): void => {
      state.buf += d.toString("utf8");
      check();
    };
    const timer = setTimeout(() => {
      child.stdout.off("data", onData);
      rej(new Error(`no answer within ${ms} ms (stdin still open)`));
    }, ms);
    if (!check()) child.stdout.on("data", onData);
  });
}

describe("answers are written as soon as their line is read", () => {
  it("one line written, its answer read, stdin still open; then a second one", async () => {
    const child = spawn(process.execPath, [BIN, "encode-text"], { cwd: root, stdio: "pipe" });
    const state = { buf: "" };
    try {
      child.stdin.write('{"text":"Hello world"}\n');
      expect(JSON.parse(await nextLine(child, state, 30_000))).toEqual({ ids: [9707, 1879], audit: [] });
      child.stdin.write('{"text":"Hello"}\n');
      expect(JSON.parse(await nextLine(child, state, 30_000))).toEqual({ ids: [9707], audit: [] });
      child.stdin.end();
      const code = await new Promise<number | null>((r) => child.on("close", r));
      expect(code).toBe(0);
    } finally {
      child.kill();
    }
  }, 90_000);
});

describe('lines end at "\\n" only', () => {
  it('a bare "\\r" is part of its line; "\\r\\n" ends a line like "\\n"', async () => {
    const tok = await loadTokenizer("qwen3");
    // `{"text":\r"a"}`: \r is JSON whitespace, so this is ONE valid line.
    const r = await runMain(
      ["encode-text"],
      '{"text":\r"a"}\n{"text":"b"}\r\n{"text":"a\\rb"}\r\r\n{"text":"c"}',
    );
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      { ids: [64], audit: [] },
      { ids: [65], audit: [] },
      // `{"text":"a\rb"}\r` + "\r\n": one "\r" is the terminator's, the other is whitespace.
      { ids: tok.encodeText("a\rb").ids, audit: [] },
      { ids: [66], audit: [] }, // a last line without "\n" is still a line
    ]);
  });
});

describe("--max-line-bytes", () => {
  it("a longer line is one line-too-long error line, the lines around it are answered", async () => {
    const long = `{"text":"${"x".repeat(150)}"}`;
    const r = await runMain(
      ["encode-text", "--max-line-bytes", "100"],
      `{"text":"a"}\n${long}\r\n{"text":"b"}\n`,
    );
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(3);
    expect(r.out[0]).toEqual({ ids: [64], audit: [] });
    expect(r.out[1]).toEqual({
      error: {
        type: "line-too-long",
        message: `input line of ${long.length} bytes is longer than --max-line-bytes 100`,
        bytes: long.length,
        max_line_bytes: 100,
      },
    });
    expect(r.out[2]).toEqual({ ids: [65], audit: [] });
  });
  it("exactly the limit is a line; the limit counts bytes, not characters", async () => {
    const line = '{"text":"中"}'; // 14 bytes
    expect(Buffer.byteLength(line)).toBe(14);
    expect((await runMain(["encode-text", "--max-line-bytes", "14"], `${line}\r\n`)).out[0]).toHaveProperty(
      "ids",
    );
    expect((await runMain(["encode-text", "--max-line-bytes", "13"], `${line}\n`)).out[0]).toHaveProperty(
      "error.type",
      "line-too-long",
    );
  });
  it("a 96 MiB line over the default 64 MiB limit: error line, then the next line is answered", async () => {
    const bigLength = 96 * 1024 * 1024;
    // The line of "a"s and the next line in one buffer (no second 96 MiB copy to join them).
    const next = '\n{"text":"a"}\n';
    const input = Buffer.alloc(bigLength + next.length, 0x61);
    input.write(next, bigLength);
    const r = await runMain(["encode-text"], input);
    expect(r.code).toBe(0);
    expect(r.out.map((o) => (o.error as { type?: string } | undefined)?.type ?? "ok")).toEqual([
      "line-too-long",
      "ok",
    ]);
    expect(r.out[0]).toHaveProperty("error.bytes", bigLength);
  }, 120_000);
  it("bad values are usage errors", async () => {
    expect((await runMain(["encode-text", "--max-line-bytes", "0"], "")).code).toBe(2);
    expect((await runMain(["encode-text", "--max-line-bytes", "x"], "")).code).toBe(2);
  });
});

describe("a reader that goes away", () => {
  it("`| head -1`: exit 0 and nothing on stderr", () => {
    const script = `yes '{"text":"hello world"}' | head -n 200000 | ${JSON.stringify(process.execPath)} ${BIN} encode-text | head -n 1; echo "status=\${PIPESTATUS[2]}" >&2`;
    const r = spawnSync("bash", ["-c", script], { cwd: root, encoding: "utf8", timeout: 120_000 });
    const lines = r.stdout.split("\n");
    expect(lines).toHaveLength(2); // one answer, then the final newline
    expect(JSON.parse(lines[0] as string)).toHaveProperty("ids", [14990, 1879]);
    expect(r.stderr).toBe("status=0\n");
  }, 120_000);
  it("the same for output that is not JSONL (demo)", () => {
    const script = `${JSON.stringify(process.execPath)} ${BIN} demo --delay-ms 0 | head -n 1 >/dev/null; echo "status=\${PIPESTATUS[0]}" >&2`;
    const r = spawnSync("bash", ["-c", script], { cwd: root, encoding: "utf8", timeout: 120_000 });
    expect(r.stderr).toBe("status=0\n");
  }, 120_000);
});

describe("answers nested deeper than JSON.stringify recurses", () => {
  it("decode of a tool call whose arguments nest 20,000 deep: events, not internal-error", async () => {
    const tok = await loadTokenizer("qwen3");
    const depth = 20_000;
    const body = `\n{"name": "f", "arguments": {"a": ${"[".repeat(depth)}${"]".repeat(depth)}}}\n`;
    const ids = [151657, ...tok.encodeText(body).ids, 151658, 151645]; // <tool_call> ... </tool_call><|im_end|>
    const r = await runMain(["decode"], `${JSON.stringify({ ids })}\n`);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const answer = r.out[0] as { events?: { type: string }[]; error?: unknown };
    expect(answer.error).toBeUndefined();
    expect(answer.events?.at(-1)?.type).toBe("stop");
    expect(answer.events?.some((e) => e.type === "action_end")).toBe(true);
  }, 120_000);
});
