import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test-vectors/test/**/*.test.ts", "bench/test/**/*.test.ts"],
    globalSetup: ["./test-support/fixtures-notice.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "threads",
  },
});
