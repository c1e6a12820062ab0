import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources through the "source" export
// condition (package.json exports); published consumers get dist/ through types/default.
const conditions = ["source", ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions: ["source", ...defaultClientConditions] },
  ssr: { resolve: { conditions, externalConditions: ["source"] } },
  test: {
    include: ["{packages,examples}/*/test/**/*.test.ts", "{test-vectors,bench}/test/**/*.test.ts"],
    globalSetup: ["./test-support/fixtures-notice.ts", "./test-support/build-dist.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "threads",
    // Both cores: many suites wait on child processes (CLI, server, reference tools), and vitest's
    // default (cores - 1) would run every file one after another on a 2-core machine.
    maxWorkers: 2,
    // Under CI also write a JSON summary: .ci/run prints "N passed, N failed" from it.
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".ci/test-results.json" }]] : ["default"],
  },
});
