import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import MutationSequencer from "./test/mutation-sequencer";

/** Under Stryker (npm run mutate): its vitest runner starts this config in each of its worker processes. */
const stryker = process.env.STRYKER_MUTATOR_WORKER !== undefined;

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // Next.js resolves `server-only` to an empty module on the server; tests are server code too.
      "server-only": fileURLToPath(new URL("node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    // Under Stryker, the tests of the room being mutated (stryker.config.mjs sets MUTATION_TESTS).
    include:
      stryker && process.env.MUTATION_TESTS
        ? process.env.MUTATION_TESTS.split(",")
        : ["lib/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"],
    // Tests that run the code in child processes: a mutant's hits there are invisible to Stryker (docs/testing.md).
    exclude: [
      ...configDefaults.exclude,
      ...(stryker
        ? [
            "test/crash-purchase.test.ts",
            "test/cross-process.test.ts",
            "test/cli.test.ts",
            "test/two-instances.test.ts",
          ]
        : []),
    ],
    globalSetup: ["test/global-setup.ts"],
    // test/mutation-coverage.ts tells Stryker which tests cover a mutant hit in their hooks.
    setupFiles: ["test/setup.ts", ...(stryker ? ["test/mutation-coverage.ts"] : [])],
    pool: "forks",
    // One worker per core, not vitest's default of one fewer: a test file spends much of its time waiting on the
    // database or a loopback server, and on 2 cores one worker left a core idle (docs/testing.md, "Time of the suite").
    maxWorkers: availableParallelism(),
    // Under Stryker, a mutant that leaves a test waiting (a deadline that never fires, a retry that never ends) fails the
    // test here, in 5 s, as a kill. Left to Stryker's own timeout it would cost 20 s plus the room's dry-run overhead
    // and a restart of the runner's process (docs/testing.md, "A mutant that makes a test wait"). The slowest room test
    // takes 2.1 s with two workers busy. Hooks keep 10 s: a file's setup (its database copy, a loopback server) was not
    // measured under load, and a slow one would be a false kill.
    testTimeout: stryker ? 5_000 : 30_000,
    hookTimeout: stryker ? 10_000 : 60_000,
    // Under Stryker: a mutant's files in the order that reaches a kill soonest (test/mutation-sequencer.ts).
    ...(stryker ? { sequence: { sequencer: MutationSequencer } } : {}),
    // Under Stryker with MUTATION_TIMINGS=<file>: where each run's time went (`npm run bench:mutation -- <file>`).
    ...(stryker && process.env.MUTATION_TIMINGS ? { reporters: ["default", "./test/mutation-timings.ts"] } : {}),
  },
});
