#!/usr/bin/env node
// Runs the TypeScript sources directly (no build step): tsx's ESM loader is registered
// for this process only, then the CLI entry is imported.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
