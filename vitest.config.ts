import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./test-support/slow-first-sequencer.ts";

// Workspace packages resolve to their TypeScript sources through the "source" export
// condition (package.json exports); published consumers get dist/ through types/default.
const conditions = ["source", ...defaultServerConditions];
// Suites that change no environment (process.env, cwd, process handlers), mock nothing, use no
// fake timers and keep no module state but caches: see the project comment below.
const SHARED_MODULES = [
  "packages/{tokenizer,stream-decoder,openai,cli,server}/test/**/*.test.ts",
  "{test-vectors,bench}/test/**/*.test.ts",
];
// The server suite that adds process handlers. (The suites that spawn `chatwire serve` only pass
// the worker's environment on to the child; none of the shared-modules suites writes it.)
const SERVER_ISOLATED = "packages/server/test/slow-clients.test.ts";

export default defineConfig({
  resolve: { conditions: ["source", ...defaultClientConditions] },
  ssr: { resolve: { conditions, externalConditions: ["source"] } },
  test: {
    globalSetup: [
      "./test-support/fixtures-notice.ts",
      "./test-support/build-dist.ts",
      "./test-support/table-cache-dir.ts",
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Worker processes, not threads: the suites touch a lot of fresh memory, and page faults of
    // two workers in one process contend on its one address space (more kernel time).
    pool: "forks",
    // Three workers: many suites block on child processes (CLI, server, reference tools) or wait
    // on a browser, and on a two-core machine a third worker keeps both cores busy meanwhile.
    // (vitest's default, cores - 1, would run every file one after another on two cores; four
    // workers contended for the cores and took longer than three.)
    maxWorkers: 3,
    // The known-slow files first (test-support/slow-files.ts), so no long file starts last.
    sequence: { sequencer: SlowFirstSequencer },
    // A worker keeps the shared-modules suites' modules (and the tokenizers their support modules
    // cache) from file to file instead of re-importing and reloading them for each file. The server
    // suite that adds process handlers, and the playground (a browser and a Vite build), get a
    // fresh module graph per file.
    projects: [
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["{packages,examples}/*/test/**/*.test.ts", "{test-vectors,bench}/test/**/*.test.ts"],
          exclude: [...SHARED_MODULES, "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: { name: "isolated-server", include: [SERVER_ISOLATED] },
      },
      {
        extends: true,
        test: {
          name: "shared-modules",
          include: SHARED_MODULES,
          exclude: [SERVER_ISOLATED, "**/node_modules/**"],
          isolate: false,
        },
      },
    ],
    // Under CI also write a JSON summary: .ci/run prints "N passed, N failed" from it.
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".ci/test-results.json" }]] : ["default"],
  },
});
