#!/usr/bin/env node
// The chatwire command: runs the compiled CLI as Node loads it (dist/bundle/, built by
// scripts/build.js; `prepack` builds it for the published package, and the workspace's
// `demo`/test setup build it before use).
import { main } from "../dist/bundle/main.js";

process.exitCode = await main(process.argv.slice(2));
