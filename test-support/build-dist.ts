// Vitest global setup: `tsc -b` the packages' dist/ before any test runs, because the CLI tests
// spawn the real bin (packages/cli/bin/chatwire.js), which runs compiled JavaScript exactly as
// the published package does. Incremental: a no-op build costs about a second.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tsc -b tsconfig.build.json failed:\n${r.stdout}${r.stderr}`);
}
