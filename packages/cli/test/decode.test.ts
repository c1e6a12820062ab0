// `chatwire decode`: JSONL in, {"events": [...]} out (cli-contract.md). The first case runs the
// real binary (decode's spawned run: stdin and stdout of a process, its exit code); the others
// run main() of the same bundle in this process (support.ts runMain).
import { describe, expect, it } from "vitest";
import { type CliRun, runCli, runMain } from "./support.ts";

const cli = (args: string[], lines: unknown[]): Promise<CliRun> => runMain(["decode", ...args], lines);

describe("chatwire decode", () => {
  it("events per line, errors per bad line, options", () => {
    // Qwen3: <think>\nI think.\n</think>\n\nHello!<|im_end|>
    const r = runCli(
      ["decode", "--stop", "lo!", "--include-stop-str"],
      [
        { ids: [151667, 198, 40, 1744, 13, 198, 151668, 271, 9707, 0, 151645] },
        { ids: [1, "x"] },
        "not json",
        { ids: [9707, 0] },
      ],
    );
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      {
        events: [
          { type: "message_start", role: "assistant", metadata: "" },
          { type: "reasoning", text: "I" },
          { type: "reasoning", text: " think" },
          { type: "reasoning", text: "." },
          { type: "text", text: "Hel" },
          { type: "text", text: "lo!" },
          { type: "stop", reason: "stop_string", text: "lo!" },
        ],
      },
      { error: { type: "invalid-input", message: expect.any(String), field: "ids", index: 1 } },
      { error: { type: "invalid-json", message: expect.any(String) } },
      {
        events: [
          { type: "message_start", role: "assistant", metadata: "" },
          { type: "text", text: "Hel" },
          { type: "text", text: "lo!" },
          { type: "stop", reason: "stop_string", text: "lo!" },
        ],
      },
    ]);
  });

  it("--max-tokens, --stop-token, end of input", async () => {
    const r = await cli(
      ["--max-tokens", "3", "--stop-token", "11"],
      [{ ids: [9707, 11, 1879] }, { ids: [9707] }, { ids: [] }],
    );
    expect(r.out).toEqual([
      {
        events: [
          { type: "message_start", role: "assistant", metadata: "" },
          { type: "text", text: "Hello" },
          { type: "stop", reason: "stop_token", token: 11 },
        ],
      },
      {
        events: [
          { type: "message_start", role: "assistant", metadata: "" },
          { type: "text", text: "Hello" },
          { type: "stop", reason: "end_of_input" },
        ],
      },
      {
        events: [
          { type: "message_start", role: "assistant", metadata: "" },
          { type: "stop", reason: "end_of_input" },
        ],
      },
    ]);
  });

  it("bad options exit 2 with one line on stderr", async () => {
    const r = await cli(["--max-tokens", "0"], [{ ids: [] }]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
