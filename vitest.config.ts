import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources through the "source" export
// condition (package.json exports); published consumers get dist/ through types/default.
const conditions = ["source", ...defaultServerConditions];
const SHARED_MODULES = ["packages/{stream-decoder,openai}/test/**/*.test.ts"];

export default defineConfig({
  resolve: { conditions: ["source", ...defaultClientConditions] },
  ssr: { resolve: { conditions, externalConditions: ["source"] } },
  test: {
    globalSetup: ["./test-support/fixtures-notice.ts", "./test-support/build-dist.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "threads",
    // Both cores: many suites wait on child processes (CLI, server, reference tools), and vitest's
    // default (cores - 1) would run every file one after another on a 2-core machine.
    maxWorkers: 2,
    // The decoder and OpenAI-layer suites change no environment, mock nothing and keep no module
    // state but caches, so a worker keeps their modules (and loaded tokenizers) from file to file
    // instead of re-importing them for each file; every other suite gets a fresh module graph.
    projects: [
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["{packages,examples}/*/test/**/*.test.ts", "{test-vectors,bench}/test/**/*.test.ts"],
          exclude: [...SHARED_MODULES, "**/node_modules/**"],
        },
      },
      { extends: true, test: { name: "shared-modules", include: SHARED_MODULES, isolate: false } },
    ],
    // Under CI also write a JSON summary: .ci/run prints "N passed, N failed" from it.
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".ci/test-results.json" }]] : ["default"],
  },
});
