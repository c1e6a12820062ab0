#!/usr/bin/env node
// The template-path bench row: `node bench/template.js [--quick]` (src/template-bench.ts).
// Same loader setup as run.js (tsx, the workspace packages' "source" condition).
import { spawnSync } from "node:child_process";
import { register } from "tsx/esm/api";

if (!process.execArgv.includes("--conditions=source")) {
  const argv = [...process.execArgv, "--conditions=source", ...process.argv.slice(1)];
  process.exit(spawnSync(process.execPath, argv, { stdio: "inherit" }).status ?? 1);
}
register();
const { main } = await import("./src/template-bench.ts");
main(process.argv.includes("--quick"));
