import { afterAll, beforeAll, beforeEach, inject } from "vitest";

/**
 * Under Stryker only (vitest.config.ts adds this file when STRYKER_MUTATOR_WORKER is set). Stryker's vitest runner
 * counts a mutant hit outside a test body (in a `beforeAll`, between tests, in work a test left running) as "static":
 * such a mutant is then tested by re-running every test of every related file, minutes each. Here the dry run puts
 * those hits on every test of the file they happened in instead, so the mutant runs that file's tests alone, where
 * the hooks run again with the mutant active (Stryker activates runtime mutants in its own first `beforeAll`). Hits
 * while modules load stay static: only a reload re-runs them.
 */
type Coverage = { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
type Namespace = { currentTestId?: string; mutantCoverage?: Coverage };
type Task = { name: string; suite?: Task; file?: { filepath: string } };

const mode = inject("mode" as never) as string | undefined;
const namespace = inject("globalNamespace" as never) as string | undefined;

if (mode === "dry-run" && namespace) {
  const global = globalThis as unknown as Record<string, Namespace>;
  const ns = (global[namespace] ??= {});
  const FILE = "shipwell:file-hooks";
  const tests = new Set<string>();
  let current: string | undefined;

  beforeAll(() => {
    Object.defineProperty(ns, "currentTestId", {
      configurable: true,
      enumerable: true,
      get: () => current ?? FILE,
      set: (id: string | undefined) => (current = id),
    });
  });
  beforeEach(({ task }) => void tests.add(testId(task as unknown as Task)));
  afterAll(() => {
    Object.defineProperty(ns, "currentTestId", { configurable: true, writable: true, value: undefined });
    const perTest = ns.mutantCoverage?.perTest;
    const hooks = perTest?.[FILE];
    if (!perTest || !hooks) return;
    delete perTest[FILE];
    for (const id of tests) {
      const covered = (perTest[id] ??= {});
      for (const [mutant, hits] of Object.entries(hooks)) covered[mutant] = (covered[mutant] ?? 0) + hits;
    }
  });
}

/** Stryker's own test id: the file, `#`, then the names of the suites and the test. */
function testId(task: Task): string {
  const names = [task.name];
  for (let suite = task.suite; suite; suite = suite.suite) names.unshift(suite.name);
  return `${task.file?.filepath ?? "unknown.js"}#${names.join(" ").trim()}`;
}
