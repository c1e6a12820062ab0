// Vitest global setup: builds the packages' dist/ (scripts/build.js: `tsc -b`, then the Node
// bundles) before any test runs, because the CLI tests run the bundle the published package runs:
// through the real bin (packages/cli/bin/chatwire.js) or by importing it in-process.
// Incremental: with nothing changed it costs about a second (tsc's no-op check).
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { oncePerRun } from "./once-per-run.ts";

export default function setup(): void {
  oncePerRun("build-dist", () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
    const r = spawnSync(process.execPath, [resolve(root, "scripts/build.js")], {
      cwd: root,
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`scripts/build.js failed:\n${r.stdout}${r.stderr}`);
  });
}
