// `chatwire demo` (the README's first command): it must exit 0, show that no reserved ID came from
// caller text, and stream a turn to a parsed call and an EOS stop. The embedded default runs as the
// README runs it, through the real binary; the other cases run main() of the same bundle in this
// process (support.ts runMain), which writes the same non-terminal output.
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { type CliRun, runCli, runMain } from "./support.ts";

function shape(r: CliRun): { out: string; code: number | null; stderr: string } {
  return { out: r.stdout, code: r.code, stderr: r.stderr };
}
const demo = async (args: string[]) => shape(await runMain(["demo", ...args]));

function expectDemo(out: string, eosToken: number): void {
  expect(out).toContain("chatwire produced 0 reserved IDs from caller text.");
  expect(out).not.toContain("FROM CALLER TEXT");
  expect(out).toMatch(/would have turned [1-9]\d* of these into real markers/);
  expect(out).toContain('call {"name":"get_weather","arguments":{"location":"Shanghai","unit":"celsius"}}');
  expect(out).toContain(`[stop reason=eos token=${eosToken}]`);
  expect(out).toContain("decoded: message, text, a parsed tool call, and an EOS stop");
}

describe("chatwire demo", () => {
  it("qwen3 (embedded default)", () => {
    const r = shape(runCli(["demo"]));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectDemo(r.out, 151645);
    expect(r.out).toContain("[reasoning] The user wants the current weather");
  });

  it("bad option: exit 2, one line on stderr", async () => {
    const r = await demo(["--delay-ms", "-1"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  describe.skipIf(!haveFixtures())("real InternLM2 / ChatGLM3 files", () => {
    it("internlm2", async () => {
      const r = await demo(["--tokenizer", fixturePath("internlm2")]);
      expect(r.code).toBe(0);
      expectDemo(r.out, 92542);
    });
    it("chatglm3", async () => {
      const r = await demo(["--tokenizer", fixturePath("chatglm3")]);
      expect(r.code).toBe(0);
      expectDemo(r.out, 64797);
    });
  });
});
