import { appendFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";

/**
 * Under Stryker, when MUTATION_TIMINGS names a file (vitest.config.ts): one JSON line per run of its vitest (the dry
 * run's, then one per mutant) with the run's wall time and, for each test file that ran, in the order it ran, its
 * result and where its time went. `npm run bench:mutation -- <file>` reads them (docs/testing.md, "Run time").
 */
export default class MutationTimings implements Reporter {
  private vitest!: Vitest;
  private started = 0;
  private ran: TestModule[] = [];

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  onTestRunStart() {
    this.started = performance.now();
    this.ran = [];
  }

  // In the order they ran (one after another, in one worker); files skipped after the first failure never end.
  onTestModuleEnd(module: TestModule) {
    this.ran.push(module);
  }

  onTestRunEnd() {
    const provided = this.vitest.getProvidedContext() as Record<string, unknown>;
    const line = {
      room: process.env.MUTATION_ROOM,
      mode: provided.mode,
      mutant: provided.activeMutant,
      activation: provided.mutantActivation,
      ms: Math.round(performance.now() - this.started),
      files: this.ran.map((m) => {
        const d = m.diagnostic();
        return {
          file: relative(this.vitest.config.root, m.moduleId),
          state: m.state(),
          prepare: Math.round(d.prepareDuration + d.environmentSetupDuration),
          import: Math.round(d.collectDuration),
          setup: Math.round(d.setupDuration),
          tests: Math.round(d.duration),
        };
      }),
    };
    // Stryker's workers run in its sandbox: a relative path means the one `npm run mutate` was started from.
    const file = resolve(process.env.INIT_CWD ?? process.cwd(), process.env.MUTATION_TIMINGS!);
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
}
