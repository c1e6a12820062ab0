// vitest globalSetup: one table cache directory per run (CHATWIRE_CACHE_DIR, a fresh temp dir,
// removed at the end), shared by every suite and by the CLI / server processes they spawn. The
// first directory load of a model file writes its tables there and later loads in the run read
// them, and no run reads or writes the user's cache (~/.cache/chatwire), so a run does not depend
// on what an earlier run or the user left there. A caller's CHATWIRE_CACHE_DIR is kept.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): (() => void) | undefined {
  if (process.env.CHATWIRE_CACHE_DIR !== undefined && process.env.CHATWIRE_CACHE_DIR !== "") return undefined;
  const dir = mkdtempSync(join(tmpdir(), "chatwire-test-tables-"));
  process.env.CHATWIRE_CACHE_DIR = dir;
  return () => {
    delete process.env.CHATWIRE_CACHE_DIR;
    rmSync(dir, { recursive: true, force: true });
  };
}
