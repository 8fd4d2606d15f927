import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order of a mutant's test files under Stryker (vitest.config.ts). A mutant's run stops at its first failing
 * test, and its files run one after another, so the order decides what a killed mutant costs. First the files whose
 * last run failed (the mutant before this one, usually on a nearby line, was killed there), then the quickest by the
 * time their tests took when they last ran. Vitest's own order runs the slowest first, which suits many workers
 * sharing a run to its end; here it ran a 6 s file before the 0.2 s one that kills (docs/testing.md, "The order of a mutant's files").
 */
export default class MutationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const last = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(
        `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId).replaceAll("\\", "/")}`,
      );
    const rank = (spec: TestSpecification) => {
      const result = last(spec);
      return { failed: result?.failed ? 0 : 1, duration: result?.duration ?? Number.MAX_SAFE_INTEGER };
    };
    return files
      .map((spec) => ({ spec, ...rank(spec) }))
      .sort((a, b) => a.failed - b.failed || a.duration - b.duration)
      .map(({ spec }) => spec);
  }
}
