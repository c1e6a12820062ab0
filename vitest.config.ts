import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test-vectors/test/**/*.test.ts", "bench/test/**/*.test.ts"],
    globalSetup: ["./test-support/fixtures-notice.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "threads",
    // Under CI also write a JSON summary: .ci/run prints "N passed, N failed" from it.
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".ci/test-results.json" }]] : ["default"],
  },
});
