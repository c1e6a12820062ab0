// vitest sequencer: the known-slow files start first, so that no long file starts last and
// keeps one worker busy after the others are done (the wall time of a run is the busiest
// worker's). vitest's own order (longest first from its results cache, else the larger
// file first) knows nothing on a fresh clone, where a short file that runs a reference tool can
// come last; ./slow-files.ts lists those files, slowest first.
//
// The isolated project still runs before the shared-modules one (as vitest orders projects): a
// shared-modules worker is kept for the next file only while the next file is also a
// shared-modules one, so mixing the projects would reload the shared modules and fixtures.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { SLOW_FILES } from "./slow-files.ts";

const rank = new Map(SLOW_FILES.map((f, i) => [f, i]));

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const at = new Map(base.map((s, i) => [s, i]));
    const root = this.ctx.config.root;
    const key = (s: TestSpecification): number =>
      rank.get(relative(root, s.moduleId).split("\\").join("/")) ?? SLOW_FILES.length;
    const isolatedFirst = (s: TestSpecification): number => (s.project.config.isolate === false ? 1 : 0);
    return [...base].sort(
      (a, b) => isolatedFirst(a) - isolatedFirst(b) || key(a) - key(b) || (at.get(a) ?? 0) - (at.get(b) ?? 0),
    );
  }
}
