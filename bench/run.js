#!/usr/bin/env node
// chatwire bench: `node bench/run.js [--quick] [--json]`.
// Plain JS entry: registers tsx so the driver and the workspace TypeScript packages load,
// then runs the driver (src/orchestrate.ts), which spawns one worker process per compared
// library. --quick: fewer lengths/rounds (under 3 minutes here). --json: the last stdout line
// is ONE JSON object (the summary; also written to bench/out/). Without --quick it also
// writes bench/RESULTS.md and bench/results-plot.svg. Method and reading: bench/README.md.
import { spawnSync } from "node:child_process";
import { register } from "tsx/esm/api";

// The workspace packages resolve to their sources only under the "source" export condition
// (their "default" is the built dist/): re-run this process with it when it is missing.
if (!process.execArgv.includes("--conditions=source")) {
  const argv = [...process.execArgv, "--conditions=source", ...process.argv.slice(1)];
  process.exit(spawnSync(process.execPath, argv, { stdio: "inherit" }).status ?? 1);
}
register();
const args = new Set(process.argv.slice(2));
for (const a of args) {
  if (a !== "--quick" && a !== "--json") {
    process.stderr.write(`unknown option ${a}; usage: node bench/run.js [--quick] [--json]\n`);
    process.exit(2);
  }
}
const { main } = await import("./src/orchestrate.ts");
await main({ quick: args.has("--quick"), json: args.has("--json") });
