#!/usr/bin/env node
// Copies the repository's docs/cli-contract.md into the package at pack time, so the file that
// `chatwire --help` points to (docs/cli-contract.md, relative to the package) ships with it.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
mkdirSync(resolve(pkg, "docs"), { recursive: true });
copyFileSync(resolve(pkg, "../../docs/cli-contract.md"), resolve(pkg, "docs/cli-contract.md"));
