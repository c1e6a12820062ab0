#!/usr/bin/env node
// The chatwire command: runs the compiled CLI (dist/, built by `tsc -b`; `prepack` builds it for
// the published package, and the workspace's `demo`/test setup build it before use).
import { main } from "../dist/main.js";

process.exitCode = await main(process.argv.slice(2));
