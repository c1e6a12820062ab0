// The manifest of the ../shared test data (test-vectors/SOURCES.md, parsed by
// test-vectors/fetch-shared.js) against the files here: where each area is looked for, which listed
// files are missing, and which present ones do not have their SHA-256. fixtures-notice.ts reports
// missing files (one skip line locally, a failure under CI); test-vectors/test/shared-sources.test.ts
// checks the hashes.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AREAS, areaOf, parseSources, SOURCES_PATH, type SourceEntry } from "../test-vectors/fetch-shared.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the suites look for an area of ../shared (its environment variable, else the default). */
export function areaDir(area: string): string {
  const v = AREAS[area];
  const env = v === undefined ? undefined : process.env[v];
  return resolve(repoRoot, env !== undefined && env !== "" ? env : `../shared/${area}`);
}

/** The manifest rows. */
export function sharedSources(): SourceEntry[] {
  return parseSources(readFileSync(SOURCES_PATH, "utf8"));
}

/** Where a manifest file is looked for. */
export function sharedPath(e: SourceEntry): string {
  const area = areaOf(e.file) ?? "";
  return join(areaDir(area), e.file.slice(area.length + 1));
}

/** The listed files that are not there. */
export function missingSharedFiles(entries: readonly SourceEntry[] = sharedSources()): SourceEntry[] {
  return entries.filter((e) => !existsSync(sharedPath(e)));
}

export function fileSha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Every file under an area's directory (its SOURCES.md aside), as manifest names ("area/rel"). */
export function filesInArea(area: string): string[] {
  const root = areaDir(area);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(`${area}/${relative(root, p).split("\\").join("/")}`);
    }
  };
  walk(root);
  return out.filter((f) => f !== `${area}/SOURCES.md`).sort();
}
